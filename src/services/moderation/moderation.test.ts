/** @module Moderation services: queue, paper actions, agent suspension and the log, on a real database. */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { agents, moderationEvents, owners, papers } from "../../db/schema/index.ts";
import { agentIn } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import {
  eventsFor,
  holdPaper,
  moderatorContext,
  paperRow,
  publishCleanPaper,
  publishFlaggedPaper,
  SHORT_BODY,
} from "../../testing/moderation.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors.ts";
import { buildAtomFeed } from "../feeds/index.ts";
import { setOwnerRole } from "../owners/index.ts";
import { getPaper, listPapers, publishVersion } from "../papers/index.ts";
import { searchChunks } from "../search/index.ts";
import { approvePaper } from "./approve-paper.ts";
import { clearPaperFlag } from "./clear-flag.ts";
import { getModeratedAgent } from "./get-agent.ts";
import { listModerationEvents } from "./list-events.ts";
import { listModerationQueue } from "./queue.ts";
import { reinstateAgent } from "./reinstate-agent.ts";
import { rejectPaper } from "./reject-paper.ts";
import { removePaper } from "./remove-paper.ts";
import { MODERATION_REASON_MAX } from "./schemas.ts";
import { suspendAgent } from "./suspend-agent.ts";

let database: Database;
let ctx: ServiceContext;
let mod: ServiceContext;
let moderator: { ownerId: string; handle: string };
const clock = fixedClock();

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  const made = await moderatorContext(ctx);
  mod = made.ctx;
  moderator = { ownerId: made.ownerId, handle: made.handle };
});
afterAll(async () => database.close());

let word = 0;
/** A made-up word no other paper contains, so a lexical search finds exactly one paper. */
function uniqueWord(): string {
  word++;
  return `quillwort${String.fromCharCode(97 + (word % 26))}${String.fromCharCode(97 + ((word * 7) % 26))}zed`;
}

function withWord(w: string) {
  const base = paperInput();
  return { abstract: `${base.abstract} The ${w} effect is central here.` };
}

async function found(w: string): Promise<string[]> {
  const { results } = await searchChunks(ctx, { q: w, mode: "lexical", limit: 20 });
  return [...new Set(results.map((r) => r.paper_id))];
}

async function eventCount(): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(moderationEvents);
  return Number(row?.n ?? 0);
}

/** Callers that are not moderators: each must be refused and change nothing. */
async function nonModerators(): Promise<[string, ServiceContext][]> {
  const owner = await makeOwner(ctx);
  const agent = await agentIn(ctx, "verified");
  const callers: [string, Caller][] = [
    ["anonymous", { kind: "anonymous" }],
    ["owner", { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" }],
    [
      "agent",
      { kind: "agent", agentId: agent.id, keyId: "key_x", ownerId: owner.id, status: "verified" },
    ],
  ];
  return callers.map(([name, caller]) => [name, { ...ctx, caller }]);
}

describe("the queue", () => {
  it("lists held and flagged papers with their screening reasons, and nothing else", async () => {
    const held = await holdPaper(ctx);
    const flagged = await publishFlaggedPaper(ctx);
    const clean = await publishCleanPaper(ctx);
    const queue = await listModerationQueue(mod);
    const heldItem = queue.held.papers.find((p) => p.paper_id === held);
    expect(heldItem).toMatchObject({
      status: "submitted",
      version: 1,
      status_reason: "held: the LLM screener could not be reached",
      screening: { status: "warnings" },
    });
    expect(heldItem?.screenings[0]?.reasons.map((r) => r.code)).toContain("body_short");
    const flaggedItem = queue.flagged.papers.find((p) => p.paper_id === flagged);
    expect(flaggedItem).toMatchObject({ status: "published", screening: { status: "warnings" } });
    expect(flaggedItem?.screenings[0]).toMatchObject({ outcome: "warnings" });
    expect(flaggedItem?.screenings[0]?.reasons[0]).toMatchObject({
      code: "body_short",
      severity: "warning",
      field: "body",
    });
    const ids = [...queue.held.papers, ...queue.flagged.papers].map((p) => p.paper_id);
    expect(ids).not.toContain(clean);
    expect(queue.flagged.papers.map((p) => p.paper_id)).not.toContain(held);
    expect(queue.held.count).toBe(queue.held.papers.length);
    expect(queue.flagged.count).toBe(queue.flagged.papers.length);
  });

  it("counts beyond the limit and lists the longest wait first", async () => {
    clock.advance(1000);
    const first = await publishFlaggedPaper(ctx);
    clock.advance(1000);
    const second = await publishFlaggedPaper(ctx);
    const queue = await listModerationQueue(mod, { limit: 1 });
    expect(queue.flagged.papers).toHaveLength(1);
    expect(queue.flagged.count).toBeGreaterThanOrEqual(2);
    const order = (await listModerationQueue(mod, { limit: 100 })).flagged.papers.map(
      (p) => p.paper_id,
    );
    expect(order.indexOf(first)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(first)).toBeLessThan(order.indexOf(second));
    await expect(listModerationQueue(mod, { limit: 101 })).rejects.toBeInstanceOf(Invalid);
  });

  it("flags a new version with warnings again after its predecessor was cleared", async () => {
    const paperId = await publishFlaggedPaper(ctx);
    await clearPaperFlag(mod, { paperId, version: 1, reason: "Short but fine." });
    expect((await listModerationQueue(mod)).flagged.papers.map((p) => p.paper_id)).not.toContain(
      paperId,
    );
    const v2 = await publishVersion(
      { ...ctx, caller: operator },
      { ...paperInput({ body: SHORT_BODY }), paperId },
    );
    expect(v2.outcome).toBe("published");
    const again = (await listModerationQueue(mod)).flagged.papers.find(
      (p) => p.paper_id === paperId,
    );
    expect(again?.version).toBe(2);
  });

  it("is for moderators only", async () => {
    for (const [name, other] of await nonModerators()) {
      await expect(listModerationQueue(other), name).rejects.toBeInstanceOf(Forbidden);
      await expect(listModerationEvents(other), name).rejects.toBeInstanceOf(Forbidden);
    }
  });
});

describe("removing a published paper", () => {
  it("hides it everywhere, unindexes it and logs who did it and why", async () => {
    const w = uniqueWord();
    const paperId = (await publishPaper(ctx, withWord(w))).paper_id;
    expect(await found(w)).toEqual([paperId]);
    const before = await paperRow(ctx, paperId);
    clock.advance(60_000);

    const result = await removePaper(mod, { paperId, version: 1, reason: "  Plagiarised text.  " });
    expect(result).toMatchObject({ paper_id: paperId, status: "removed", version: 1 });

    const row = await paperRow(ctx, paperId);
    expect(row.status).toBe("removed");
    expect(row.statusReason).toBe("removed: Plagiarised text.");
    expect(row.updatedAt.getTime()).toBe(clock.now().getTime());
    expect(row.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    const [event] = await eventsFor(ctx, paperId);
    expect(event).toMatchObject({
      id: result.event_id,
      actor: moderator.handle,
      actorOwnerId: moderator.ownerId,
      action: "paper.remove",
      targetType: "paper",
      targetId: paperId,
      reason: "Plagiarised text.",
      details: { from: "published", to: "removed", version: 1 },
    });

    expect(await found(w)).toEqual([]);
    await expect(getPaper(ctx, { id: paperId })).rejects.toBeInstanceOf(NotFound);
    const listed = await listPapers(ctx, { limit: 100 });
    expect(listed.papers.map((p) => p.id)).not.toContain(paperId);
    expect(await buildAtomFeed(ctx, {})).not.toContain(paperId);
  });

  it("is a Conflict when the paper is no longer published, or has a newer version", async () => {
    const paperId = (await publishPaper(ctx)).paper_id;
    await removePaper(mod, { paperId, reason: "Spam." });
    const events = await eventCount();
    await expect(removePaper(mod, { paperId, reason: "Spam again." })).rejects.toThrow(
      /is removed, not published/,
    );

    const revised = (await publishPaper(ctx)).paper_id;
    await publishVersion({ ...ctx, caller: operator }, { ...paperInput(), paperId: revised });
    const stale = removePaper(mod, { paperId: revised, version: 1, reason: "Saw v1." });
    await expect(stale).rejects.toBeInstanceOf(Conflict);
    await expect(stale).rejects.toThrow(/at version 2 now, not 1/);
    expect((await paperRow(ctx, revised)).status).toBe("published");

    const held = await holdPaper(ctx);
    await expect(removePaper(mod, { paperId: held, reason: "r" })).rejects.toBeInstanceOf(Conflict);
    expect(await eventCount()).toBe(events);
  });

  it("refuses non-moderators, bad reasons and unknown papers, changing nothing", async () => {
    const w = uniqueWord();
    const paperId = (await publishPaper(ctx, withWord(w))).paper_id;
    const before = await paperRow(ctx, paperId);
    const events = await eventCount();
    for (const [name, other] of await nonModerators()) {
      await expect(removePaper(other, { paperId, reason: "r" }), name).rejects.toBeInstanceOf(
        Forbidden,
      );
    }
    for (const reason of ["", "   ", "x".repeat(MODERATION_REASON_MAX + 1), "a\u0000b"]) {
      const refused = removePaper(mod, { paperId, reason });
      await expect(refused).rejects.toBeInstanceOf(Invalid);
      await refused.catch((e: Invalid) => expect(e.issues.map((i) => i.name)).toEqual(["reason"]));
    }
    // The bound counts code points, as every bound in Quire does.
    await expect(
      removePaper(mod, { paperId: "2611.99999", reason: "😀".repeat(MODERATION_REASON_MAX) }),
    ).rejects.toBeInstanceOf(NotFound);
    for (const id of ["nope", `${paperId}v1`, ""]) {
      await expect(removePaper(mod, { paperId: id, reason: "r" })).rejects.toBeInstanceOf(NotFound);
    }
    expect(await paperRow(ctx, paperId)).toEqual(before);
    expect(await eventCount()).toBe(events);
    expect(await found(w)).toEqual([paperId]);
  });
});

describe("held papers", () => {
  it("approves one: published now, searchable, out of both queues, logged", async () => {
    const w = uniqueWord();
    const paperId = await holdPaper(ctx, withWord(w));
    expect(await found(w)).toEqual([]);
    await expect(getPaper(ctx, { id: paperId })).rejects.toBeInstanceOf(NotFound);
    clock.advance(3_600_000);

    const result = await approvePaper(mod, { paperId, version: 1, reason: "Read it; fine." });
    expect(result).toMatchObject({ status: "published", version: 1 });
    const row = await paperRow(ctx, paperId);
    expect(row).toMatchObject({ status: "published", statusReason: null });
    expect(row.updatedAt.getTime()).toBe(clock.now().getTime());
    expect(row.publishedAt.getTime()).toBe(clock.now().getTime());
    expect(await found(w)).toEqual([paperId]);
    expect((await getPaper(ctx, { id: paperId })).paper.id).toBe(paperId);
    const listed = await listPapers(ctx, { limit: 1 });
    expect(listed.papers[0]?.id).toBe(paperId);

    const queue = await listModerationQueue(mod);
    const queued = [...queue.held.papers, ...queue.flagged.papers].map((p) => p.paper_id);
    expect(queued).not.toContain(paperId);
    expect(await eventsFor(ctx, paperId)).toMatchObject([
      {
        action: "paper.approve",
        actor: moderator.handle,
        actorOwnerId: moderator.ownerId,
        reason: "Read it; fine.",
        details: { from: "submitted", to: "published", version: 1 },
      },
    ]);
    await expect(approvePaper(mod, { paperId, reason: "twice" })).rejects.toThrow(
      /is published, not submitted/,
    );
  });

  it("rejects one: never public, reason kept, logged; a second decision is a Conflict", async () => {
    const w = uniqueWord();
    const paperId = await holdPaper(ctx, withWord(w));
    const result = await rejectPaper(mod, { paperId, reason: "Fabricated results." });
    expect(result.status).toBe("rejected");
    const row = await paperRow(ctx, paperId);
    expect(row).toMatchObject({
      status: "rejected",
      statusReason: "rejected: Fabricated results.",
    });
    expect(await found(w)).toEqual([]);
    await expect(getPaper(ctx, { id: paperId })).rejects.toBeInstanceOf(NotFound);
    expect((await eventsFor(ctx, paperId)).map((e) => [e.action, e.reason])).toEqual([
      ["paper.reject", "Fabricated results."],
    ]);
    await expect(approvePaper(mod, { paperId, reason: "late" })).rejects.toBeInstanceOf(Conflict);
    await expect(rejectPaper(mod, { paperId, reason: "late" })).rejects.toBeInstanceOf(Conflict);
    expect((await paperRow(ctx, paperId)).status).toBe("rejected");
  });

  it("will not approve or reject a published paper, nor let others decide", async () => {
    const published = (await publishPaper(ctx)).paper_id;
    await expect(approvePaper(mod, { paperId: published, reason: "r" })).rejects.toBeInstanceOf(
      Conflict,
    );
    await expect(rejectPaper(mod, { paperId: published, reason: "r" })).rejects.toBeInstanceOf(
      Conflict,
    );
    const held = await holdPaper(ctx);
    const events = await eventCount();
    for (const [name, other] of await nonModerators()) {
      await expect(
        approvePaper(other, { paperId: held, reason: "r" }),
        name,
      ).rejects.toBeInstanceOf(Forbidden);
      await expect(rejectPaper(other, { paperId: held, reason: "r" }), name).rejects.toBeInstanceOf(
        Forbidden,
      );
    }
    await expect(approvePaper(mod, { paperId: held, reason: "" })).rejects.toBeInstanceOf(Invalid);
    expect((await paperRow(ctx, held)).status).toBe("submitted");
    expect(await eventCount()).toBe(events);
  });
});

describe("clearing a flag", () => {
  it("keeps the paper as it is and takes it out of the queue", async () => {
    const w = uniqueWord();
    const paperId = await publishFlaggedPaper(ctx, withWord(w));
    const before = await paperRow(ctx, paperId);
    clock.advance(5000);
    const result = await clearPaperFlag(mod, { paperId, version: 1, reason: "Short by design." });
    expect(result).toMatchObject({ status: "published", version: 1 });
    expect(await paperRow(ctx, paperId)).toEqual(before);
    expect(await found(w)).toEqual([paperId]);
    expect((await listModerationQueue(mod)).flagged.papers.map((p) => p.paper_id)).not.toContain(
      paperId,
    );
    expect(await eventsFor(ctx, paperId)).toMatchObject([
      {
        action: "paper.clear_flag",
        actor: moderator.handle,
        reason: "Short by design.",
        details: { version: 1 },
      },
    ]);
    await expect(clearPaperFlag(mod, { paperId, reason: "again" })).rejects.toThrow(
      /cleared already/,
    );
  });

  it("is a Conflict for a paper without warnings, one not published, or a stale version", async () => {
    const clean = await publishCleanPaper(ctx);
    await expect(clearPaperFlag(mod, { paperId: clean, reason: "r" })).rejects.toThrow(
      /no screening warnings/,
    );
    const held = await holdPaper(ctx);
    await expect(clearPaperFlag(mod, { paperId: held, reason: "r" })).rejects.toBeInstanceOf(
      Conflict,
    );
    const flagged = await publishFlaggedPaper(ctx);
    await expect(
      clearPaperFlag(mod, { paperId: flagged, version: 2, reason: "r" }),
    ).rejects.toBeInstanceOf(Conflict);
    for (const [name, other] of await nonModerators()) {
      await expect(
        clearPaperFlag(other, { paperId: flagged, reason: "r" }),
        name,
      ).rejects.toBeInstanceOf(Forbidden);
    }
    expect(await eventsFor(ctx, flagged)).toEqual([]);
  });
});

describe("suspending and reinstating agents", () => {
  async function agentRow(id: string) {
    const [row] = await ctx.db.select().from(agents).where(eq(agents.id, id));
    return row!;
  }

  it("suspends and reinstates with the moderator as actor; repeats are Conflicts", async () => {
    const agent = await agentIn(ctx, "verified");
    expect(await getModeratedAgent(mod, { agentId: agent.id })).toMatchObject({
      id: agent.id,
      status: "verified",
      owner_handle: agent.ownerHandle,
    });
    await suspendAgent(mod, { agentId: agent.id, reason: "Posting spam comments." });
    expect((await agentRow(agent.id)).status).toBe("suspended");
    clock.advance(1000);
    await expect(suspendAgent(mod, { agentId: agent.id, reason: "again" })).rejects.toBeInstanceOf(
      Conflict,
    );
    await reinstateAgent(mod, { agentId: agent.id, reason: "Owner fixed the loop." });
    expect((await agentRow(agent.id)).status).toBe("verified");
    await expect(
      reinstateAgent(mod, { agentId: agent.id, reason: "again" }),
    ).rejects.toBeInstanceOf(Conflict);
    expect(
      (await eventsFor(ctx, agent.id)).map((e) => [e.action, e.actor, e.actorOwnerId, e.reason]),
    ).toEqual([
      ["agent.suspend", moderator.handle, moderator.ownerId, "Posting spam comments."],
      ["agent.verify", moderator.handle, moderator.ownerId, "Owner fixed the loop."],
    ]);
  });

  it("refuses non-moderators, bad reasons and unknown agents, changing nothing", async () => {
    const agent = await agentIn(ctx, "verified");
    for (const [name, other] of await nonModerators()) {
      await expect(
        suspendAgent(other, { agentId: agent.id, reason: "r" }),
        name,
      ).rejects.toBeInstanceOf(Forbidden);
      await expect(getModeratedAgent(other, { agentId: agent.id }), name).rejects.toBeInstanceOf(
        Forbidden,
      );
    }
    await expect(suspendAgent(mod, { agentId: agent.id, reason: " " })).rejects.toBeInstanceOf(
      Invalid,
    );
    for (const agentId of ["agt_missing", "agt_0000000000000000000000", "'; drop table agents"]) {
      await expect(suspendAgent(mod, { agentId, reason: "r" })).rejects.toBeInstanceOf(NotFound);
    }
    expect((await agentRow(agent.id)).status).toBe("verified");
    expect(await eventsFor(ctx, agent.id)).toEqual([]);
  });

  it("will not reinstate an agent whose owner has not verified their email", async () => {
    const agent = await agentIn(ctx, "unverified");
    await suspendAgent(mod, { agentId: agent.id, reason: "Abuse." });
    await expect(reinstateAgent(mod, { agentId: agent.id, reason: "r" })).rejects.toBeInstanceOf(
      Conflict,
    );
    expect((await agentRow(agent.id)).status).toBe("suspended");
  });
});

describe("the log", () => {
  it("lists newest first, pages by cursor without repeats, and filters by target", async () => {
    const { ctx: own } = await moderatorContext(ctx);
    const paperId = (await publishPaper(ctx)).paper_id;
    const agent = await agentIn(ctx, "verified");
    clock.advance(1000);
    await suspendAgent(own, { agentId: agent.id, reason: "one" });
    clock.advance(1000);
    await reinstateAgent(own, { agentId: agent.id, reason: "two" });
    clock.advance(1000);
    await removePaper(own, { paperId, reason: "three" });

    const first = await listModerationEvents(mod, { limit: 2 });
    expect(first.events.map((e) => e.reason)).toEqual(["three", "two"]);
    expect(first.events[0]).toMatchObject({ action: "paper.remove", target_id: paperId });
    expect(first.next_cursor).not.toBeNull();
    const second = await listModerationEvents(mod, { limit: 2, cursor: first.next_cursor! });
    expect(second.events[0]?.reason).toBe("one");
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listModerationEvents(mod, { limit: 3, ...(cursor ? { cursor } : {}) });
      for (const e of page.events) {
        expect(seen.has(e.id)).toBe(false);
        seen.add(e.id);
      }
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor && pages < 100);
    expect(seen.size).toBe(await eventCount());

    const forAgent = await listModerationEvents(mod, { targetType: "agent", targetId: agent.id });
    expect(forAgent.events.map((e) => e.reason)).toEqual(["two", "one"]);
    expect(forAgent.next_cursor).toBeNull();
    const byId = await listModerationEvents(mod, { targetId: paperId });
    expect(byId.events.map((e) => e.action)).toEqual(["paper.remove"]);
  });

  it("refuses a forged cursor and bad bounds", async () => {
    for (const cursor of ["garbage!", Buffer.from("x|y").toString("base64url")]) {
      await expect(listModerationEvents(mod, { cursor })).rejects.toBeInstanceOf(Invalid);
    }
    await expect(listModerationEvents(mod, { limit: 0 })).rejects.toBeInstanceOf(Invalid);
  });
});

describe("roles", () => {
  it("only the operator grants the moderator role, and it is logged", async () => {
    const owner = await makeOwner(ctx);
    await expect(
      setOwnerRole(mod, { handle: owner.handle, role: "moderator" }),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      setOwnerRole({ ...ctx, caller: operator }, { handle: owner.handle, role: "admin" }),
    ).rejects.toBeInstanceOf(Invalid);
    const set = await setOwnerRole(
      { ...ctx, caller: operator },
      { handle: owner.handle.toUpperCase(), role: "moderator" },
    );
    expect(set).toMatchObject({ role: "moderator", changed: true });
    const same = await setOwnerRole(
      { ...ctx, caller: operator },
      { handle: owner.handle, role: "moderator" },
    );
    expect(same.changed).toBe(false);
    const [row] = await ctx.db.select().from(owners).where(eq(owners.id, owner.id));
    expect(row?.role).toBe("moderator");
    expect((await eventsFor(ctx, owner.id)).map((e) => [e.action, e.actor, e.details])).toEqual([
      ["owner.set_role", "operator", { from: "owner", to: "moderator" }],
    ]);
  });
});

describe("operators", () => {
  it("may moderate too, logged as the operator", async () => {
    const paperId = (await publishPaper(ctx)).paper_id;
    await removePaper({ ...ctx, caller: operator }, { paperId, reason: "Court order." });
    const [row] = await ctx.db.select().from(papers).where(eq(papers.id, paperId));
    expect(row?.status).toBe("removed");
    expect(await eventsFor(ctx, paperId)).toMatchObject([
      { actor: "operator", actorOwnerId: null, action: "paper.remove" },
    ]);
  });
});
