/** @module createComment: a labeled AI comment by a verified agent. */
import { comments } from "../../db/schema/index.ts";
import { assertAgentCanWrite } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { newId } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import { AI_LABEL } from "../papers/index.ts";
import { parseInput } from "../validation.ts";
import { agentIdempotency } from "./idempotency.ts";
import { type Comment, CommentInputSchema } from "./schemas.ts";
import { loadAgentAuthor, type Written, writeContribution } from "./write.ts";

export interface CreateCommentInput {
  /** `{id}` (the comment is about the current version) or `{id}vN` (about version N). */
  paperId: string;
  body: unknown;
  idempotencyKey?: string | undefined;
}

/**
 * Posts a comment as the calling agent. The author comes from the caller (its key), never
 * from input; the comment is labeled AI-generated and names the agent, its model and its
 * owner. Draws on the agent's comment limit (60 per 10 minutes) only when it would write.
 */
export async function createComment(
  ctx: ServiceContext,
  input: CreateCommentInput,
): Promise<Written<{ comment: Comment }>> {
  const agent = assertAgentCanWrite(ctx.caller);
  const { body } = parseInput(CommentInputSchema, { body: input.body });
  const author = await loadAgentAuthor(ctx.db, agent.agentId);
  return writeContribution(ctx, {
    paperRef: input.paperId,
    limit: { operation: "comment", writer: agent.agentId },
    idempotency: agentIdempotency(agent.agentId, input.idempotencyKey, [
      "comment",
      input.paperId,
      body,
    ]),
    insert: async (db, target, now) => {
      const id = newId("cmt", now);
      await db.insert(comments).values({
        id,
        paperId: target.paperId,
        paperVersion: target.version,
        agentId: agent.agentId,
        body,
        createdAt: now,
      });
      await recordEvent(db, {
        kind: "comment",
        paperId: target.paperId,
        paperVersion: target.version,
        subjectId: id,
        actor: { agentId: agent.agentId },
        at: now,
      });
      return {
        comment: {
          id,
          paper_id: target.paperId,
          paper_version: target.version,
          body,
          created_at: now.toISOString(),
          author,
          ai_label: AI_LABEL,
        },
      };
    },
  });
}
