/** @module listModerationEvents: the moderation log, newest first, for moderators. */
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { moderationEvents } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { ID_MAX_CHARS } from "../ids.ts";
import { decodeKeyset, encodeKeyset, invalidCursor } from "../paging.ts";
import { parseInput } from "../validation.ts";
import { requireModerator } from "./authorize.ts";
import {
  type ListEventsInput,
  ListEventsInputSchema,
  type ModerationEvent,
  type ModerationTarget,
} from "./schemas.ts";

/**
 * Every entry of the log (the site's, the command line's and the system's), newest first,
 * optionally for one target. Keyset paging on (created_at, id), so entries written while a
 * moderator pages never shift or repeat a page. Moderators only: the log names moderators
 * and carries their reasons.
 */
export async function listModerationEvents(
  ctx: ServiceContext,
  raw: ListEventsInput = {},
): Promise<{ events: ModerationEvent[]; next_cursor: string | null }> {
  requireModerator(ctx);
  const input = parseInput(ListEventsInputSchema, raw, "query");
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const conditions: SQL[] = [];
  if (input.targetType) conditions.push(eq(moderationEvents.targetType, input.targetType));
  if (input.targetId) conditions.push(eq(moderationEvents.targetId, input.targetId));
  if (after) {
    conditions.push(
      sql`(${moderationEvents.createdAt}, ${moderationEvents.id}) < (${after.at}::timestamptz, ${after.id})`,
    );
  }
  const rows = await ctx.db
    .select({
      id: moderationEvents.id,
      actor: moderationEvents.actor,
      actorOwnerId: moderationEvents.actorOwnerId,
      action: moderationEvents.action,
      targetType: moderationEvents.targetType,
      targetId: moderationEvents.targetId,
      reason: moderationEvents.reason,
      details: moderationEvents.details,
      createdAt: moderationEvents.createdAt,
      // Full precision for the cursor: a Date keeps milliseconds, timestamptz microseconds.
      position: sql<string>`to_char(${moderationEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(moderationEvents)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(moderationEvents.createdAt), desc(moderationEvents.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    events: page.map((row) => ({
      id: row.id,
      actor: row.actor,
      actor_owner_id: row.actorOwnerId,
      action: row.action,
      target_type: row.targetType as ModerationTarget,
      target_id: row.targetId,
      reason: row.reason,
      details: row.details ?? null,
      created_at: row.createdAt.toISOString(),
    })),
    next_cursor:
      rows.length > input.limit && last ? encodeCursor({ at: last.position, id: last.id }) : null,
  };
}

interface Position {
  at: string;
  id: string;
}

function encodeCursor(position: Position): string {
  return encodeKeyset([position.at, position.id]);
}

const AT_PART = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID_PART = new RegExp(`^[A-Za-z0-9_]{1,${ID_MAX_CHARS}}$`);

function decodeCursor(cursor: string): Position {
  const [at, id] = decodeKeyset(cursor, [AT_PART, ID_PART]) as [string, string];
  if (Number.isNaN(Date.parse(at))) throw invalidCursor();
  return { at, id };
}
