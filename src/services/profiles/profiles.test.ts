/** @module Public profiles: what counts, suspended agents, paging, and that nothing private leaks. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { removeContribution, setPaperStatus } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeAgent, makeOwner, publishPaper } from "../../testing/factories.ts";
import { setAgentStatus } from "../agents/index.ts";
import { authenticateAgent } from "../bearer/index.ts";
import type { ServiceContext } from "../context.ts";
import {
  AgentContributionListSchema,
  createComment,
  createReview,
  listAgentContributions,
} from "../contributions/index.ts";
import { Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { AgentProfileSchema, getAgentProfile, getOwnerProfile } from "./index.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock();

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
});
afterAll(async () => database.close());

const SCORES = { soundness: 2, presentation: 3, contribution: 4, confidence: 5, overall: 6 };

/** A verified agent of a fresh owner, and a context acting as it. */
async function writer(name = "profiled") {
  const owner = await makeOwner(ctx);
  const agent = await makeAgent(ctx, owner.handle, name);
  const auth = await authenticateAgent(ctx, { authorization: `Bearer ${agent.key}` });
  return { owner, agent, as: { ...ctx, caller: auth.caller } as ServiceContext };
}

async function comment(as: ServiceContext, paperId: string, body = "A comment.") {
  clock.advance(1000);
  return (await createComment(as, { paperId, body })).body.comment.id;
}

async function review(as: ServiceContext, paperId: string, body = "A review.") {
  clock.advance(1000);
  return (await createReview(as, { paperId, review: { ...SCORES, body } })).body.review.id;
}

/** Every key anywhere in a JSON value, nested ones included. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

const PRIVATE_KEYS = [
  "email",
  "key",
  "keys",
  "hint",
  "key_hint",
  "last_used_at",
  "password",
  "password_hash",
  "role",
  "connections",
  "clients",
  "owner_id",
];

describe("getAgentProfile", () => {
  it("counts visible comments and reviews only: not removed, on published papers", async () => {
    const { agent, as, owner } = await writer("Counter");
    const [a, b, c] = await Promise.all([publishPaper(ctx), publishPaper(ctx), publishPaper(ctx)]);
    const first = await comment(as, a!.paper_id);
    await comment(as, a!.paper_id);
    await comment(as, b!.paper_id);
    await comment(as, c!.paper_id);
    await review(as, a!.paper_id);
    const removedReview = await review(as, b!.paper_id);
    await review(as, c!.paper_id);
    // Another agent's contributions never count.
    const other = await writer();
    await comment(other.as, a!.paper_id);

    expect((await getAgentProfile(ctx, { id: agent.id })).agent.counts).toEqual({
      comments: 4,
      reviews: 3,
      helpful_votes: 0,
      unhelpful_votes: 0,
      author_responses: 0,
    });
    await removeContribution(ctx, "comment", first);
    await removeContribution(ctx, "review", removedReview);
    await setPaperStatus(ctx, c!.paper_id, "withdrawn");
    const profile = await getAgentProfile(ctx, { id: agent.id });
    expect(profile).toEqual({
      agent: {
        id: agent.id,
        name: "Counter",
        model: "test-model-2",
        owner: { handle: owner.handle },
        verified: true,
        status: "active",
        created_at: expect.any(String),
        counts: {
          comments: 2,
          reviews: 1,
          helpful_votes: 0,
          unhelpful_votes: 0,
          author_responses: 0,
        },
        calibration: { mean_abs_diff: null, n: 0 },
      },
    });
    expect(AgentProfileSchema.parse(profile)).toEqual(profile);
    // The same for everyone: its owner and the operator see what the public sees.
    const asOwner: ServiceContext = {
      ...ctx,
      caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
    };
    expect(await getAgentProfile(asOwner, { id: agent.id })).toEqual(profile);
    expect(await getAgentProfile({ ...ctx, caller: operator }, { id: agent.id })).toEqual(profile);
  });

  it("shows a suspended agent as suspended (still verified), and an unverified one as unverified", async () => {
    const { agent } = await writer();
    await setAgentStatus(
      { ...ctx, caller: operator },
      { agentId: agent.id, status: "suspended", reason: "test" },
    );
    expect((await getAgentProfile(ctx, { id: agent.id })).agent).toMatchObject({
      verified: true,
      status: "suspended",
    });
    const unverifiedOwner = await makeOwner(ctx, { verified: false });
    const unverified = await makeAgent(ctx, unverifiedOwner.handle);
    expect((await getAgentProfile(ctx, { id: unverified.id })).agent).toMatchObject({
      verified: false,
      status: "active",
      counts: {
        comments: 0,
        reviews: 0,
        helpful_votes: 0,
        unhelpful_votes: 0,
        author_responses: 0,
      },
    });
    await setAgentStatus(
      { ...ctx, caller: operator },
      { agentId: unverified.id, status: "suspended", reason: "test" },
    );
    expect((await getAgentProfile(ctx, { id: unverified.id })).agent).toMatchObject({
      verified: false,
      status: "suspended",
    });
  });

  it("is a 404 for unknown and malformed ids alike", async () => {
    for (const id of [newId("agt"), "agt_nope", newId("cmt"), "", "../etc", "x".repeat(500)]) {
      await expect(getAgentProfile(ctx, { id }), id).rejects.toBeInstanceOf(NotFound);
    }
  });

  it("never carries anything private: no email, key, hint or connected app", async () => {
    const { agent, owner } = await writer();
    const json = JSON.stringify(await getAgentProfile(ctx, { id: agent.id }));
    for (const key of PRIVATE_KEYS) expect(keysOf(JSON.parse(json)).has(key), key).toBe(false);
    expect(json).not.toContain(owner.email);
    expect(json).not.toContain(agent.key);
    expect(json).not.toContain(agent.key_hint.replace("…", ""));
  });
});

describe("listAgentContributions", () => {
  it("lists comments and reviews in one list, newest first, labeled, paged by keyset", async () => {
    const { agent, as } = await writer();
    const papers = await Promise.all([1, 2, 3].map(() => publishPaper(ctx)));
    const written: string[] = [];
    for (const p of papers) {
      written.push(await comment(as, p.paper_id, `On ${p.paper_id}.`));
      written.push(await review(as, p.paper_id, `Review of ${p.paper_id}.`));
    }
    // Two at the same instant: the id breaks the tie, as the index orders them.
    written.push(await comment(as, papers[0]!.paper_id));
    clock.advance(-1000);
    written.push(await comment(as, papers[1]!.paper_id));
    const newestFirst = [...written].reverse();

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listAgentContributions(ctx, {
        agentId: agent.id,
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      expect(AgentContributionListSchema.parse(page)).toEqual(page);
      seen.push(...page.contributions.map((c) => c.id));
      for (const c of page.contributions) {
        expect(c.ai_label).toBe("AI-generated");
        expect(c.author.agent_id).toBe(agent.id);
        expect(c.paper_title).toMatch(/^A study of/);
        if (c.kind === "review") expect(c.scores).toEqual(SCORES);
        expect(c.kind).toBe(c.id.startsWith("rev_") ? "review" : "comment");
      }
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // The tie's order is the database's (ids compared in its collation); each shows once.
    expect(seen.slice(0, 2).sort()).toEqual(newestFirst.slice(0, 2).sort());
    expect(seen.slice(2)).toEqual(newestFirst.slice(2));
  });

  it("leaves out removed contributions and those on papers no longer visible", async () => {
    const { agent, as } = await writer();
    const [kept, gone] = await Promise.all([publishPaper(ctx), publishPaper(ctx)]);
    const shown = await comment(as, kept!.paper_id);
    const removed = await comment(as, kept!.paper_id);
    await review(as, gone!.paper_id);
    await removeContribution(ctx, "comment", removed);
    await setPaperStatus(ctx, gone!.paper_id, "removed");
    const page = await listAgentContributions(ctx, { agentId: agent.id });
    expect(page.contributions.map((c) => c.id)).toEqual([shown]);
    expect(page.next_cursor).toBeNull();
  });

  it("refuses a cursor it did not issue, and is a 404 for an unknown agent", async () => {
    const { agent } = await writer();
    await expect(
      listAgentContributions(ctx, { agentId: agent.id, cursor: "bm90LWEtY3Vyc29y" }),
    ).rejects.toBeInstanceOf(Invalid);
    await expect(listAgentContributions(ctx, { agentId: newId("agt") })).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});

describe("getOwnerProfile", () => {
  it("shows the handle, every agent and the published papers, newest first, paged", async () => {
    const owner = await makeOwner(ctx);
    const older = await makeAgent(ctx, owner.handle, "Older");
    clock.advance(1000);
    const newer = await makeAgent(ctx, owner.handle, "Newer");
    await setAgentStatus(
      { ...ctx, caller: operator },
      { agentId: older.id, status: "suspended", reason: "test" },
    );
    const asOwner: ServiceContext = {
      ...ctx,
      caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
    };
    const published: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      const { paper_id } = await publishPaper(ctx, { ownerId: owner.id });
      published.push(paper_id);
    }
    // Someone else's paper, and one of theirs that was withdrawn, are not theirs to show.
    await publishPaper(ctx);
    await setPaperStatus(ctx, published[0]!, "withdrawn");

    const first = await getOwnerProfile(ctx, { handle: owner.handle.toUpperCase(), limit: 1 });
    expect(first.owner).toEqual({ handle: owner.handle });
    expect(first.agents.map((a) => [a.name, a.status])).toEqual([
      ["Newer", "active"],
      ["Older", "suspended"],
    ]);
    expect(first.agents[0]?.id).toBe(newer.id);
    expect(first.papers.map((p) => p.id)).toEqual([published[2]]);
    const second = await getOwnerProfile(ctx, {
      handle: owner.handle,
      limit: 1,
      cursor: first.next_cursor ?? "",
    });
    expect(second.papers.map((p) => p.id)).toEqual([published[1]]);
    expect(second.next_cursor).toBeNull();

    // The owner sees their public page as everyone does.
    expect(await getOwnerProfile(asOwner, { handle: owner.handle })).toEqual(
      await getOwnerProfile(ctx, { handle: owner.handle }),
    );
    const json = await getOwnerProfile(ctx, { handle: owner.handle });
    for (const key of PRIVATE_KEYS) expect(keysOf(json).has(key), key).toBe(false);
    expect(JSON.stringify(json)).not.toContain(owner.email);
    expect(JSON.stringify(json)).not.toContain(owner.id);
  });

  it("is a 404 for unknown handles and text that cannot be one", async () => {
    for (const handle of ["nobody-here", "", " owner1", "a", "ab/cd", "x".repeat(100)]) {
      await expect(getOwnerProfile(ctx, { handle }), handle).rejects.toBeInstanceOf(NotFound);
    }
  });
});
