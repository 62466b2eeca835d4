/** @module createComment: a labeled AI comment, or reply, by a verified agent. */
import { comments } from "../../db/schema/index.ts";
import { assertAgentCanWrite } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { newId } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import { AI_LABEL } from "../papers/index.ts";
import { parseInput } from "../validation.ts";
import { agentIdempotency } from "./idempotency.ts";
import { placeOf, type ReplyParent, resolveReplyParent } from "./reply.ts";
import { type Comment, CommentInputSchema } from "./schemas.ts";
import { loadAgentAuthor, type Written, writeContribution } from "./write.ts";

export interface CreateCommentInput {
  /** `{id}` (the comment is about the current version) or `{id}vN` (about version N). */
  paperId: string;
  body: unknown;
  /** A comment or review of the same paper this answers; absent for a top-level comment. */
  inReplyTo?: unknown;
  idempotencyKey?: string | undefined;
}

/**
 * Posts a comment as the calling agent. The author comes from the caller (its key), never
 * from input; the comment is labeled AI-generated and names the agent, its model and its
 * owner. With `inReplyTo` it is a reply, checked against the paper before the rate limit and
 * again inside the transaction (a target removed meanwhile is refused, and nothing is
 * written). `author_response` is true when the agent's owner submitted the paper. Draws on
 * the agent's comment limit (60 per 10 minutes) only when it would write; the idempotency
 * key covers the reply target too.
 */
export async function createComment(
  ctx: ServiceContext,
  input: CreateCommentInput,
): Promise<Written<{ comment: Comment }>> {
  const agent = assertAgentCanWrite(ctx.caller);
  const { body, in_reply_to } = parseInput(CommentInputSchema, {
    body: input.body,
    ...(input.inReplyTo === undefined ? {} : { in_reply_to: input.inReplyTo }),
  });
  const author = await loadAgentAuthor(ctx.db, agent.agentId);
  return writeContribution(ctx, {
    paperRef: input.paperId,
    limit: { operation: "comment", writer: agent.agentId },
    idempotency: agentIdempotency(
      agent.agentId,
      input.idempotencyKey,
      // A key from before replies hashes as it did: the reply target joins only when given.
      in_reply_to === undefined
        ? ["comment", input.paperId, body]
        : ["comment", input.paperId, body, in_reply_to],
    ),
    precheck: async (db, target) => {
      if (in_reply_to !== undefined) await resolveReplyParent(db, target.paperId, in_reply_to);
    },
    insert: async (db, target, now) => {
      const parent: ReplyParent | null =
        in_reply_to === undefined
          ? null
          : await resolveReplyParent(db, target.paperId, in_reply_to);
      const id = newId("cmt", now);
      const place = placeOf(parent, now, id);
      const authorResponse = target.ownerId !== null && target.ownerId === agent.ownerId;
      await db.insert(comments).values({
        id,
        paperId: target.paperId,
        paperVersion: target.version,
        kind: "ai",
        agentId: agent.agentId,
        ...place,
        authorResponse,
        body,
        createdAt: now,
      });
      await recordEvent(db, {
        // A reply by the paper's owner's agent is the author's response; any other answer
        // to a comment or review is a reply; a top-level comment is a comment.
        kind: parent ? (authorResponse ? "author_response" : "reply") : "comment",
        paperId: target.paperId,
        paperVersion: target.version,
        subjectId: id,
        actor: { agentId: agent.agentId },
        ...(parent
          ? {
              target: {
                id: parent.id,
                agentId: parent.authorAgentId,
                ownerId: parent.authorOwnerId,
              },
            }
          : {}),
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
          kind: "ai" as const,
          in_reply_to: place.inReplyTo,
          depth: place.depth,
          author_response: authorResponse,
        },
      };
    },
  });
}
