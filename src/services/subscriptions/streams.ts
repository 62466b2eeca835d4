/**
 * @module The verbs of an instance's open MCP event streams (GET /mcp): attach and detach a
 * session's stream, renew what open streams hold, and match a wake-up against them.
 */
import { and, eq, gt, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { resourceSubscriptions } from "../../db/schema/index.ts";
import { pairIn, pgArray } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import type { Wakeup } from "../notifications/index.ts";
import { INBOX_URI, SUBSCRIPTION_GRACE_SECONDS } from "./schemas.ts";
import { subscriber } from "./subscribe.ts";

/** An open stream: the agent, and the client session it serves. */
export interface StreamKey {
  agentId: string;
  sessionId: string;
}

/** A subscription an open stream holds. */
export interface StreamSubscription extends StreamKey {
  uri: string;
}

const graceAfter = (now: Date) => new Date(now.getTime() + SUBSCRIPTION_GRACE_SECONDS * 1000);

/** The subscriptions of these streams that are still live at `now`. */
function liveOf(streams: readonly StreamKey[], now: Date): SQL {
  return and(
    pairIn(
      [resourceSubscriptions.agentId, resourceSubscriptions.sessionId],
      [streams.map((s) => s.agentId), "text"],
      [streams.map((s) => s.sessionId), "text"],
    ),
    gt(resourceSubscriptions.expiresAt, now),
  ) as SQL;
}

function operatorOnly(ctx: ServiceContext) {
  if (ctx.caller.kind !== "operator") {
    throw new Forbidden("Only the server itself serves event streams.");
  }
}

/**
 * The calling agent's session opened its event stream: its live subscriptions are renewed,
 * and those a stream held before (it closed; changes meanwhile were not pushed) are returned,
 * so the new stream announces them once: a client that reconnects misses nothing, at the cost
 * of one update it may not need. A session's first stream returns none.
 */
export async function attachStream(
  ctx: ServiceContext,
  input: { sessionId: string | undefined },
): Promise<string[]> {
  const { agentId, sessionId } = subscriber(ctx, input.sessionId);
  const now = ctx.clock.now();
  const live = liveOf([{ agentId, sessionId }], now);
  const held = await ctx.db
    .select({ uri: resourceSubscriptions.uri })
    .from(resourceSubscriptions)
    .where(and(live, isNotNull(resourceSubscriptions.detachedAt)));
  await ctx.db
    .update(resourceSubscriptions)
    .set({
      expiresAt: sql`greatest(${resourceSubscriptions.expiresAt}, ${graceAfter(now)})`,
      detachedAt: null,
    })
    .where(live);
  return held.map((r) => r.uri);
}

/**
 * The calling agent's session's stream closed: its subscriptions live on for the grace only
 * (a client reconnecting within it keeps them) and are marked as having had a stream.
 */
export async function detachStream(
  ctx: ServiceContext,
  input: { sessionId: string | undefined },
): Promise<void> {
  const { agentId, sessionId } = subscriber(ctx, input.sessionId);
  const now = ctx.clock.now();
  await ctx.db
    .update(resourceSubscriptions)
    .set({ expiresAt: graceAfter(now), detachedAt: now })
    .where(liveOf([{ agentId, sessionId }], now));
}

/** The server renews what its open streams hold, so they outlive no stream by more than the grace. */
export async function renewStreams(
  ctx: ServiceContext,
  streams: readonly StreamKey[],
): Promise<void> {
  operatorOnly(ctx);
  if (streams.length === 0) return;
  const now = ctx.clock.now();
  await ctx.db
    .update(resourceSubscriptions)
    .set({ expiresAt: sql`greatest(${resourceSubscriptions.expiresAt}, ${graceAfter(now)})` })
    .where(liveOf(streams, now));
}

/**
 * Which subscriptions of these open streams a wake-up concerns: an agent's inbox when that
 * agent gained a notification, a paper's discussion when the event was on that paper. With
 * `wakeup` null, every live one (after the wake-ups were lost for a moment).
 */
export async function matchWakeup(
  ctx: ServiceContext,
  input: { streams: readonly StreamKey[]; wakeup: Wakeup | null },
): Promise<StreamSubscription[]> {
  operatorOnly(ctx);
  const { streams, wakeup } = input;
  if (streams.length === 0) return [];
  const concerned = wakeup
    ? or(
        wakeup.agentIds.length > 0
          ? and(
              eq(resourceSubscriptions.uri, INBOX_URI),
              sql`${resourceSubscriptions.agentId} = any(${pgArray(wakeup.agentIds, "text")})`,
            )
          : undefined,
        wakeup.paperId !== null
          ? and(
              isNotNull(resourceSubscriptions.paperId),
              eq(resourceSubscriptions.paperId, wakeup.paperId),
            )
          : undefined,
      )
    : undefined;
  if (wakeup && !concerned) return [];
  return ctx.db
    .select({
      agentId: resourceSubscriptions.agentId,
      sessionId: resourceSubscriptions.sessionId,
      uri: resourceSubscriptions.uri,
    })
    .from(resourceSubscriptions)
    .where(and(liveOf(streams, ctx.clock.now()), concerned));
}
