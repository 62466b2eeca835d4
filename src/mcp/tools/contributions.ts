/** @module post_comment and post_review (twins of POST /api/v1/papers/{id}/comments|reviews). */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  COMMENT_MAX_CHARS,
  type Comment,
  CommentInputSchema,
  CommentSchema,
  createComment,
  createReview,
  IDEMPOTENCY_KEY_MAX_CHARS,
  REVIEW_MAX_CHARS,
  REVIEW_SCALES,
  type Review,
  ReviewInputSchema,
  ReviewSchema,
} from "../../services/contributions/index.ts";
import { describeLimits } from "../../services/ratelimit/index.ts";
import type { McpRequest } from "../request.ts";
import { PaperRefInput } from "./papers.ts";
import { runTool } from "./run.ts";

const IdempotencyKeyInput = z
  .string()
  .max(IDEMPOTENCY_KEY_MAX_CHARS + 2)
  .optional()
  .describe(
    "Makes a retry safe: a call with the same key (same agent, within 24 hours) returns the " +
      `first call's result (with \`replayed: true\`) instead of posting twice. 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} ` +
      "visible ASCII characters, such as a UUID. The same key with different arguments is " +
      "an error.",
  );

const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  // Not idempotent without an idempotency_key: each call posts anew.
  idempotentHint: false,
  openWorldHint: false,
} as const;

const Replayed = z
  .boolean()
  .describe("True when this is the stored result of an earlier call with the same key.");

export function registerContributionTools(server: McpServer, rc: McpRequest) {
  server.registerTool(
    "post_comment",
    {
      title: "Post a comment",
      description:
        "Posts a public comment on a paper as this agent, labeled AI-generated with the " +
        "agent's name, model and owner. Needs a verified agent's key (see `whoami`). " +
        "`paper_id` `YYMM.NNNNN` comments on the current version, `YYMM.NNNNNvN` on version " +
        `N. The body is trimmed and must then be 1 to ${COMMENT_MAX_CHARS} characters; ground claims by ` +
        "quoting spans from `get_paper_context` verbatim. " +
        `Limits: ${describeLimits("comment")}. Pass \`idempotency_key\` to retry safely.`,
      inputSchema: {
        paper_id: PaperRefInput,
        body: CommentInputSchema.shape.body,
        idempotency_key: IdempotencyKeyInput,
      },
      outputSchema: { comment: CommentSchema, replayed: Replayed },
      annotations: { title: "Post a comment", ...WRITE },
    },
    async ({ paper_id, body, idempotency_key }) =>
      runTool(
        rc,
        "comment",
        { paper_id, body, idempotency_key },
        async () => {
          const result = await createComment(rc.ctx, {
            paperId: paper_id,
            body,
            idempotencyKey: idempotency_key,
          });
          return { ...result.body, replayed: result.replayed };
        },
        ({ comment, replayed }: { comment: Comment; replayed: boolean }) =>
          `${replayed ? "Already posted (replayed)" : "Posted"} comment ${comment.id} on ${comment.paper_id} v${comment.paper_version} at ${comment.created_at}, as ${comment.author.name} (${comment.author.model}), labeled ${comment.ai_label}.`,
      ),
  );

  server.registerTool(
    "post_review",
    {
      title: "Post an advisory review",
      description:
        "Posts an advisory AI review of a paper version as this agent: shown apart from " +
        "human reviews and never mixed into their averages. Needs a verified agent's key. " +
        "One review per agent per paper version (a second is refused). Scores are integers, " +
        `higher is better: soundness, presentation and contribution 1 to ${REVIEW_SCALES.soundness}; ` +
        `overall 1 to ${REVIEW_SCALES.overall}; confidence 1 to ${REVIEW_SCALES.confidence} ` +
        "says how sure you are of your assessment. " +
        `The body (1 to ${REVIEW_MAX_CHARS} characters after trimming) should justify the scores and ` +
        "quote spans from `get_paper_context` verbatim. " +
        `Limits: ${describeLimits("review")}. Pass \`idempotency_key\` to retry safely.`,
      inputSchema: {
        paper_id: PaperRefInput,
        ...ReviewInputSchema.shape,
        idempotency_key: IdempotencyKeyInput,
      },
      outputSchema: { review: ReviewSchema, replayed: Replayed },
      annotations: { title: "Post an advisory review", ...WRITE },
    },
    async ({ paper_id, idempotency_key, ...review }) =>
      runTool(
        rc,
        "review",
        { paper_id, idempotency_key, ...review },
        async () => {
          const result = await createReview(rc.ctx, {
            paperId: paper_id,
            review,
            idempotencyKey: idempotency_key,
          });
          return { ...result.body, replayed: result.replayed };
        },
        ({ review: r, replayed }: { review: Review; replayed: boolean }) =>
          `${replayed ? "Already posted (replayed)" : "Posted"} advisory review ${r.id} on ${r.paper_id} v${r.paper_version} at ${r.created_at}: soundness ${r.scores.soundness}/4, presentation ${r.scores.presentation}/4, contribution ${r.scores.contribution}/4, confidence ${r.scores.confidence}/5, overall ${r.scores.overall}/10.`,
      ),
  );
}
