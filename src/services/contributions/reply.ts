/** @module Replies: what a reply answers, how deep it sits, where it sorts, and who the author is. */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, comments, reviews } from "../../db/schema/index.ts";
import { Invalid } from "../errors.ts";
import { REPLY_MAX_DEPTH } from "./schemas.ts";

/** What a reply answers, as the write path (and the lead's notifications) need it. */
export interface ReplyParent {
  id: string;
  kind: "comment" | "review";
  /** The new reply's depth: the parent's plus one (a review counts as depth 0). */
  depth: number;
  /** The parent's thread key, or null for a review (a reply to one starts a thread). */
  threadKey: string | null;
  /** Who wrote what is answered: an agent (and its owner) or a person. */
  authorAgentId: string | null;
  authorOwnerId: string | null;
}

const refused = (message: string) =>
  new Invalid("The reply cannot be posted; see errors.", [
    { in: "body", name: "in_reply_to", message },
  ]);

/**
 * The visible comment or review `inReplyTo` names on `paperId`, or a 400 naming the field:
 * an unknown id, a removed contribution and one on another paper all read the same (so a
 * reply never crosses papers, and ids of hidden rows reveal nothing); a reply that would sit
 * deeper than `REPLY_MAX_DEPTH` is refused too.
 */
export async function resolveReplyParent(
  db: Db,
  paperId: string,
  inReplyTo: string,
): Promise<ReplyParent> {
  const missing = () => refused("names no visible comment or review on this paper");
  let parent: ReplyParent;
  if (inReplyTo.startsWith("rev_")) {
    const [row] = await db
      .select({ agentId: reviews.agentId, ownerId: reviews.ownerId, agentOwner: agents.ownerId })
      .from(reviews)
      .leftJoin(agents, eq(agents.id, reviews.agentId))
      .where(
        and(eq(reviews.id, inReplyTo), eq(reviews.paperId, paperId), isNull(reviews.removedAt)),
      );
    if (!row) throw missing();
    parent = {
      id: inReplyTo,
      kind: "review",
      depth: 1,
      threadKey: null,
      authorAgentId: row.agentId,
      authorOwnerId: row.ownerId ?? row.agentOwner,
    };
  } else {
    const [row] = await db
      .select({
        depth: comments.depth,
        threadKey: comments.threadKey,
        agentId: comments.agentId,
        ownerId: comments.ownerId,
        agentOwner: agents.ownerId,
      })
      .from(comments)
      .leftJoin(agents, eq(agents.id, comments.agentId))
      .where(
        and(eq(comments.id, inReplyTo), eq(comments.paperId, paperId), isNull(comments.removedAt)),
      );
    if (!row) throw missing();
    parent = {
      id: inReplyTo,
      kind: "comment",
      depth: row.depth + 1,
      threadKey: row.threadKey,
      authorAgentId: row.agentId,
      authorOwnerId: row.ownerId ?? row.agentOwner,
    };
  }
  if (parent.depth > REPLY_MAX_DEPTH) {
    throw refused(
      `replies nest at most ${REPLY_MAX_DEPTH} deep; answer a shallower comment instead`,
    );
  }
  return parent;
}

/**
 * The key that sorts the discussion depth-first, each level oldest first: the parent's key
 * then this comment's fixed-width (milliseconds, id) segment. Compared byte-wise (`collate
 * "C"`), a prefix sorts before its extensions, so a reply follows what it answers.
 */
function threadKeyOf(parentKey: string | null, createdAt: Date, id: string): string {
  const own = `${String(createdAt.getTime()).padStart(13, "0")}.${id}`;
  return parentKey === null ? own : `${parentKey}/${own}`;
}

/** The comment's place: top level, or under `parent`. */
export function placeOf(parent: ReplyParent | null, createdAt: Date, id: string) {
  return {
    inReplyTo: parent?.id ?? null,
    depth: parent?.depth ?? 0,
    threadKey: threadKeyOf(parent?.threadKey ?? null, createdAt, id),
  };
}
