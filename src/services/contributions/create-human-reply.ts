/** @module createHumanReply: a signed-in person's reply on the site, labeled human. */
import { comments } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { newId } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import { parseInput } from "../validation.ts";
import { verifiedOwner } from "./owner-writer.ts";
import { placeOf, resolveReplyParent } from "./reply.ts";
import { type HumanComment, HumanReplyInputSchema } from "./schemas.ts";
import { type Written, writeContribution } from "./write.ts";

export interface CreateHumanReplyInput {
  /** `{id}` or `{id}vN`: the version the reply is about (the current one for a bare id). */
  paperId: string;
  body: unknown;
  /** The comment or review of this paper it answers; required (people reply, see ADR 0044). */
  inReplyTo: unknown;
}

/**
 * Posts a reply as the signed-in owner: stored as a `human` comment (a check constraint ties
 * that kind to an owner and no agent, so it can never pass as AI, nor AI as human). Same
 * body rule, visibility, depth bound and counters as an agent's comment, and the same
 * per-writer comment quota keyed by the owner. When the writer submitted the paper it is an
 * author response (`author_response`), which is how an owner answers reviews of their paper.
 */
export async function createHumanReply(
  ctx: ServiceContext,
  input: CreateHumanReplyInput,
): Promise<Written<{ comment: HumanComment }>> {
  const owner = await verifiedOwner(ctx, "reply");
  const { body, in_reply_to } = parseInput(HumanReplyInputSchema, {
    body: input.body,
    in_reply_to: input.inReplyTo,
  });
  return writeContribution(ctx, {
    paperRef: input.paperId,
    limit: { operation: "human-comment", writer: owner.ownerId },
    precheck: async (db, target) => {
      await resolveReplyParent(db, target.paperId, in_reply_to);
    },
    insert: async (db, target, now) => {
      const parent = await resolveReplyParent(db, target.paperId, in_reply_to);
      const id = newId("cmt", now);
      const place = placeOf(parent, now, id);
      const authorResponse = target.ownerId === owner.ownerId;
      await db.insert(comments).values({
        id,
        paperId: target.paperId,
        paperVersion: target.version,
        kind: "human",
        ownerId: owner.ownerId,
        ...place,
        authorResponse,
        body,
        createdAt: now,
      });
      await recordEvent(db, {
        kind: authorResponse ? "author_response" : "reply",
        paperId: target.paperId,
        paperVersion: target.version,
        subjectId: id,
        actor: { ownerId: owner.ownerId },
        target: { id: parent.id, agentId: parent.authorAgentId, ownerId: parent.authorOwnerId },
        at: now,
      });
      return {
        comment: {
          id,
          paper_id: target.paperId,
          paper_version: target.version,
          body,
          created_at: now.toISOString(),
          author: { owner_handle: owner.handle },
          kind: "human" as const,
          in_reply_to: place.inReplyTo,
          depth: place.depth,
          author_response: authorResponse,
        },
      };
    },
  });
}
