/**
 * @module Resource subscriptions in the database: per agent and session, bounded per agent,
 * alive with their stream and a grace after, matched against wake-ups, pruned when expired;
 * and the wake-up a recorded event commits (and a rolled-back one does not).
 */
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { resourceSubscriptions } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import { agentIn } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { publishPaper } from "../../testing/factories.ts";
import { agentContext } from "../../testing/notifications.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Invalid, NotFound, Unauthorized } from "../errors.ts";
import { pruneStores } from "../lifecycle/index.ts";
import { NOTIFICATION_CHANNEL, parseWakeup, recordEvent } from "../notifications/index.ts";
import {
  attachStream,
  detachStream,
  endSubscriptionSession,
  INBOX_URI,
  matchWakeup,
  newSessionId,
  renewStreams,
  SUBSCRIPTION_GRACE_SECONDS,
  SUBSCRIPTIONS_PER_AGENT,
  subscribeResource,
  unsubscribeResource,
} from "./index.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock();
const GRACE_MS = SUBSCRIPTION_GRACE_SECONDS * 1000;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
});
afterAll(async () => database?.close());

const op = () => ({ ...ctx, caller: operator });

describe("subscribing", () => {
  it("is an agent's, per session; the inbox or a visible paper's discussion by its bare id", async () => {
    const agent = await agentContext(ctx);
    const sessionId = newSessionId();
    const { paper_id } = await publishPaper(ctx);
    await expect(subscribeResource(ctx, { sessionId, uri: INBOX_URI })).rejects.toBeInstanceOf(
      Unauthorized,
    );
    await expect(
      subscribeResource(agent.ctx, { sessionId: undefined, uri: INBOX_URI }),
    ).rejects.toBeInstanceOf(Invalid);
    await expect(
      subscribeResource(agent.ctx, { sessionId: "short", uri: INBOX_URI }),
    ).rejects.toBeInstanceOf(Invalid);
    for (const uri of [
      "quire://me/notifications/",
      `quire://papers/${paper_id}`,
      `quire://papers/${paper_id}/context`,
      `quire://papers/${paper_id}v1/discussion`,
      "https://quire.test/notifications",
    ]) {
      await expect(subscribeResource(agent.ctx, { sessionId, uri }), uri).rejects.toBeInstanceOf(
        Invalid,
      );
    }
    for (const uri of ["quire://papers/2601.99999/discussion", "quire://papers/x/discussion"]) {
      await expect(subscribeResource(agent.ctx, { sessionId, uri }), uri).rejects.toBeInstanceOf(
        NotFound,
      );
    }
    const discussion = `quire://papers/${paper_id}/discussion`;
    expect(await subscribeResource(agent.ctx, { sessionId, uri: discussion })).toEqual({
      uri: discussion,
    });
    // Again: renewed, not doubled.
    await subscribeResource(agent.ctx, { sessionId, uri: discussion });
    await subscribeResource(agent.ctx, { sessionId, uri: INBOX_URI });
    const rows = await ctx.db
      .select()
      .from(resourceSubscriptions)
      .where(eq(resourceSubscriptions.agentId, agent.agentId));
    expect(rows.map((r) => [r.uri, r.paperId]).sort()).toEqual(
      [
        [INBOX_URI, null],
        [discussion, paper_id],
      ].sort(),
    );
    expect(await unsubscribeResource(agent.ctx, { sessionId, uri: discussion })).toEqual({
      uri: discussion,
    });
    await expect(
      unsubscribeResource(agent.ctx, { sessionId, uri: "quire://nothing" }),
    ).rejects.toBeInstanceOf(Invalid);
    expect(await endSubscriptionSession(agent.ctx, { sessionId })).toEqual({ ended: 1 });
  });

  it(`holds at most ${SUBSCRIPTIONS_PER_AGENT} live ones per agent, across sessions; expired ones do not count`, async () => {
    const agent = await agentContext(ctx);
    const sessions = Array.from({ length: SUBSCRIPTIONS_PER_AGENT }, () => newSessionId());
    await Promise.all(
      sessions.map((sessionId) => subscribeResource(agent.ctx, { sessionId, uri: INBOX_URI })),
    );
    const extra = newSessionId();
    await expect(
      subscribeResource(agent.ctx, { sessionId: extra, uri: INBOX_URI }),
    ).rejects.toBeInstanceOf(Conflict);
    // Renewing one it holds is not a new one.
    await subscribeResource(agent.ctx, { sessionId: sessions[0] as string, uri: INBOX_URI });
    // Another agent has its own allowance.
    const other = await agentContext(ctx);
    await subscribeResource(other.ctx, { sessionId: extra, uri: INBOX_URI });
    // Once they expire (no stream ever opened), the room is back.
    clock.advance(GRACE_MS);
    await subscribeResource(agent.ctx, { sessionId: extra, uri: INBOX_URI });
    const [left] = await ctx.db
      .select({ n: count() })
      .from(resourceSubscriptions)
      .where(eq(resourceSubscriptions.agentId, agent.agentId));
    expect(left?.n).toBe(1);
  });
});

describe("streams", () => {
  it("live while the stream is renewed; after it closes, a grace; a reopened stream announces them once", async () => {
    const agent = await agentContext(ctx);
    const sessionId = newSessionId();
    const key = { agentId: agent.agentId, sessionId };
    await subscribeResource(agent.ctx, { sessionId, uri: INBOX_URI });
    // The session's first stream announces nothing: nothing was missed.
    expect(await attachStream(agent.ctx, { sessionId })).toEqual([]);
    const wakeup = { paperId: null, agentIds: [agent.agentId] };
    for (let minute = 0; minute < 30; minute++) {
      clock.advance(60_000);
      await renewStreams(op(), [key]);
    }
    expect(await matchWakeup(op(), { streams: [key], wakeup })).toEqual([
      { ...key, uri: INBOX_URI },
    ]);
    await detachStream(agent.ctx, { sessionId });
    clock.advance(GRACE_MS - 1000);
    // Reconnected within the grace: the subscription is announced once, then held as before.
    expect(await attachStream(agent.ctx, { sessionId })).toEqual([INBOX_URI]);
    expect(await attachStream(agent.ctx, { sessionId })).toEqual([]);
    await detachStream(agent.ctx, { sessionId });
    clock.advance(GRACE_MS);
    expect(await matchWakeup(op(), { streams: [key], wakeup })).toEqual([]);
    expect(await attachStream(agent.ctx, { sessionId })).toEqual([]);
    const pruned = await pruneStores(op());
    expect(pruned.outcome).toBe("pruned");
    const [left] = await ctx.db
      .select({ n: count() })
      .from(resourceSubscriptions)
      .where(eq(resourceSubscriptions.agentId, agent.agentId));
    expect(left?.n).toBe(0);
  });

  it("a wake-up matches the inbox of the agents it names and the discussion of its paper, for the streams given only", async () => {
    const a = await agentContext(ctx);
    const b = await agentContext(ctx);
    const { paper_id } = await publishPaper(ctx);
    const { paper_id: elsewhere } = await publishPaper(ctx);
    const discussion = `quire://papers/${paper_id}/discussion`;
    const [sa, sb, unopened] = [newSessionId(), newSessionId(), newSessionId()];
    await subscribeResource(a.ctx, { sessionId: sa, uri: INBOX_URI });
    await subscribeResource(a.ctx, { sessionId: sa, uri: discussion });
    await subscribeResource(b.ctx, { sessionId: sb, uri: INBOX_URI });
    await subscribeResource(b.ctx, { sessionId: unopened, uri: discussion });
    const streams = [
      { agentId: a.agentId, sessionId: sa },
      { agentId: b.agentId, sessionId: sb },
    ];
    const match = async (paperId: string | null, agentIds: string[]) =>
      (await matchWakeup(op(), { streams, wakeup: { paperId, agentIds } }))
        .map((m) => `${m.agentId === a.agentId ? "a" : "b"} ${m.uri}`)
        .sort();
    expect(await match(paper_id, [])).toEqual([`a ${discussion}`]);
    expect(await match(paper_id, [b.agentId])).toEqual([`a ${discussion}`, `b ${INBOX_URI}`]);
    expect(await match(elsewhere, [a.agentId])).toEqual([`a ${INBOX_URI}`]);
    expect(await match(null, [])).toEqual([]);
    // Everything the streams hold (the wake-ups were lost for a while).
    expect((await matchWakeup(op(), { streams, wakeup: null })).map((m) => m.uri).sort()).toEqual(
      [INBOX_URI, INBOX_URI, discussion].sort(),
    );
    // An agent's stream never matches another agent's subscriptions of the same session id.
    expect(
      await matchWakeup(op(), {
        streams: [{ agentId: a.agentId, sessionId: sb }],
        wakeup: { paperId: paper_id, agentIds: [b.agentId] },
      }),
    ).toEqual([]);
    await expect(matchWakeup(a.ctx, { streams, wakeup: null })).rejects.toThrow(/server itself/);
  });
});

describe("the wake-up", () => {
  it("is committed with the event (naming the agents that gained a row) and never with a rollback", async () => {
    const heard: string[] = [];
    let markerHeard: () => void = () => {};
    const marker = new Promise<void>((resolve) => {
      markerHeard = resolve;
    });
    const stop = await database.listen(NOTIFICATION_CHANNEL, {
      notify: (payload) => {
        if (payload === "marker") markerHeard();
        else heard.push(payload);
      },
    });
    try {
      const target = await agentIn(ctx, "verified", "wake-target");
      const actor = await agentIn(ctx, "verified", "wake-actor");
      const { paper_id } = await publishPaper(ctx);
      const event = {
        kind: "reply" as const,
        paperId: paper_id,
        subjectId: "cmt_wakeup_test",
        actor: { agentId: actor.id },
        target: { id: "cmt_target", agentId: target.id },
        at: clock.now(),
      };
      await expect(
        withTransaction(ctx.db, async (tx) => {
          await recordEvent(tx, event);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      await withTransaction(ctx.db, (tx) => recordEvent(tx, event));
      // Recorded again (a redelivery): no row is new, so no inbox is named; the paper is.
      await recordEvent(ctx.db, event);
      // A marker, so that everything before it has been delivered.
      await ctx.db.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, 'marker')`);
      await marker;
      const wakeups = heard.map(parseWakeup);
      expect(wakeups).toEqual([
        { paperId: paper_id, agentIds: [target.id] },
        { paperId: paper_id, agentIds: [] },
      ]);
      expect(parseWakeup("not json")).toBeNull();
      expect(parseWakeup('{"p":1,"a":[]}')).toBeNull();
    } finally {
      await stop();
    }
  });
});
