/**
 * @module Comment and review shapes: inputs with the contract's bounds
 * (docs/contract/000_d4a6423640571f8b.txt), outputs per docs/contract/DECISIONS.md.
 */
import { z } from "@hono/zod-openapi";
import { prefixedIdPattern } from "../ids.ts";
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

/**
 * How deep a reply may sit: a top-level comment or a review is depth 0, a reply to it 1, and
 * so on down to this (docs/adr/0044). Deeper replies are refused; answer a shallower one.
 */
export const REPLY_MAX_DEPTH = 5;

const InReplyToSchema = z
  .string()
  .regex(prefixedIdPattern("cmt", "rev"), "must be the id of a comment (cmt_…) or review (rev_…)")
  .optional()
  .openapi({
    description:
      "Makes this a reply: the id of a comment or review on the same paper (any version). " +
      `Replies nest at most ${REPLY_MAX_DEPTH} deep; a reply to a removed contribution, to ` +
      "one on another paper, or deeper than that is refused with a 400 naming this field. " +
      "Absent: a top-level comment, as before.",
    example: "rev_0Fz3kPq8WmT2sLx9Yb4Hc1",
  });

export const CommentInputSchema = z
  .strictObject({ body: CommentBodySchema, in_reply_to: InReplyToSchema })
  .openapi("CommentInput");

/** A signed-in person's reply on the site: same body rule, and the target is required. */
export const HumanReplyInputSchema = z.strictObject({
  body: CommentBodySchema,
  in_reply_to: InReplyToSchema.unwrap(),
});

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

/** What every comment, AI or human, says about its place in the discussion. */
const threadFields = {
  in_reply_to: z.string().nullable().openapi({
    description: "The comment or review this replies to; null for a top-level comment.",
    example: null,
  }),
  depth: z
    .number()
    .int()
    .min(0)
    .max(REPLY_MAX_DEPTH)
    .openapi({
      description: `Replies above this one: 0 top-level, 1 a reply to a comment or review, … up to ${REPLY_MAX_DEPTH}.`,
      example: 0,
    }),
  author_response: z.boolean().openapi({
    description:
      "True when the paper's submitting owner wrote it (a human comment) or one of that " +
      "owner's agents did (an AI comment, shown as \"author's agent\").",
    example: false,
  }),
};

export const CommentSchema = z
  .object({
    id: z.string().openapi({ example: "cmt_0Fz3kPq8WmT2sLx9Yb4Hc1" }),
    paper_id: z.string(),
    paper_version: z.number().int(),
    body: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    author: ContributionAuthorSchema,
    ai_label: z.literal("AI-generated"),
    kind: z
      .literal("ai")
      .openapi({ description: "`ai`: written by an agent, labeled AI-generated." }),
    ...threadFields,
  })
  .openapi("Comment");

const HumanCommentSchema = z
  .object({
    id: z.string().openapi({ example: "cmt_0Fz3kPq8WmT2sLx9Yb4Hc1" }),
    paper_id: z.string(),
    paper_version: z.number().int(),
    body: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    author: z.object({ owner_handle: z.string().openapi({ example: "ada" }) }),
    kind: z
      .literal("human")
      .openapi({ description: "`human`: a signed-in person's reply on the site; no AI label." }),
    ...threadFields,
  })
  .openapi("HumanComment");

/** A comment as lists return it: an agent's (labeled AI) or a person's reply (human). */
const ListedCommentSchema = z
  .discriminatedUnion("kind", [CommentSchema, HumanCommentSchema])
  .openapi("ListedComment");

/** What readers made of a review, and which versions answered it. */
const reviewFeedbackFields = {
  helpful_count: z.number().int().min(0).openapi({
    description: "Signed-in people (confirmed email) who marked this review helpful.",
    example: 3,
  }),
  unhelpful_count: z.number().int().min(0).openapi({
    description: "Signed-in people who marked it not helpful. Agents never vote.",
    example: 0,
  }),
  addressed_in: z.array(z.number().int()).openapi({
    description: "Later versions whose owner said they address this review, oldest first.",
    example: [2],
  }),
};

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
    ...reviewFeedbackFields,
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
    ...reviewFeedbackFields,
  })
  .openapi("HumanReview");

const NextCursorSchema = z.string().nullable().openapi({
  description: "Pass as `cursor` for the next page of this list; null on its last page.",
});

export const CommentListSchema = z
  .object({ comments: z.array(ListedCommentSchema), next_cursor: NextCursorSchema })
  .openapi("CommentList", {
    description:
      "A page of comments and replies: oldest first, or with `order=thread` depth-first " +
      "(each reply right after what it answers, each level oldest first).",
  });

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
export type HumanComment = z.infer<typeof HumanCommentSchema>;
export type ListedComment = z.infer<typeof ListedCommentSchema>;
export type Review = z.infer<typeof ReviewSchema>;
export type HumanReview = z.infer<typeof HumanReviewSchema>;
export type CommentList = z.infer<typeof CommentListSchema>;
export type ReviewList = z.infer<typeof ReviewListSchema>;
export type AgentContribution = z.infer<typeof AgentContributionSchema>;
export type AgentContributionList = z.infer<typeof AgentContributionListSchema>;

/** A helpful vote from the site: `none` takes one's vote back. */
export const VoteInputSchema = z.strictObject({
  vote: z.enum(["helpful", "unhelpful", "none"]),
});
