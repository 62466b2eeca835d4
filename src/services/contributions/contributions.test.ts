/** @module Comment and review services: rules the front ends rely on, and the means invariant. */
import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { comments, papers, reviews } from "../../db/schema/index.ts";
import { removeContribution } from "../../testing/agents.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import { makeAgent, makeOwner, publishPaper } from "../../testing/factories.ts";
import { authenticateAgent } from "../bearer/index.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, RateLimited, Unauthorized } from "../errors.ts";
import { newId } from "../ids.ts";
import { getPaper } from "../papers/index.ts";
import { createMemoryRateLimits } from "../ratelimit/index.ts";
import { createComment } from "./create-comment.ts";
import { createHumanReview } from "./create-human-review.ts";
import { createReview } from "./create-review.ts";
import { listComments } from "./list-comments.ts";
import { listReviews } from "./list-reviews.ts";

let database: Database;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database);
});
afterAll(async () => database.close());

async function agentCaller(opts: { verified?: boolean } = {}): Promise<ServiceContext> {
  const owner = await makeOwner(ctx, { verified: opts.verified ?? true });
  const agent = await makeAgent(ctx, owner.handle);
  const auth = await authenticateAgent(ctx, { authorization: `Bearer ${agent.key}` });
  return { ...ctx, caller: auth.caller };
}

async function ownerCaller(opts: { verified?: boolean } = {}): Promise<ServiceContext> {
  const owner = await makeOwner(ctx, { verified: opts.verified ?? true });
  return {
    ...ctx,
    caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
  };
}

const SCORES = { soundness: 2, presentation: 3, contribution: 4, confidence: 5, overall: 6 };

describe("the means invariant", () => {
  const scores = fc.record({
    soundness: fc.integer({ min: 1, max: 4 }),
    presentation: fc.integer({ min: 1, max: 4 }),
    contribution: fc.integer({ min: 1, max: 4 }),
    confidence: fc.integer({ min: 1, max: 5 }),
    overall: fc.integer({ min: 1, max: 10 }),
  });
  type Scores = typeof SCORES;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const meanOf = (list: Scores[]) =>
    list.length === 0
      ? { count: 0, mean: null }
      : {
          count: list.length,
          mean: Object.fromEntries(
            (Object.keys(SCORES) as (keyof Scores)[]).map((k) => [
              k,
              round2(list.reduce((sum, s) => sum + s[k], 0) / list.length),
            ]),
          ),
        };

  it("AI scores never reach the human means, whatever the mix (and whatever an agent tries)", async () => {
    const agents = await Promise.all(Array.from({ length: 6 }, () => agentCaller()));
    const humans = await Promise.all(Array.from({ length: 6 }, () => ownerCaller()));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ by: fc.constantFrom("human", "ai", "ai-as-human", "ai-claims"), scores }),
          { maxLength: 10 },
        ),
        async (mix) => {
          const { paper_id } = await publishPaper(ctx);
          const human: Scores[] = [];
          const ai: Scores[] = [];
          let a = 0;
          let h = 0;
          for (const { by, scores: s } of mix) {
            const review = { ...s, body: `${by} review` };
            if (by === "human" && h < humans.length) {
              await createHumanReview(humans[h++] as ServiceContext, { paperId: paper_id, review });
              human.push(s);
            } else if (by === "ai" && a < agents.length) {
              await createReview(agents[a++] as ServiceContext, { paperId: paper_id, review });
              ai.push(s);
            } else if (by === "ai-as-human") {
              // An agent calling the human verb is refused outright.
              await expect(
                createHumanReview(agents[0] as ServiceContext, { paperId: paper_id, review }),
              ).rejects.toBeInstanceOf(Unauthorized);
            } else if (by === "ai-claims") {
              // Claiming to be human in the body is an unknown field, not a human review.
              await expect(
                createReview(agents[0] as ServiceContext, {
                  paperId: paper_id,
                  review: { ...review, advisory: false, kind: "human" },
                }),
              ).rejects.toBeInstanceOf(Invalid);
            }
          }
          const detail = await getPaper(ctx, { id: paper_id });
          expect(detail.paper.reviews.human).toEqual(meanOf(human));
          expect(detail.paper.reviews.ai_advisory).toEqual(meanOf(ai));
          expect(detail.paper.counts).toMatchObject({
            human_reviews: human.length,
            ai_reviews: ai.length,
          });
          const listed = await listReviews(ctx, { paperId: paper_id, limit: 100 });
          expect(listed.human).toMatchObject(meanOf(human));
          expect(listed.ai_advisory).toMatchObject(meanOf(ai));
          expect(listed.human?.reviews.every((r) => r.advisory === false)).toBe(true);
          expect(listed.ai_advisory?.reviews.every((r) => r.advisory === true)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("the database itself refuses a human review with an agent author", async () => {
    const agent = await agentCaller();
    const { paper_id } = await publishPaper(ctx);
    const agentId = (agent.caller as { agentId: string }).agentId;
    await expect(
      database.db.insert(reviews).values({
        id: newId("rev"),
        paperId: paper_id,
        paperVersion: 1,
        kind: "human",
        agentId,
        ...SCORES,
        body: "forged",
        createdAt: new Date(),
      }),
    ).rejects.toThrow();
    expect((await getPaper(ctx, { id: paper_id })).paper.reviews.human.count).toBe(0);
  });
});

describe("createHumanReview", () => {
  it("needs a signed-in, verified owner who did not submit the paper, once per version", async () => {
    const { paper_id } = await publishPaper(ctx);
    const review = { ...SCORES, body: "Careful work." };
    for (const caller of [{ kind: "anonymous" }, operator] as Caller[]) {
      await expect(
        createHumanReview({ ...ctx, caller }, { paperId: paper_id, review }),
      ).rejects.toBeInstanceOf(Unauthorized);
    }
    await expect(
      createHumanReview(await ownerCaller({ verified: false }), { paperId: paper_id, review }),
    ).rejects.toBeInstanceOf(Forbidden);

    const author = await ownerCaller();
    const own = await publishPaper(ctx, {
      ownerId: (author.caller as { ownerId: string }).ownerId,
    });
    await expect(createHumanReview(author, { paperId: own.paper_id, review })).rejects.toThrow(
      /You submitted this paper/,
    );

    const reviewer = await ownerCaller();
    const { body } = await createHumanReview(reviewer, { paperId: paper_id, review });
    expect(body.review).toMatchObject({
      advisory: false,
      paper_version: 1,
      scores: SCORES,
      author: { owner_handle: (reviewer.caller as { handle: string }).handle },
    });
    expect(body.review).not.toHaveProperty("ai_label");
    await expect(
      createHumanReview(reviewer, { paperId: `${paper_id}v1`, review }),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it("lists every invalid field, as the agents' form does", async () => {
    const reviewer = await ownerCaller();
    const { paper_id } = await publishPaper(ctx);
    try {
      await createHumanReview(reviewer, {
        paperId: paper_id,
        review: { soundness: 9, body: " " },
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual(
        ["body", "confidence", "contribution", "overall", "presentation", "soundness"].sort(),
      );
    }
  });

  it("draws on the review limit per owner: the 31st in an hour is refused and stores nothing", async () => {
    const limited = { ...(await ownerCaller()), rateLimits: createMemoryRateLimits() };
    const targets = [];
    for (let i = 0; i < 31; i++) targets.push((await publishPaper(ctx)).paper_id);
    for (const id of targets.slice(0, 30)) {
      await createHumanReview(limited, { paperId: id, review: { ...SCORES, body: "ok" } });
    }
    const [before] = await database.db.select({ n: count() }).from(reviews);
    await expect(
      createHumanReview(limited, {
        paperId: targets[30] as string,
        review: { ...SCORES, body: "x" },
      }),
    ).rejects.toBeInstanceOf(RateLimited);
    const [after] = await database.db.select({ n: count() }).from(reviews);
    expect(after?.n).toBe(before?.n);
  });
});

describe("services check their own input and caller (for every front end)", () => {
  it("createComment: agents only, verified only, every invalid field listed", async () => {
    const { paper_id } = await publishPaper(ctx);
    await expect(
      createComment({ ...ctx, caller: { kind: "anonymous" } }, { paperId: paper_id, body: "x" }),
    ).rejects.toBeInstanceOf(Unauthorized);
    await expect(
      createComment(await agentCaller({ verified: false }), { paperId: paper_id, body: "x" }),
    ).rejects.toBeInstanceOf(Forbidden);
    const agent = await agentCaller();
    await expect(createComment(agent, { paperId: paper_id, body: "" })).rejects.toBeInstanceOf(
      Invalid,
    );
    await expect(
      createComment(agent, { paperId: paper_id, body: "ok", idempotencyKey: "" }),
    ).rejects.toBeInstanceOf(Invalid);
  });

  it("a per-agent limit is drawn only by requests that would write", async () => {
    const agent = { ...(await agentCaller()), rateLimits: createMemoryRateLimits() };
    const { paper_id } = await publishPaper(ctx);
    for (let i = 0; i < 100; i++) {
      await expect(createComment(agent, { paperId: "2611.99999", body: "x" })).rejects.toThrow();
      await expect(createComment(agent, { paperId: paper_id, body: "" })).rejects.toThrow();
    }
    for (let i = 0; i < 60; i++) await createComment(agent, { paperId: paper_id, body: `c${i}` });
    await expect(createComment(agent, { paperId: paper_id, body: "61" })).rejects.toBeInstanceOf(
      RateLimited,
    );
    const [row] = await database.db
      .select({ n: count() })
      .from(comments)
      .where(eq(comments.paperId, paper_id));
    expect(row?.n).toBe(60);
  });
});

describe("counters on the paper", () => {
  async function counters(paperId: string) {
    const [row] = await database.db
      .select({
        comments: papers.commentCount,
        ai: papers.aiReviewCount,
        human: papers.humanReviewCount,
      })
      .from(papers)
      .where(eq(papers.id, paperId));
    return row;
  }

  it("follow removal, reinstatement and deletion, whoever writes them", async () => {
    const { paper_id } = await publishPaper(ctx);
    const agent = await agentCaller();
    const c1 = (await createComment(agent, { paperId: paper_id, body: "one" })).body.comment;
    await createComment(agent, { paperId: paper_id, body: "two" });
    const r1 = (await createReview(agent, { paperId: paper_id, review: { ...SCORES, body: "r" } }))
      .body.review;
    const h1 = (
      await createHumanReview(await ownerCaller(), {
        paperId: paper_id,
        review: { ...SCORES, overall: 2, body: "h" },
      })
    ).body.review;
    expect(await counters(paper_id)).toEqual({ comments: 2, ai: 1, human: 1 });

    await removeContribution(ctx, "comment", c1.id);
    await removeContribution(ctx, "review", r1.id);
    await removeContribution(ctx, "review", h1.id);
    expect(await counters(paper_id)).toEqual({ comments: 1, ai: 0, human: 0 });
    const detail = await getPaper(ctx, { id: paper_id });
    expect(detail.paper.reviews).toEqual({
      human: { count: 0, mean: null },
      ai_advisory: { count: 0, mean: null },
    });
    expect((await listComments(ctx, { paperId: paper_id })).comments.map((c) => c.body)).toEqual([
      "two",
    ]);
    // Removing twice moves nothing; reinstating counts again.
    await removeContribution(ctx, "comment", c1.id);
    expect((await counters(paper_id))?.comments).toBe(1);
    await database.db.update(comments).set({ removedAt: null }).where(eq(comments.id, c1.id));
    expect((await counters(paper_id))?.comments).toBe(2);
    await database.db.delete(comments).where(eq(comments.id, c1.id));
    expect((await counters(paper_id))?.comments).toBe(1);
  });
});
