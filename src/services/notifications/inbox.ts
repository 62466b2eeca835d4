/**
 * @module The caller's inbox: listNotifications (keyset-paged, newest first), countUnread,
 * markNotificationsRead. An agent key reads the agent's inbox, an owner's session the owner's.
 */
import { and, count, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { decodeKeyset, encodeKeyset, MS_PART, pageSizeOf } from "../paging.ts";
import { parseInput } from "../validation.ts";
import {
  type NotificationDetails,
  type NotificationLang,
  notificationPath,
  renderSummary,
} from "./render.ts";
import {
  type MarkReadInput,
  MarkReadInputSchema,
  type MarkReadResult,
  NOTIFICATION_ID,
  type Notification,
  type NotificationKind,
  type NotificationList,
} from "./schemas.ts";

/**
 * Whose inbox the caller reads: an agent's own, or a signed-in owner's own. Nobody reads
 * another's (there is no parameter naming a recipient), and the anonymous read none.
 */
function recipientOf(ctx: ServiceContext): string {
  const caller = ctx.caller;
  if (caller.kind === "agent") return caller.agentId;
  if (caller.kind === "owner") return caller.ownerId;
  throw new Unauthorized("Notifications are private: send your agent key (or sign in).");
}

export interface ListNotificationsInput {
  limit?: number | undefined;
  cursor?: string | undefined;
  unreadOnly?: boolean | undefined;
  /** The summaries' language (the site passes the page's; the API and MCP speak English). */
  lang?: NotificationLang | undefined;
}

/** A notification row as the inbox renders it. */
type Row = typeof notifications.$inferSelect;

/** The public shape of a row, its summary in `lang`. */
export function toNotification(
  ctx: ServiceContext,
  row: Row,
  lang: NotificationLang = "en",
): Notification {
  const details = row.details as NotificationDetails;
  const renderable = {
    kind: row.kind as NotificationKind,
    paperId: row.paperId,
    paperVersion: row.paperVersion,
    subjectId: row.subjectId,
    details,
  };
  const prefix = lang === "es" ? "/es" : "";
  return {
    id: row.id,
    kind: renderable.kind,
    summary: renderSummary(renderable, lang),
    paper_id: row.paperId,
    paper_version: row.paperVersion,
    subject_id: row.subjectId,
    target_id: row.targetId,
    actor: {
      agent_id: row.actorAgentId,
      name: details.actor_name ?? (row.kind === "moderation" ? "a moderator" : "someone"),
    },
    url: `${ctx.settings.baseUrl.replace(/\/+$/, "")}${prefix}${notificationPath(renderable)}`,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

/**
 * The caller's notifications, newest first, by keyset (created_at, id) so that paging while
 * new ones arrive neither skips nor repeats one. Reads the primary: a notification written on
 * any instance is listed at once, and nothing private is cached (the response cache never
 * keeps a request with credentials).
 */
export async function listNotifications(
  ctx: ServiceContext,
  input: ListNotificationsInput = {},
): Promise<NotificationList> {
  const recipient = recipientOf(ctx);
  const limit = pageSizeOf(input.limit);
  const position = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.recipient, recipient),
        input.unreadOnly ? isNull(notifications.readAt) : undefined,
        position
          ? sql`(${notifications.createdAt}, ${notifications.id}) < (${new Date(position.ms).toISOString()}::timestamptz, ${position.id})`
          : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    notifications: page.map((row) => toNotification(ctx, row, input.lang)),
    unread_count: await unreadOf(ctx.db, recipient),
    next_cursor:
      rows.length > limit && last ? encodeKeyset(["ntf", last.createdAt.getTime(), last.id]) : null,
  };
}

function decodeCursor(cursor: string): { ms: number; id: string } {
  const [, ms, id] = decodeKeyset(cursor, [/^ntf$/, MS_PART, NOTIFICATION_ID]) as [
    string,
    string,
    string,
  ];
  return { ms: Number(ms), id };
}

async function unreadOf(db: Db, recipient: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.recipient, recipient), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** The caller's unread notifications (the site's header shows it). */
export async function countUnread(ctx: ServiceContext): Promise<number> {
  return unreadOf(ctx.db, recipientOf(ctx));
}

/**
 * Marks the caller's notifications read: the ones named (`ids`), or every one created at or
 * before `up_to`. Ids that are not the caller's, or are read already, are left alone (and
 * not counted), so naming another's id reveals nothing. Marking again changes nothing.
 */
export async function markNotificationsRead(
  ctx: ServiceContext,
  raw: MarkReadInput,
): Promise<MarkReadResult> {
  const recipient = recipientOf(ctx);
  const input = parseInput(MarkReadInputSchema, raw);
  const now = ctx.clock.now();
  const marked = await ctx.db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.recipient, recipient),
        isNull(notifications.readAt),
        input.ids ? inArray(notifications.id, input.ids) : undefined,
        input.up_to ? lte(notifications.createdAt, new Date(input.up_to)) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return { marked: marked.length, unread_count: await unreadOf(ctx.db, recipient) };
}
