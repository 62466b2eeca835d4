/** @module Replies, author responses, helpful votes, addressed reviews and track records: the service rules and their properties. */
import { and, count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { comments, reviews, reviewVotes } from "../../db/schema/index.ts";
import { rowsOf } from "../../db/sql.ts";
import { removeContribution } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { makeAgent, makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import { authenticateAgent } from "../bearer/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, Invalid, NotFound, Unauthorized, Unprocessable } from "../errors.ts";
import { listPaperVersions, revisePaper } from "../papers/index.ts";
import { getAgentProfile } from "../profiles/index.ts";
import { type CalibrationRow, calibrationOf } from "./calibration.ts";
import { createComment } from "./create-comment.ts";
import { createHumanReply } from "./create-human-reply.ts";
import { createHumanReview } from "./create-human-review.ts";
import { createReview } from "./create-review.ts";
import { listComments } from "./list-comments.ts";
import { listReviews } from "./list-reviews.ts";
import { REPLY_MAX_DEPTH } from "./schemas.ts";
import { voteReview } from "./vote-review.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock();

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
});
afterAll(async () => database.close());

const SCORES = { soundness: 2, presentation: 3, contribution: 4, confidence: 5, overall: 6 };

interface Person {
  id: string;
  handle: string;
  as: ServiceContext;
}

async function person(opts: { verified?: boolean } = {}): Promise<Person> {
  const owner = await makeOwner(ctx, { verified: opts.verified ?? true });
  return {
    id: owner.id,
    handle: owner.handle,
    as: {
      ...ctx,
      caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
    },
  };
}

/** A verified agent, of `owner` or of a fresh owner. */
async function agentOf(owner?: Person) {
  const o = owner ?? (await person());
  const agent = await makeAgent(ctx, o.handle, "discussant");
  const auth = await authenticateAgent(ctx, { authorization: `Bearer ${agent.key}` });
  return { id: agent.id, owner: o, as: { ...ctx, caller: auth.caller } as ServiceContext };
}

async function paperOf(owner: Person): Promise<string> {
  return (await publishPaper(ctx, { ownerId: owner.id })).paper_id;
}

async function comment(as: ServiceContext, paperId: string, inReplyTo?: string) {
  clock.advance(1000);
  const r = await createComment(as, {
    paperId,
    body: `A remark ${clock.now().getTime()}.`,
    ...(inReplyTo ? { inReplyTo } : {}),
  });
  return r.body.comment;
}

async function aiReview(as: ServiceContext, paperId: string, overall = 6) {
  clock.advance(1000);
  return (await createReview(as, { paperId, review: { ...SCORES, overall, body: "Review." } })).body
    .review;
}

async function humanReview(as: ServiceContext, paperId: string, overall = 6) {
  clock.advance(1000);
  return (await createHumanReview(as, { paperId, review: { ...SCORES, overall, body: "Review." } }))
    .body.review;
}

async function reply(as: ServiceContext, paperId: string, inReplyTo: string, body = "A reply.") {
  clock.advance(1000);
  return (await createHumanReply(as, { paperId, body, inReplyTo })).body.comment;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("replies", () => {
  it("an agent replies to a comment and to a review; the thread order puts each reply under its target", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const a = await agentOf();
    const b = await agentOf();
    const first = await comment(a.as, paperId);
    const second = await comment(b.as, paperId);
    const rv = await aiReview(b.as, paperId);
    const toFirst = await comment(b.as, paperId, first.id);
    const toReply = await comment(a.as, paperId, toFirst.id);
    const toReview = await comment(a.as, paperId, rv.id);
    expect(toFirst).toMatchObject({ in_reply_to: first.id, depth: 1, kind: "ai" });
    expect(toReply).toMatchObject({ in_reply_to: toFirst.id, depth: 2 });
    expect(toReview).toMatchObject({ in_reply_to: rv.id, depth: 1, author_response: false });

    const created = await listComments(ctx, { paperId });
    expect(created.comments.map((c) => c.id)).toEqual([
      first.id,
      second.id,
      toFirst.id,
      toReply.id,
      toReview.id,
    ]);
    const thread = await listComments(ctx, { paperId, order: "thread" });
    expect(thread.comments.map((c) => c.id)).toEqual([
      first.id,
      toFirst.id,
      toReply.id,
      second.id,
      toReview.id,
    ]);
    // Paging the thread by twos gives the same order.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listComments(ctx, {
        paperId,
        order: "thread",
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      paged.push(...page.comments.map((c) => c.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(thread.comments.map((c) => c.id));
    // A cursor of one order is refused by the other.
    const firstPage = await listComments(ctx, { paperId, order: "thread", limit: 1 });
    expect(
      await rejection(listComments(ctx, { paperId, cursor: firstPage.next_cursor ?? "" })),
    ).toBeInstanceOf(Invalid);
  });

  it("a signed-in person replies, labeled human; the paper's owner and their agent are author responses", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const critic = await agentOf();
    const rv = await aiReview(critic.as, paperId);
    const reader = await person();
    const fromReader = await reply(reader.as, paperId, rv.id);
    expect(fromReader).toMatchObject({
      kind: "human",
      author: { owner_handle: reader.handle },
      in_reply_to: rv.id,
      depth: 1,
      author_response: false,
    });
    expect("ai_label" in fromReader).toBe(false);
    const fromAuthor = await reply(author.as, paperId, rv.id, "Thank you; fixed in v2.");
    expect(fromAuthor.author_response).toBe(true);
    const authorsAgent = await agentOf(author);
    const fromAgent = await comment(authorsAgent.as, paperId, fromReader.id);
    expect(fromAgent).toMatchObject({ author_response: true, kind: "ai", depth: 2 });
    const listed = await listComments(ctx, { paperId, order: "thread" });
    const byId = new Map(listed.comments.map((c) => [c.id, c]));
    expect(byId.get(fromAuthor.id)).toMatchObject({ kind: "human", author_response: true });
    expect(byId.get(fromAgent.id)).toMatchObject({
      kind: "ai",
      ai_label: "AI-generated",
      author_response: true,
    });
    // Replies count as comments of the paper, as comments always have.
    const [row] = await ctx.db
      .select({ n: count() })
      .from(comments)
      .where(eq(comments.paperId, paperId));
    expect(row?.n).toBe(3);
  });

  it("refuses a reply to another paper's contribution, a removed one, an unknown id, and one too deep", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const elsewhere = await paperOf(author);
    const a = await agentOf();
    const there = await comment(a.as, elsewhere);
    const thereReview = await aiReview(a.as, elsewhere);
    for (const target of [there.id, thereReview.id, "cmt_0000000000000000000000"]) {
      const error = await rejection(comment(a.as, paperId, target));
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues).toEqual([expect.objectContaining({ name: "in_reply_to" })]);
    }
    expect(await rejection(comment(a.as, paperId, "not-an-id"))).toBeInstanceOf(Invalid);
    const gone = await comment(a.as, paperId);
    await removeContribution(ctx, "comment", gone.id);
    expect(await rejection(comment(a.as, paperId, gone.id))).toBeInstanceOf(Invalid);
    const reader = await person();
    expect(await rejection(reply(reader.as, paperId, gone.id))).toBeInstanceOf(Invalid);

    let parent = (await comment(a.as, paperId)).id;
    for (let depth = 1; depth <= REPLY_MAX_DEPTH; depth++) {
      const next = await comment(a.as, paperId, parent);
      expect(next.depth).toBe(depth);
      parent = next.id;
    }
    const tooDeep = await rejection(reply(reader.as, paperId, parent));
    expect(tooDeep).toBeInstanceOf(Invalid);
    expect((tooDeep as Invalid).issues[0]?.message).toMatch(/at most 5 deep/);
    // Nothing of the refused replies was stored.
    const [row] = await ctx.db
      .select({ n: count() })
      .from(comments)
      .where(eq(comments.paperId, paperId));
    expect(row?.n).toBe(2 + REPLY_MAX_DEPTH);
  });

  it("people reply only signed in with a confirmed email; agents never write as people", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const a = await agentOf();
    const target = await comment(a.as, paperId);
    expect(await rejection(reply(ctx, paperId, target.id))).toBeInstanceOf(Unauthorized);
    expect(await rejection(reply(a.as, paperId, target.id))).toBeInstanceOf(Unauthorized);
    const unconfirmed = await person({ verified: false });
    expect(await rejection(reply(unconfirmed.as, paperId, target.id))).toBeInstanceOf(Forbidden);
    // A person's reply needs a target: top-level comments stay the agents'.
    const reader = await person();
    expect(
      await rejection(createHumanReply(reader.as, { paperId, body: "Hi.", inReplyTo: undefined })),
    ).toBeInstanceOf(Invalid);
  });

  it("an Idempotency-Key covers the reply target: same request replays, another target is a 422", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const a = await agentOf();
    const x = await comment(a.as, paperId);
    const y = await comment(a.as, paperId);
    const send = (inReplyTo: string) =>
      createComment(a.as, { paperId, body: "Same words.", inReplyTo, idempotencyKey: "k-reply" });
    const once = await send(x.id);
    const again = await send(x.id);
    expect(again.replayed).toBe(true);
    expect(again.body).toEqual(once.body);
    expect(await rejection(send(y.id))).toBeInstanceOf(Unprocessable);
  });

  it("property: a reply never crosses papers", async () => {
    const author = await person();
    const papers = [await paperOf(author), await paperOf(author)];
    const a = await agentOf();
    const reader = await person();
    const pool: { id: string; paperId: string }[] = [];
    for (const paperId of papers) {
      pool.push({ id: (await comment(a.as, paperId)).id, paperId });
      pool.push({ id: (await aiReview(a.as, paperId)).id, paperId });
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            paper: fc.integer({ min: 0, max: 1 }),
            target: fc.nat(),
            human: fc.boolean(),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (steps) => {
          for (const step of steps) {
            const paperId = papers[step.paper] as string;
            const target = pool[step.target % pool.length] as (typeof pool)[number];
            const attempt = step.human
              ? reply(reader.as, paperId, target.id)
              : comment(a.as, paperId, target.id);
            if (target.paperId === paperId) {
              const made = await attempt.catch((e: unknown) => e);
              if (made instanceof Invalid) {
                // Only the depth bound refuses a same-paper target.
                expect(made.issues[0]?.message).toMatch(/deep/);
              } else {
                const c = made as { id: string; paper_id: string };
                expect(c.paper_id).toBe(paperId);
                pool.push({ id: c.id, paperId });
              }
            } else {
              expect(await rejection(attempt)).toBeInstanceOf(Invalid);
            }
          }
          // Whatever was stored: every reply's target is on the reply's own paper.
          const crossing = await rowsOf(
            ctx.db,
            sql`
            select c.id from comments c
            left join comments pc on pc.id = c.in_reply_to
            left join reviews pr on pr.id = c.in_reply_to
            where c.in_reply_to is not null
              and coalesce(pc.paper_id, pr.paper_id) is distinct from c.paper_id`,
          );
          expect(crossing).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("helpful votes", () => {
  it("one vote per person per review: cast, changed, withdrawn; counts on the review", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const critic = await agentOf();
    const rv = await aiReview(critic.as, paperId);
    const [p1, p2] = [await person(), await person()];
    expect(await voteReview(p1.as, { reviewId: rv.id, vote: "helpful" })).toMatchObject({
      helpful_count: 1,
      unhelpful_count: 0,
    });
    await voteReview(p1.as, { reviewId: rv.id, vote: "helpful" });
    await voteReview(p2.as, { reviewId: rv.id, vote: "unhelpful" });
    let listed = (await listReviews(ctx, { paperId, kind: "ai_advisory" })).ai_advisory;
    expect(listed?.reviews[0]).toMatchObject({ helpful_count: 1, unhelpful_count: 1 });
    await voteReview(p2.as, { reviewId: rv.id, vote: "helpful" });
    listed = (await listReviews(ctx, { paperId, kind: "ai_advisory" })).ai_advisory;
    expect(listed?.reviews[0]).toMatchObject({ helpful_count: 2, unhelpful_count: 0 });
    expect(await voteReview(p1.as, { reviewId: rv.id, vote: "none" })).toMatchObject({
      helpful_count: 1,
      unhelpful_count: 0,
    });
    // People vote on human reviews too.
    const hr = await humanReview(p1.as, paperId);
    expect(await voteReview(p2.as, { reviewId: hr.id, vote: "helpful" })).toMatchObject({
      helpful_count: 1,
    });
    const human = (await listReviews(ctx, { paperId, kind: "human" })).human;
    expect(human?.reviews[0]).toMatchObject({ helpful_count: 1, unhelpful_count: 0 });
  });

  it("refuses agents, unsigned and unconfirmed people, one's own or one's agent's review, and hidden reviews", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const critic = await agentOf();
    const rv = await aiReview(critic.as, paperId);
    expect(
      await rejection(voteReview(critic.as, { reviewId: rv.id, vote: "helpful" })),
    ).toBeInstanceOf(Unauthorized);
    expect(await rejection(voteReview(ctx, { reviewId: rv.id, vote: "helpful" }))).toBeInstanceOf(
      Unauthorized,
    );
    const unconfirmed = await person({ verified: false });
    expect(
      await rejection(voteReview(unconfirmed.as, { reviewId: rv.id, vote: "helpful" })),
    ).toBeInstanceOf(Forbidden);
    expect(
      await rejection(voteReview(critic.owner.as, { reviewId: rv.id, vote: "helpful" })),
    ).toBeInstanceOf(Forbidden);
    const reader = await person();
    const own = await humanReview(reader.as, paperId);
    expect(
      await rejection(voteReview(reader.as, { reviewId: own.id, vote: "helpful" })),
    ).toBeInstanceOf(Forbidden);
    expect(
      await rejection(voteReview(reader.as, { reviewId: rv.id, vote: "great" })),
    ).toBeInstanceOf(Invalid);
    expect(
      await rejection(
        voteReview(reader.as, { reviewId: "rev_0000000000000000000000", vote: "helpful" }),
      ),
    ).toBeInstanceOf(NotFound);
    await removeContribution(ctx, "review", rv.id);
    expect(
      await rejection(voteReview(reader.as, { reviewId: rv.id, vote: "helpful" })),
    ).toBeInstanceOf(NotFound);
    const [row] = await ctx.db
      .select({ n: count() })
      .from(reviewVotes)
      .where(eq(reviewVotes.reviewId, rv.id));
    expect(row?.n).toBe(0);
  });

  it("property: votes are one per person, and the counts are the last choice of each", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const critics = [await agentOf(), await agentOf()];
    const reviewIds = [
      (await aiReview(critics[0]!.as, paperId)).id,
      (await aiReview(critics[1]!.as, paperId)).id,
    ];
    const voters = [await person(), await person(), await person()];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            voter: fc.integer({ min: 0, max: 2 }),
            review: fc.integer({ min: 0, max: 1 }),
            vote: fc.constantFrom("helpful", "unhelpful", "none"),
          }),
          { maxLength: 12 },
        ),
        async (steps) => {
          for (const rid of reviewIds) {
            await ctx.db.delete(reviewVotes).where(eq(reviewVotes.reviewId, rid));
          }
          const last = new Map<string, string>();
          for (const s of steps) {
            const rid = reviewIds[s.review] as string;
            await voteReview(voters[s.voter]!.as, { reviewId: rid, vote: s.vote });
            last.set(`${s.voter}:${rid}`, s.vote);
          }
          const listed = (await listReviews(ctx, { paperId, kind: "ai_advisory" })).ai_advisory;
          for (const rid of reviewIds) {
            const choices = [...last.entries()].filter(([k]) => k.endsWith(rid)).map(([, v]) => v);
            const shown = listed?.reviews.find((r) => r.id === rid);
            expect(shown?.helpful_count).toBe(choices.filter((v) => v === "helpful").length);
            expect(shown?.unhelpful_count).toBe(choices.filter((v) => v === "unhelpful").length);
            const rows = await ctx.db
              .select({ owner: reviewVotes.ownerId, n: count() })
              .from(reviewVotes)
              .where(eq(reviewVotes.reviewId, rid))
              .groupBy(reviewVotes.ownerId);
            expect(rows.every((r) => r.n === 1)).toBe(true);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("revisions that address reviews", () => {
  it("stores which reviews a new version addresses; each review says where", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const critic = await agentOf();
    const reader = await person();
    const r1 = await aiReview(critic.as, paperId);
    const r2 = await humanReview(reader.as, paperId);
    const other = await paperOf(author);
    const foreign = await aiReview(critic.as, other);
    const { title, abstract, body, ai_model, license, keywords } = paperInput();
    const fields = { title, abstract, body, ai_model, license, keywords };
    clock.advance(60_000);
    const refused = await rejection(
      revisePaper(author.as, { ...fields, paperId, changelog: "v2", addresses: [foreign.id] }),
    );
    expect(refused).toBeInstanceOf(Invalid);
    expect((refused as Invalid).issues[0]?.name).toBe("addresses");
    const v2 = await revisePaper(author.as, {
      ...fields,
      paperId,
      changelog: "Answered both reviews.",
      addresses: [r1.id, r2.id, r1.id],
    });
    expect(v2).toMatchObject({ outcome: "published", version: 2 });
    const versions = await listPaperVersions(ctx, { id: paperId });
    expect(versions.versions.map((v) => v.addresses)).toEqual([[], [r1.id, r2.id].sort()]);
    const listed = await listReviews(ctx, { paperId });
    expect(listed.ai_advisory?.reviews[0]?.addressed_in).toEqual([2]);
    expect(listed.human?.reviews[0]?.addressed_in).toEqual([2]);
  });
});

describe("track record and calibration", () => {
  const rowArb = (agents: string[]) =>
    fc.record({
      paperId: fc.constantFrom("p1", "p2", "p3", "p4", "p5"),
      kind: fc.constantFrom("human", "ai_advisory") as fc.Arbitrary<"human" | "ai_advisory">,
      agent: fc.constantFrom(...agents),
      overall: fc.integer({ min: 1, max: 10 }),
    });
  const toRows = (
    xs: { paperId: string; kind: "human" | "ai_advisory"; agent: string; overall: number }[],
  ) =>
    xs.map(
      (x): CalibrationRow => ({
        paperId: x.paperId,
        kind: x.kind,
        agentId: x.kind === "human" ? null : x.agent,
        overall: x.overall,
      }),
    );

  /** The direct computation: paper by paper, with plain loops over the raw rows. */
  function direct(rows: CalibrationRow[], agentId: string) {
    const papers = [...new Set(rows.map((r) => r.paperId))];
    const diffs: number[] = [];
    for (const paper of papers) {
      const mine = rows.filter(
        (r) => r.paperId === paper && r.kind === "ai_advisory" && r.agentId === agentId,
      );
      const people = rows.filter((r) => r.paperId === paper && r.kind === "human");
      if (mine.length === 0 || people.length === 0) continue;
      let a = 0;
      for (const r of mine) a += r.overall;
      let h = 0;
      for (const r of people) h += r.overall;
      diffs.push(Math.abs(a / mine.length - h / people.length));
    }
    const n = diffs.length;
    let total = 0;
    for (const d of diffs) total += d;
    return { mean_abs_diff: n >= 3 ? Math.round((total / n) * 100) / 100 : null, n };
  }

  it("property: calibration equals a direct computation", () => {
    fc.assert(
      fc.property(fc.array(rowArb(["a", "b"]), { maxLength: 40 }), (xs) => {
        const rows = toRows(xs);
        expect(calibrationOf(rows, "a")).toEqual(direct(rows, "a"));
      }),
    );
  });

  it("property: no AI score enters a human mean (other agents' scores never move a calibration)", () => {
    fc.assert(
      fc.property(
        fc.array(rowArb(["a"]), { maxLength: 30 }),
        fc.array(rowArb(["b", "c"]), { maxLength: 30 }),
        (mine, others) => {
          const base = toRows(mine);
          const withOthers = toRows([
            ...mine,
            ...others.map((o) => ({ ...o, kind: "ai_advisory" as const })),
          ]);
          expect(calibrationOf(withOthers, "a")).toEqual(calibrationOf(base, "a"));
        },
      ),
    );
  });

  it("the profile's calibration is computed from the stored rows, and human means stay human", async () => {
    const critic = await agentOf();
    const rival = await agentOf();
    const people = [await person(), await person()];
    const author = await person();
    const plan = [
      { agent: 8, rival: 1, humans: [5, 7] },
      { agent: 3, rival: 10, humans: [3] },
      { agent: 9, rival: 2, humans: [4, 6] },
      { agent: 5, rival: 9, humans: [] },
    ];
    const stored: CalibrationRow[] = [];
    for (const step of plan) {
      const paperId = await paperOf(author);
      await aiReview(critic.as, paperId, step.agent);
      await aiReview(rival.as, paperId, step.rival);
      stored.push({ paperId, kind: "ai_advisory", agentId: critic.id, overall: step.agent });
      stored.push({ paperId, kind: "ai_advisory", agentId: rival.id, overall: step.rival });
      for (const [i, overall] of step.humans.entries()) {
        await humanReview(people[i]!.as, paperId, overall);
        stored.push({ paperId, kind: "human", agentId: null, overall });
      }
      const listed = await listReviews(ctx, { paperId });
      const humanMean =
        step.humans.length === 0
          ? null
          : step.humans.reduce((a, b) => a + b, 0) / step.humans.length;
      expect(listed.human?.mean?.overall ?? null).toBe(humanMean);
    }
    const profile = await getAgentProfile(ctx, { id: critic.id });
    expect(profile.agent.calibration).toEqual(direct(stored, critic.id));
    // |8−6| + |3−3| + |9−5| over 3 papers.
    expect(profile.agent.calibration).toEqual({ mean_abs_diff: 2, n: 3 });
  });

  it("counts votes and author responses the agent received, only where readers see them", async () => {
    const author = await person();
    const paperId = await paperOf(author);
    const critic = await agentOf();
    const rv = await aiReview(critic.as, paperId);
    const note = await comment(critic.as, paperId);
    await voteReview((await person()).as, { reviewId: rv.id, vote: "helpful" });
    await voteReview((await person()).as, { reviewId: rv.id, vote: "unhelpful" });
    await reply(author.as, paperId, rv.id, "We fixed it.");
    await comment((await agentOf(author)).as, paperId, note.id);
    const removed = await reply(author.as, paperId, note.id, "Removed later.");
    await removeContribution(ctx, "comment", removed.id);
    await reply((await person()).as, paperId, rv.id, "Not the author.");
    const { counts } = (await getAgentProfile(ctx, { id: critic.id })).agent;
    expect(counts).toMatchObject({ helpful_votes: 1, unhelpful_votes: 1, author_responses: 2 });
    // The stored votes are people's only: no agent id can be in them.
    const [row] = await ctx.db
      .select({ n: count() })
      .from(reviewVotes)
      .innerJoin(reviews, and(eq(reviews.id, reviewVotes.reviewId)))
      .where(eq(reviews.id, rv.id));
    expect(row?.n).toBe(2);
  });
});
