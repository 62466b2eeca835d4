/**
 * @module subscribeResource, unsubscribeResource, endSubscriptionSession: an agent's MCP
 * resource subscriptions, stored per client session so that any instance can serve them.
 */
import { and, count, eq, gt, lte, sql } from "drizzle-orm";
import { agents, papers, resourceSubscriptions } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Invalid, Unauthorized } from "../errors.ts";
import { parsePaperRef } from "../ids.ts";
import { canSeePaper, paperNotFound } from "../papers/index.ts";
import {
  discussionUri,
  isSessionId,
  parseSubscribableUri,
  SUBSCRIBABLE,
  SUBSCRIPTION_GRACE_SECONDS,
  SUBSCRIPTIONS_PER_AGENT,
} from "./schemas.ts";

export interface SubscriptionInput {
  /** The `Mcp-Session-Id` of the client's session (undefined when it sent none). */
  sessionId: string | undefined;
  uri: string;
}

/** The agent calling, and its session: subscriptions are an agent client's, per session. */
export function subscriber(ctx: ServiceContext, sessionId: string | undefined) {
  const caller = ctx.caller;
  if (caller.kind !== "agent") {
    throw new Unauthorized(
      "Subscriptions are an agent's: send your agent key as `Authorization: Bearer <key>` (or connect by signing in), then subscribe.",
    );
  }
  if (!isSessionId(sessionId)) {
    throw new Invalid(
      "Subscribing needs the session this server gave at initialize: send its Mcp-Session-Id header (initialize again to get one).",
      [{ in: "header", name: "mcp-session-id", message: "missing or not one this server issued" }],
    );
  }
  return { agentId: caller.agentId, sessionId };
}

function unsubscribable(uri: string): Invalid {
  return new Invalid(
    `${JSON.stringify(uri.slice(0, 200))} cannot be subscribed to; the subscribable resources are ${SUBSCRIBABLE}.`,
    [{ in: "body", name: "uri", message: `must be one of ${SUBSCRIBABLE}` }],
  );
}

/**
 * Subscribes the calling agent's session to the inbox or to a visible paper's discussion
 * (by its bare id; an unknown or invisible paper is the 404 of everywhere else). Idempotent:
 * subscribing again renews it. Bounded: at most SUBSCRIPTIONS_PER_AGENT live ones per agent,
 * counted under a lock on the agent row, so concurrent subscribes cannot pass it together.
 * A subscription lives SUBSCRIPTION_GRACE_SECONDS unless the session's event stream is open,
 * which renews it (see the streams verbs); expired ones are deleted here and by the prune.
 */
export async function subscribeResource(
  ctx: ServiceContext,
  input: SubscriptionInput,
): Promise<{ uri: string }> {
  const { agentId, sessionId } = subscriber(ctx, input.sessionId);
  const target = parseSubscribableUri(input.uri);
  if (!target) throw unsubscribable(input.uri);
  let paperId: string | null = null;
  if (target.kind === "discussion") {
    const ref = parsePaperRef(target.paperRef);
    if (!ref) throw paperNotFound(target.paperRef);
    if (ref.version !== null) {
      throw new Invalid(
        `Subscribe to a paper's discussion by its id without a version: ${discussionUri(ref.id)}.`,
        [{ in: "body", name: "uri", message: "names a version; the discussion is the paper's" }],
      );
    }
    const [paper] = await ctx.db
      .select({ status: papers.status, ownerId: papers.ownerId })
      .from(papers)
      .where(eq(papers.id, ref.id))
      .limit(1);
    if (!paper || !canSeePaper(ctx.caller, paper)) throw paperNotFound(ref.id);
    paperId = ref.id;
  }
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SUBSCRIPTION_GRACE_SECONDS * 1000);
  await withTransaction(ctx.db, async (tx) => {
    await tx.select({ id: agents.id }).from(agents).where(eq(agents.id, agentId)).for("update");
    const mine = eq(resourceSubscriptions.agentId, agentId);
    await tx
      .delete(resourceSubscriptions)
      .where(and(mine, lte(resourceSubscriptions.expiresAt, now)));
    const same = and(
      mine,
      eq(resourceSubscriptions.sessionId, sessionId),
      eq(resourceSubscriptions.uri, input.uri),
    );
    const [live] = await tx
      .select({
        n: count(),
        held: sql<boolean>`coalesce(bool_or(${same}), false)`,
      })
      .from(resourceSubscriptions)
      .where(and(mine, gt(resourceSubscriptions.expiresAt, now)));
    if (!live?.held && (live?.n ?? 0) >= SUBSCRIPTIONS_PER_AGENT) {
      throw new Conflict(
        `This agent holds ${SUBSCRIPTIONS_PER_AGENT} subscriptions, the most it may; unsubscribe from some first (or let the sessions that hold them end).`,
      );
    }
    await tx
      .insert(resourceSubscriptions)
      .values({ agentId, sessionId, uri: input.uri, paperId, createdAt: now, expiresAt })
      .onConflictDoUpdate({
        target: [
          resourceSubscriptions.agentId,
          resourceSubscriptions.sessionId,
          resourceSubscriptions.uri,
        ],
        set: { expiresAt: sql`greatest(${resourceSubscriptions.expiresAt}, ${expiresAt})` },
      });
  });
  return { uri: input.uri };
}

/**
 * Ends the calling agent's session's subscription to `uri`. Ending one that does not exist
 * is not an error (it may have expired); a URI that can never be subscribed to is.
 */
export async function unsubscribeResource(
  ctx: ServiceContext,
  input: SubscriptionInput,
): Promise<{ uri: string }> {
  const { agentId, sessionId } = subscriber(ctx, input.sessionId);
  if (!parseSubscribableUri(input.uri)) throw unsubscribable(input.uri);
  await ctx.db
    .delete(resourceSubscriptions)
    .where(
      and(
        eq(resourceSubscriptions.agentId, agentId),
        eq(resourceSubscriptions.sessionId, sessionId),
        eq(resourceSubscriptions.uri, input.uri),
      ),
    );
  return { uri: input.uri };
}

/** Ends every subscription of the calling agent's session (the client ended its session). */
export async function endSubscriptionSession(
  ctx: ServiceContext,
  input: { sessionId: string | undefined },
): Promise<{ ended: number }> {
  const { agentId, sessionId } = subscriber(ctx, input.sessionId);
  const gone = await ctx.db
    .delete(resourceSubscriptions)
    .where(
      and(
        eq(resourceSubscriptions.agentId, agentId),
        eq(resourceSubscriptions.sessionId, sessionId),
      ),
    )
    .returning({ uri: resourceSubscriptions.uri });
  return { ended: gone.length };
}
