/** @module POST and GET /api/v1/papers/{id}/reviews: advisory reviews, kept apart from human ones. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../../../services/context.ts";
import { createHumanReview } from "../../../../services/contributions/create-human-review.ts";
import type { Review, ReviewList } from "../../../../services/contributions/schemas.ts";
import { publishVersion } from "../../../../services/papers/publish.ts";
import type { PaperDetail } from "../../../../services/papers/schemas.ts";
import { agentIn, type TestAgent } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock, operator } from "../../../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-12T10:00:00.000Z"));
let t: TestApp;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  agent = await agentIn(t.ctx, "verified", "reviewer");
});
afterAll(async () => t.close());

const SCORES = { soundness: 3, presentation: 2, contribution: 4, confidence: 5, overall: 7 };

function postReview(paper: string, body: unknown, who: TestAgent = agent, extra = {}) {
  return t.app.request(`/api/v1/papers/${paper}/reviews`, {
    method: "POST",
    headers: { ...who.auth, "content-type": "application/json", ...extra },
    body: JSON.stringify(body),
  });
}

async function json<T>(path: string): Promise<T> {
  const res = await t.app.request(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

async function humanReviewer(): Promise<ServiceContext> {
  const owner = await makeOwner(t.ctx);
  return {
    ...t.ctx,
    caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
  };
}

describe("POST /api/v1/papers/{id}/reviews", () => {
  it("answers 201 with exactly the advisory review of docs/contract/DECISIONS.md", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    clock.advance(1000);
    const res = await postReview(paper_id, { ...SCORES, body: "  Sound, if narrow.  " });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { review: Review };
    expect(Object.keys(body)).toEqual(["review"]);
    expect(Object.keys(body.review).sort()).toEqual(
      [
        "addressed_in",
        "advisory",
        "ai_label",
        "author",
        "body",
        "created_at",
        "helpful_count",
        "id",
        "paper_id",
        "paper_version",
        "scores",
        "unhelpful_count",
      ].sort(),
    );
    expect(body.review).toEqual({
      id: expect.stringMatching(/^rev_[0-9A-Za-z]{22}$/),
      paper_id,
      paper_version: 1,
      advisory: true,
      scores: SCORES,
      body: "Sound, if narrow.",
      created_at: clock.now().toISOString(),
      author: {
        agent_id: agent.id,
        name: "reviewer",
        model: "test-model-2",
        owner_handle: agent.ownerHandle,
      },
      ai_label: "AI-generated",
      helpful_count: 0,
      unhelpful_count: 0,
      addressed_in: [],
    });
  });

  it("takes the extreme scores and a body of 20000 code points", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const low = { soundness: 1, presentation: 1, contribution: 1, confidence: 1, overall: 1 };
    const high = { soundness: 4, presentation: 4, contribution: 4, confidence: 5, overall: 10 };
    const other = await agentIn(t.ctx, "verified");
    expect((await postReview(paper_id, { ...low, body: "😀".repeat(20_000) })).status).toBe(201);
    expect((await postReview(paper_id, { ...high, body: "x" }, other)).status).toBe(201);
  });

  it("allows one review per agent per version: v1 and v2 are separate", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await publishVersion({ ...t.ctx, caller: operator }, paperInput({ paperId: paper_id }));
    const v2 = (await (await postReview(paper_id, { ...SCORES, body: "v2" })).json()) as {
      review: Review;
    };
    expect(v2.review.paper_version).toBe(2);
    const v1 = await postReview(`${paper_id}v1`, { ...SCORES, body: "v1" });
    expect(v1.status).toBe(201);
    expect(((await v1.json()) as { review: Review }).review.paper_version).toBe(1);
    const list = await json<ReviewList>(`/api/v1/papers/${paper_id}/reviews`);
    expect(list.ai_advisory?.count).toBe(2);
    const onlyV1 = await json<ReviewList>(`/api/v1/papers/${paper_id}v1/reviews`);
    expect(onlyV1.ai_advisory?.reviews.map((r) => r.body)).toEqual(["v1"]);
    expect(onlyV1.ai_advisory?.count).toBe(1);
  });

  it("replays an Idempotency-Key retry instead of answering 409", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const key = { "idempotency-key": "review-retry" };
    const first = await postReview(paper_id, { ...SCORES, body: "Once." }, agent, key);
    const again = await postReview(paper_id, { ...SCORES, body: "Once." }, agent, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
  });
});

describe("AI and human reviews stay apart", () => {
  it("AI reviews move only the AI count and means; human reviews only the human ones", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const bots = await Promise.all([agentIn(t.ctx, "verified"), agentIn(t.ctx, "verified")]);
    await postReview(paper_id, { ...SCORES, overall: 10, body: "great" }, bots[0]);
    await postReview(paper_id, { ...SCORES, overall: 9, body: "good" }, bots[1]);
    await createHumanReview(await humanReviewer(), {
      paperId: paper_id,
      review: {
        soundness: 1,
        presentation: 1,
        contribution: 1,
        confidence: 2,
        overall: 2,
        body: "weak",
      },
    });

    const detail = await json<PaperDetail>(`/api/v1/papers/${paper_id}`);
    expect(detail.paper.counts).toMatchObject({ ai_reviews: 2, human_reviews: 1 });
    expect(detail.paper.reviews).toEqual({
      human: {
        count: 1,
        mean: { soundness: 1, presentation: 1, contribution: 1, confidence: 2, overall: 2 },
      },
      ai_advisory: {
        count: 2,
        mean: { soundness: 3, presentation: 2, contribution: 4, confidence: 5, overall: 9.5 },
      },
    });

    const list = await json<ReviewList>(`/api/v1/papers/${paper_id}/reviews`);
    expect(Object.keys(list).sort()).toEqual(["ai_advisory", "human"]);
    expect(list.human).toMatchObject({ count: 1, mean: detail.paper.reviews.human.mean });
    expect(list.ai_advisory).toMatchObject({
      count: 2,
      mean: detail.paper.reviews.ai_advisory.mean,
    });
    for (const r of list.ai_advisory?.reviews ?? []) {
      expect(r.advisory).toBe(true);
      expect(r.ai_label).toBe("AI-generated");
    }
    const human = list.human?.reviews[0];
    expect(human).toMatchObject({ advisory: false, body: "weak", paper_version: 1 });
    expect(human).not.toHaveProperty("ai_label");
    expect(Object.keys(human?.author ?? {})).toEqual(["owner_handle"]);
  });

  it("pages each list by its own cursor, and kind selects one list", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const bots = await Promise.all(Array.from({ length: 3 }, () => agentIn(t.ctx, "verified")));
    for (const bot of bots) {
      clock.advance(1000);
      expect((await postReview(paper_id, { ...SCORES, body: bot.id }, bot)).status).toBe(201);
    }
    for (let i = 0; i < 2; i++) {
      clock.advance(1000);
      await createHumanReview(await humanReviewer(), {
        paperId: paper_id,
        review: { ...SCORES, body: `human ${i}` },
      });
    }
    const first = await json<ReviewList>(`/api/v1/papers/${paper_id}/reviews?limit=2`);
    expect(first.ai_advisory?.reviews.map((r) => r.body)).toEqual([bots[0]?.id, bots[1]?.id]);
    expect(first.human?.reviews.map((r) => r.body)).toEqual(["human 0", "human 1"]);
    expect(first.human?.next_cursor).toBeNull();
    const cursor = first.ai_advisory?.next_cursor as string;
    expect(cursor).toBeTruthy();
    const next = await json<ReviewList>(
      `/api/v1/papers/${paper_id}/reviews?limit=2&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(Object.keys(next)).toEqual(["ai_advisory"]);
    expect(next.ai_advisory?.reviews.map((r) => r.body)).toEqual([bots[2]?.id]);
    expect(next.ai_advisory?.next_cursor).toBeNull();
    expect(next.ai_advisory?.count).toBe(3);

    const onlyHuman = await json<ReviewList>(`/api/v1/papers/${paper_id}/reviews?kind=human`);
    expect(Object.keys(onlyHuman)).toEqual(["human"]);
    expect(onlyHuman.human?.count).toBe(2);
  });

  it("lists an unreviewed paper as two empty lists with null means", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    expect(await json<ReviewList>(`/api/v1/papers/${paper_id}/reviews`)).toEqual({
      human: { count: 0, mean: null, reviews: [], next_cursor: null },
      ai_advisory: { count: 0, mean: null, reviews: [], next_cursor: null },
    });
  });
});
