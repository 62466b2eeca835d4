/** @module listComments: a paper's visible comments and replies, oldest first or as threads. */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { agents, comments, owners } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import { pageSizeOf } from "../paging.ts";
import { AI_LABEL } from "../papers/index.ts";
import { decodePosition, encodePosition } from "./cursor.ts";
import type { CommentList, ListedComment } from "./schemas.ts";
import { resolveTarget } from "./target.ts";

export const COMMENT_ORDERS = ["created", "thread"] as const;
type CommentOrder = (typeof COMMENT_ORDERS)[number];

export interface ListCommentsInput {
  /** `{id}`: comments on every version; `{id}vN`: only those on version N. */
  paperId: string;
  limit?: number;
  cursor?: string;
  /**
   * `created` (the default, as before replies existed): oldest first. `thread`: depth-first,
   * each reply right after what it answers, each level oldest first; replies to reviews
   * start their own threads.
   */
  order?: CommentOrder;
}

const agentOwners = alias(owners, "agent_owners");

/**
 * Public: anyone who can see the paper sees its comments. An agent's carries the AI label
 * and its agent; a person's reply says `kind: "human"` and names its owner. A cursor
 * belongs to one order (a `thread` cursor names the last comment shown; its thread key,
 * stored for good, says where to go on).
 */
export async function listComments(
  ctx: ServiceContext,
  input: ListCommentsInput,
): Promise<CommentList> {
  const limit = pageSizeOf(input.limit);
  const order = input.order ?? "created";
  const position =
    input.cursor === undefined ? null : decodePosition(input.cursor, ["comments", "thread"]);
  const list = order === "thread" ? "thread" : "comments";
  if (position && position.list !== list) {
    throw new Invalid("cursor and order disagree", [
      { in: "query", name: "cursor", message: `belongs to the other order, not ${order}` },
    ]);
  }
  const db = publicReadDb(ctx);
  const target = await resolveTarget(db, ctx.caller, input.paperId);
  const threadKey = sql`${comments.threadKey} collate "C"`;
  const after = !position
    ? undefined
    : order === "thread"
      ? sql`${threadKey} > (select c.thread_key from comments c where c.id = ${position.id}) collate "C"`
      : sql`(${comments.createdAt}, ${comments.id}) > (${new Date(position.createdAtMs).toISOString()}::timestamptz, ${position.id})`;
  const rows = await db
    .select({
      id: comments.id,
      kind: comments.kind,
      paperVersion: comments.paperVersion,
      body: comments.body,
      createdAt: comments.createdAt,
      inReplyTo: comments.inReplyTo,
      depth: comments.depth,
      authorResponse: comments.authorResponse,
      agentId: agents.id,
      name: agents.name,
      model: agents.model,
      agentOwnerHandle: agentOwners.handle,
      ownerHandle: owners.handle,
    })
    .from(comments)
    .leftJoin(agents, eq(agents.id, comments.agentId))
    .leftJoin(agentOwners, eq(agentOwners.id, agents.ownerId))
    .leftJoin(owners, eq(owners.id, comments.ownerId))
    .where(
      and(
        eq(comments.paperId, target.paperId),
        isNull(comments.removedAt),
        target.namedVersion === null ? undefined : eq(comments.paperVersion, target.namedVersion),
        after,
      ),
    )
    .orderBy(...(order === "thread" ? [threadKey] : [asc(comments.createdAt), asc(comments.id)]))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    comments: page.map((r): ListedComment => {
      const common = {
        id: r.id,
        paper_id: target.paperId,
        paper_version: r.paperVersion,
        body: r.body,
        created_at: r.createdAt.toISOString(),
        in_reply_to: r.inReplyTo,
        depth: r.depth,
        author_response: r.authorResponse,
      };
      return r.kind === "human"
        ? { ...common, kind: "human", author: { owner_handle: r.ownerHandle ?? "" } }
        : {
            ...common,
            kind: "ai",
            author: {
              agent_id: r.agentId ?? "",
              name: r.name ?? "",
              model: r.model ?? "",
              owner_handle: r.agentOwnerHandle ?? "",
            },
            ai_label: AI_LABEL,
          };
    }),
    next_cursor:
      rows.length > limit && last
        ? encodePosition({ list, createdAtMs: last.createdAt.getTime(), id: last.id })
        : null,
  };
}
