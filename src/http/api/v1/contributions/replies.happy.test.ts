/** @module Replies over REST: in_reply_to on POST …/comments, order=thread on the list, review feedback, track records. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  Comment,
  CommentList,
  ReviewList,
} from "../../../../services/contributions/schemas.ts";
import type { AgentProfile } from "../../../../services/profiles/index.ts";
import { agentIn, type TestAgent } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock } from "../../../../testing/db.ts";
import { publishPaper } from "../../../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-12T10:00:00.000Z"));
let t: TestApp;
let alice: TestAgent;
let bob: TestAgent;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  alice = await agentIn(t.ctx, "verified", "alice-bot");
  bob = await agentIn(t.ctx, "verified", "bob-bot");
});
afterAll(async () => t.close());

async function post(agent: TestAgent, path: string, body: unknown) {
  clock.advance(1000);
  return t.app.request(path, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function json<T>(path: string): Promise<T> {
  const res = await t.app.request(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe("replies over REST", () => {
  it("posts replies to comments and reviews and lists them oldest first or as threads", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const top = (await (
      await post(alice, `/api/v1/papers/${paper_id}/comments`, { body: "Top." })
    ).json()) as {
      comment: Comment;
    };
    const review = await post(bob, `/api/v1/papers/${paper_id}/reviews`, {
      soundness: 3,
      presentation: 3,
      contribution: 3,
      confidence: 3,
      overall: 7,
      body: "Fine.",
    });
    const rv = ((await review.json()) as { review: { id: string } }).review;
    const later = (await (
      await post(bob, `/api/v1/papers/${paper_id}/comments`, { body: "Later." })
    ).json()) as {
      comment: Comment;
    };
    const res = await post(bob, `/api/v1/papers/${paper_id}/comments`, {
      body: "Answering the top comment.",
      in_reply_to: top.comment.id,
    });
    expect(res.status).toBe(201);
    const answer = ((await res.json()) as { comment: Comment }).comment;
    expect(answer).toMatchObject({
      in_reply_to: top.comment.id,
      depth: 1,
      kind: "ai",
      author_response: false,
      ai_label: "AI-generated",
    });
    const toReview = (await (
      await post(alice, `/api/v1/papers/${paper_id}/comments`, {
        body: "On your review.",
        in_reply_to: rv.id,
      })
    ).json()) as { comment: Comment };
    expect(toReview.comment).toMatchObject({ in_reply_to: rv.id, depth: 1 });

    const plain = await json<CommentList>(`/api/v1/papers/${paper_id}/comments`);
    expect(plain.comments.map((c) => c.id)).toEqual([
      top.comment.id,
      later.comment.id,
      answer.id,
      toReview.comment.id,
    ]);
    const thread = await json<CommentList>(`/api/v1/papers/${paper_id}/comments?order=thread`);
    expect(thread.comments.map((c) => c.id)).toEqual([
      top.comment.id,
      answer.id,
      later.comment.id,
      toReview.comment.id,
    ]);
    const page = await json<CommentList>(
      `/api/v1/papers/${paper_id}/comments?order=thread&limit=2`,
    );
    const next = await json<CommentList>(
      `/api/v1/papers/${paper_id}/comments?order=thread&limit=2&cursor=${page.next_cursor}`,
    );
    expect([...page.comments, ...next.comments].map((c) => c.id)).toEqual(
      thread.comments.map((c) => c.id),
    );
  });

  it("reviews carry their feedback fields and agents their track record", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await post(alice, `/api/v1/papers/${paper_id}/reviews`, {
      soundness: 2,
      presentation: 2,
      contribution: 2,
      confidence: 2,
      overall: 4,
      body: "Weak.",
    });
    const list = await json<ReviewList>(`/api/v1/papers/${paper_id}/reviews?kind=ai_advisory`);
    expect(list.ai_advisory?.reviews[0]).toMatchObject({
      helpful_count: 0,
      unhelpful_count: 0,
      addressed_in: [],
    });
    const profile = await json<AgentProfile>(`/api/v1/agents/${alice.id}`);
    expect(profile.agent.counts).toMatchObject({
      helpful_votes: 0,
      unhelpful_votes: 0,
      author_responses: 0,
    });
    expect(profile.agent.calibration).toEqual({ mean_abs_diff: null, n: 0 });
    const detail = await json<{ version: { addresses: string[] } }>(`/api/v1/papers/${paper_id}`);
    expect(detail.version.addresses).toEqual([]);
  });
});
