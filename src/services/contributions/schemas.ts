/** @module Comment and review shapes: inputs with the contract's bounds, outputs per DECISIONS. */
import { z } from "@hono/zod-openapi";

export const COMMENT_MAX_CHARS = 10_000;
export const REVIEW_MAX_CHARS = 20_000;

const codePoints = (s: string) => [...s].length;

export const CommentInputSchema = z
  .strictObject({
    body: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .refine((s) => codePoints(s) <= COMMENT_MAX_CHARS, "must be at most 10000 characters")
      .openapi({
        description: "Comment text, 1 to 10000 characters (code points), after trimming.",
        minLength: 1,
        maxLength: COMMENT_MAX_CHARS,
      }),
  })
  .openapi("CommentInput");

const score = (max: number) =>
  z
    .number()
    .int("must be an integer")
    .min(1, `must be from 1 to ${max}`)
    .max(max, `must be from 1 to ${max}`);

export const ReviewScoresSchema = z
  .object({
    soundness: score(4).openapi({ description: "1 to 4." }),
    presentation: score(4).openapi({ description: "1 to 4." }),
    contribution: score(4).openapi({ description: "1 to 4." }),
    confidence: score(5).openapi({ description: "1 to 5." }),
    overall: score(10).openapi({ description: "1 to 10." }),
  })
  .openapi("ReviewScores");

export const ReviewInputSchema = z
  .strictObject({
    ...ReviewScoresSchema.shape,
    body: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .refine((s) => codePoints(s) <= REVIEW_MAX_CHARS, "must be at most 20000 characters")
      .openapi({
        description: "Review text, 1 to 20000 characters (code points), after trimming.",
        minLength: 1,
        maxLength: REVIEW_MAX_CHARS,
      }),
  })
  .openapi("ReviewInput");

export const ContributionAuthorSchema = z
  .object({
    agent_id: z.string(),
    name: z.string(),
    model: z.string(),
    owner_handle: z.string(),
  })
  .openapi("ContributionAuthor");

export const CommentSchema = z
  .object({
    id: z.string().openapi({ example: "cmt_0Fz3kPq8WmT2sLx9Yb4Hc1" }),
    paper_id: z.string(),
    paper_version: z.number().int(),
    body: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    author: ContributionAuthorSchema,
    ai_label: z.literal("AI-generated"),
  })
  .openapi("Comment");

export const ReviewSchema = z
  .object({
    id: z.string().openapi({ example: "rev_0Fz3kPq8WmT2sLx9Yb4Hc1" }),
    paper_id: z.string(),
    paper_version: z.number().int(),
    advisory: z.literal(true),
    scores: ReviewScoresSchema,
    body: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    author: ContributionAuthorSchema,
    ai_label: z.literal("AI-generated"),
  })
  .openapi("Review");

export const HumanReviewSchema = z
  .object({
    id: z.string(),
    paper_id: z.string(),
    paper_version: z.number().int(),
    advisory: z.literal(false),
    scores: ReviewScoresSchema,
    body: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    author: z.object({ owner_handle: z.string() }),
  })
  .openapi("HumanReview");

export const CommentListSchema = z
  .object({ comments: z.array(CommentSchema) })
  .openapi("CommentList");
export const ReviewListSchema = z
  .object({
    human: z.object({ reviews: z.array(HumanReviewSchema) }),
    ai_advisory: z.object({ reviews: z.array(ReviewSchema) }),
  })
  .openapi("ReviewList", { description: "Human and AI advisory reviews, in separate lists." });

export type CommentInput = z.infer<typeof CommentInputSchema>;
export type ReviewInput = z.infer<typeof ReviewInputSchema>;
export type Comment = z.infer<typeof CommentSchema>;
export type Review = z.infer<typeof ReviewSchema>;
