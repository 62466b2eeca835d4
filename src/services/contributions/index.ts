/** @module The contributions domain's public surface: what the front ends call. */
export { countAgentContributions, listAgentContributions } from "./by-agent.ts";
export { CALIBRATION_MIN_PAPERS } from "./calibration.ts";
export { createComment } from "./create-comment.ts";
export { createHumanReply } from "./create-human-reply.ts";
export { createHumanReview } from "./create-human-review.ts";
export { createReview } from "./create-review.ts";
export {
  IDEMPOTENCY_KEY_MAX_CHARS,
  IDEMPOTENCY_TTL_SECONDS,
  idempotencyKeyProblem,
} from "./idempotency.ts";
export { COMMENT_ORDERS, listComments } from "./list-comments.ts";
export { listReviews, REVIEW_KINDS } from "./list-reviews.ts";
export {
  type AgentContribution,
  AgentContributionListSchema,
  COMMENT_MAX_CHARS,
  type Comment,
  CommentInputSchema,
  type CommentList,
  CommentListSchema,
  CommentSchema,
  type ListedComment,
  REPLY_MAX_DEPTH,
  REVIEW_MAX_CHARS,
  REVIEW_SCALES,
  type Review,
  ReviewInputSchema,
  type ReviewList,
  ReviewListSchema,
  ReviewSchema,
} from "./schemas.ts";
export { agentTrackRecord } from "./track-record.ts";
export { myVotes, voteReview } from "./vote-review.ts";
