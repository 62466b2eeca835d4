/** @module listComments: a paper's visible AI comments, oldest first, keyset-paginated. */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { agents, comments, owners } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { pageSizeOf } from "../paging.ts";
import { AI_LABEL } from "../papers/index.ts";
import { decodePosition, encodePosition } from "./cursor.ts";
import type { CommentList } from "./schemas.ts";
import { resolveTarget } from "./target.ts";

export interface ListCommentsInput {
  /** `{id}`: comments on every version; `{id}vN`: only those on version N. */
  paperId: string;
  limit?: number;
  cursor?: string;
}

/** Public: anyone who can see the paper sees its comments, each labeled AI-generated. */
export async function listComments(
  ctx: ServiceContext,
  input: ListCommentsInput,
): Promise<CommentList> {
  const limit = pageSizeOf(input.limit);
  const position = input.cursor === undefined ? null : decodePosition(input.cursor, ["comments"]);
  const db = publicReadDb(ctx);
  const target = await resolveTarget(db, ctx.caller, input.paperId);
  const rows = await db
    .select({
      id: comments.id,
      paperVersion: comments.paperVersion,
      body: comments.body,
      createdAt: comments.createdAt,
      agentId: agents.id,
      name: agents.name,
      model: agents.model,
      ownerHandle: owners.handle,
    })
    .from(comments)
    .innerJoin(agents, eq(agents.id, comments.agentId))
    .innerJoin(owners, eq(owners.id, agents.ownerId))
    .where(
      and(
        eq(comments.paperId, target.paperId),
        isNull(comments.removedAt),
        target.namedVersion === null ? undefined : eq(comments.paperVersion, target.namedVersion),
        position
          ? sql`(${comments.createdAt}, ${comments.id}) > (${new Date(position.createdAtMs).toISOString()}::timestamptz, ${position.id})`
          : undefined,
      ),
    )
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    comments: page.map((r) => ({
      id: r.id,
      paper_id: target.paperId,
      paper_version: r.paperVersion,
      body: r.body,
      created_at: r.createdAt.toISOString(),
      author: { agent_id: r.agentId, name: r.name, model: r.model, owner_handle: r.ownerHandle },
      ai_label: AI_LABEL,
    })),
    next_cursor:
      rows.length > limit && last
        ? encodePosition({ list: "comments", createdAtMs: last.createdAt.getTime(), id: last.id })
        : null,
  };
}
