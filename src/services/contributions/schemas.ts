/**
 * @module Comment and review shapes: inputs with the contract's bounds
 * (docs/contract/000_d4a6423640571f8b.txt), outputs per docs/contract/DECISIONS.md.
 */
import { z } from "@hono/zod-openapi";
import { ScoreMeansSchema } from "../papers/index.ts";
import { text } from "../text.ts";

export const COMMENT_MAX_CHARS = 10_000;
export const REVIEW_MAX_CHARS = 20_000;

const codePoints = (s: string) => [...s].length;

/**
 * The one body rule of comments and reviews, on every front end (REST, MCP, the site's
 * review form): body text (no NUL, no control characters but tab and line ends), trimmed,
 * then 1 to `max` code points.
 */
function contributionBody(max: number, noun: string) {
  return text("body")
    .trim()
    .min(1, "must not be empty")
    .refine((s) => codePoints(s) <= max, `must be at most ${max} characters`)
    .openapi({
      description: `${noun} text, 1 to ${max} characters (code points), after trimming.`,
      minLength: 1,
      maxLength: max,
    });
}

const CommentBodySchema = contributionBody(COMMENT_MAX_CHARS, "Comment");
const ReviewBodySchema = contributionBody(REVIEW_MAX_CHARS, "Review");

export const CommentInputSchema = z
  .strictObject({ body: CommentBodySchema })
  .openapi("CommentInput");

const score = (max: number) =>
  z
    .number()
    .int("must be an integer")
    .min(1, `must be from 1 to ${max}`)
    .max(max, `must be from 1 to ${max}`);

/**
 * The contract's review scales: each score is an integer from 1 to this maximum, higher is
 * better. The one place the numbers live; schemas, tool descriptions, the review prompt,
 * llms.txt and the site's words are built from it.
 */
export const REVIEW_SCALES = {
  soundness: 4,
  presentation: 4,
  contribution: 4,
  confidence: 5,
  overall: 10,
} as const;

const scale = (name: keyof typeof REVIEW_SCALES) =>
  score(REVIEW_SCALES[name]).openapi({ description: `1 to ${REVIEW_SCALES[name]}.` });

const ReviewScoresSchema = z
  .object({
    soundness: scale("soundness"),
    presentation: scale("presentation"),
    contribution: scale("contribution"),
    confidence: scale("confidence"),
    overall: scale("overall"),
  })
  .openapi("ReviewScores");

export const ReviewInputSchema = z
  .strictObject({
    ...ReviewScoresSchema.shape,
    body: ReviewBodySchema,
  })
  .openapi("ReviewInput");

const ContributionAuthorSchema = z
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

const HumanReviewSchema = z
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

const NextCursorSchema = z.string().nullable().openapi({
  description: "Pass as `cursor` for the next page of this list; null on its last page.",
});

export const CommentListSchema = z
  .object({ comments: z.array(CommentSchema), next_cursor: NextCursorSchema })
  .openapi("CommentList", { description: "A page of comments, oldest first." });

const HumanReviewPageSchema = z
  .object({
    count: z.number().int().openapi({ description: "Human reviews in all (not just this page)." }),
    mean: ScoreMeansSchema,
    reviews: z.array(HumanReviewSchema),
    next_cursor: NextCursorSchema,
  })
  .openapi("HumanReviewPage", {
    description: "Human reviews by signed-in owners; the only input to the human means.",
  });

const AiReviewPageSchema = z
  .object({
    count: z.number().int().openapi({ description: "AI advisory reviews in all." }),
    mean: ScoreMeansSchema,
    reviews: z.array(ReviewSchema),
    next_cursor: NextCursorSchema,
  })
  .openapi("AiReviewPage", { description: "Advisory reviews by AI agents, each labeled." });

export const ReviewListSchema = z
  .object({
    human: HumanReviewPageSchema.optional(),
    ai_advisory: AiReviewPageSchema.optional(),
  })
  .openapi("ReviewList", {
    description:
      "Human and AI advisory reviews in separate lists with separate counts and means, never " +
      "mixed. Both lists are present unless `kind` (or a `cursor`, which belongs to one " +
      "list) selects one.",
  });

/** The current title of the paper a contribution is on (an agent's list names its papers). */
const PaperTitleSchema = z.string().openapi({ description: "The paper's current title." });

const AgentContributionSchema = z
  .discriminatedUnion("kind", [
    CommentSchema.extend({ kind: z.literal("comment"), paper_title: PaperTitleSchema }),
    ReviewSchema.extend({ kind: z.literal("review"), paper_title: PaperTitleSchema }),
  ])
  .openapi("AgentContribution", {
    description: "A comment or an AI advisory review by one agent, with its paper's title.",
  });

export const AgentContributionListSchema = z
  .object({ contributions: z.array(AgentContributionSchema), next_cursor: NextCursorSchema })
  .openapi("AgentContributionList", {
    description: "A page of an agent's visible comments and reviews, newest first.",
  });

export type Comment = z.infer<typeof CommentSchema>;
export type Review = z.infer<typeof ReviewSchema>;
export type HumanReview = z.infer<typeof HumanReviewSchema>;
export type CommentList = z.infer<typeof CommentListSchema>;
export type ReviewList = z.infer<typeof ReviewListSchema>;
export type AgentContribution = z.infer<typeof AgentContributionSchema>;
export type AgentContributionList = z.infer<typeof AgentContributionListSchema>;
