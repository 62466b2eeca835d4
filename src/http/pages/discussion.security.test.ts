/** @module Who may reply and vote on the site: never on one's own agent's review, never unconfirmed, never without the CSRF token, never past the votes quota. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUCKETS, createMemoryRateLimits } from "../../services/ratelimit/index.ts";
import { agentIn, type TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { makeAgent } from "../../testing/factories.ts";
import { csrfTokenIn, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, postAiReview, publish, signedInOwner } from "./reading.test-helpers.ts";

let test: TestApp;
let critic: TestAgent;
const SCORES = { soundness: 3, presentation: 3, contribution: 3, confidence: 3, overall: 6 };

beforeAll(async () => {
  test = await createTestApp();
  critic = await agentIn(test.ctx, "verified", "Critic Bot");
});
afterAll(async () => test.close());

async function reviewIdOn(paper: string): Promise<string> {
  const res = await test.app.request(`/api/v1/papers/${paper}/reviews?kind=ai_advisory`);
  const body = (await res.json()) as { ai_advisory: { reviews: { id: string }[] } };
  return body.ai_advisory.reviews.at(-1)?.id as string;
}

async function votes(reviewId: string, paper: string) {
  const res = await test.app.request(`/api/v1/papers/${paper}/reviews?kind=ai_advisory`);
  const body = (await res.json()) as {
    ai_advisory: { reviews: { id: string; helpful_count: number; unhelpful_count: number }[] };
  };
  const r = body.ai_advisory.reviews.find((x) => x.id === reviewId);
  return [r?.helpful_count, r?.unhelpful_count];
}

describe("votes and replies on the site", () => {
  it("the owner of a review's agent gets no vote buttons, and a forged vote is a 403 in their language", async () => {
    const owner = await signedInOwner(test, { lang: "es" });
    const mine = await makeAgent(test.ctx, owner.handle, "Mine");
    const paper = await publish(test);
    const res = await test.app.request(`/api/v1/papers/${paper}/reviews`, {
      method: "POST",
      headers: { authorization: `Bearer ${mine.key}`, "content-type": "application/json" },
      body: JSON.stringify({ ...SCORES, body: "My agent's review." }),
    });
    expect(res.status).toBe(201);
    const reviewId = await reviewIdOn(paper);
    const page = await owner.client.get(`/es/papers/${paper}`);
    const action = `/es/papers/${paper}/reviews/${reviewId}/vote`;
    expect(page.html).not.toContain(`action="${action}"`);
    const forged = await owner.client.post(action, {
      _csrf: csrfTokenIn(page.html, `/es/papers/${paper}/replies`),
      vote: "helpful",
    });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain(escaped(es.discussion.voteOwn));
    expect(await votes(reviewId, paper)).toEqual([0, 0]);
  });

  it("an unconfirmed person sees no forms and is refused; no CSRF token is a 403; nothing changes", async () => {
    const paper = await publish(test);
    await postAiReview(test, critic, paper, SCORES, "Review.");
    const reviewId = await reviewIdOn(paper);
    const unconfirmed = await signedInOwner(test, { verified: false });
    const page = await unconfirmed.client.get(`/papers/${paper}`);
    expect(page.html).not.toContain('class="reply-form"');
    expect(page.html).not.toContain('class="vote-form"');
    const action = `/papers/${paper}/reviews/${reviewId}/vote`;
    const refused = await unconfirmed.client.post(action, {
      _csrf: csrfTokenIn(page.html, "/verify-email/resend"),
      vote: "helpful",
    });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(escaped(en.discussion.voteUnverified));
    const reply = await unconfirmed.client.post(`/papers/${paper}/replies`, {
      _csrf: csrfTokenIn(page.html, "/verify-email/resend"),
      in_reply_to: reviewId,
      body: "Unconfirmed.",
    });
    expect(reply.status).toBe(403);
    const reader = await signedInOwner(test);
    const noToken = await reader.client.post(action, { vote: "helpful" });
    expect(noToken.status).toBe(403);
    expect(await votes(reviewId, paper)).toEqual([0, 0]);
    const comments = (await (
      await test.app.request(`/api/v1/papers/${paper}/comments`)
    ).json()) as {
      comments: unknown[];
    };
    expect(comments.comments).toEqual([]);
  });

  it("signed out, a vote or a reply leads to sign-in", async () => {
    const paper = await publish(test);
    await postAiReview(test, critic, paper, SCORES, "Review.");
    const reviewId = await reviewIdOn(paper);
    const anon = new PageClient(test);
    const page = await anon.get(`/papers/${paper}`);
    expect(page.html).not.toContain('class="vote-form"');
    const token = csrfTokenIn((await anon.get("/sign-in")).html, "/sign-in");
    const res = await anon.post(`/papers/${paper}/reviews/${reviewId}/vote`, {
      _csrf: token,
      vote: "helpful",
    });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/sign-in\?notice=sign-in-needed/);
  });
});

describe("the votes quota", () => {
  it("a person's 61st vote in an hour is a 429 in their language, with Retry-After, and changes nothing", async () => {
    // The contract's limits, except the per-address form bucket (60 a minute), which 61 posts
    // in a row would meet first: the votes quota is per person, whatever the address.
    const limited = await createTestApp({
      services: {
        rateLimits: createMemoryRateLimits({
          overrides: { forms: { points: 1000, windowSeconds: 60 } },
        }),
      },
    });
    try {
      const author = await agentIn(limited.ctx, "verified", "Quota Critic");
      const paper = await publish(limited);
      await postAiReview(limited, author, paper, SCORES, "Review to vote on.");
      const res = await limited.app.request(`/api/v1/papers/${paper}/reviews?kind=ai_advisory`);
      const reviewId = ((await res.json()) as { ai_advisory: { reviews: { id: string }[] } })
        .ai_advisory.reviews[0]?.id as string;
      const voter = await signedInOwner(limited, { lang: "es" });
      const action = `/es/papers/${paper}/reviews/${reviewId}/vote`;
      const token = csrfTokenIn((await voter.client.get(`/es/papers/${paper}`)).html, action);
      // Changing one's vote counts as a vote: 60 changes, alternating.
      for (let i = 0; i < BUCKETS.votes.points; i++) {
        const vote = await voter.client.post(action, {
          _csrf: token,
          vote: i % 2 === 0 ? "helpful" : "unhelpful",
        });
        expect(vote.status, `vote ${i + 1}`).toBe(303);
      }
      const refused = await voter.client.post(action, { _csrf: token, vote: "helpful" });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.html).toContain(
        "Demasiadas peticiones (votos de esta persona): el límite es 60 por hora.",
      );
      // The 60th vote (unhelpful) stands.
      const counts = (await (
        await limited.app.request(`/api/v1/papers/${paper}/reviews?kind=ai_advisory`)
      ).json()) as {
        ai_advisory: { reviews: { helpful_count: number; unhelpful_count: number }[] };
      };
      expect(counts.ai_advisory.reviews[0]).toMatchObject({ helpful_count: 0, unhelpful_count: 1 });
      // Another person is not limited by it.
      const other = await signedInOwner(limited);
      const page = await other.client.get(`/papers/${paper}`);
      const otherAction = `/papers/${paper}/reviews/${reviewId}/vote`;
      const ok = await other.client.post(otherAction, {
        _csrf: csrfTokenIn(page.html, otherAction),
        vote: "helpful",
      });
      expect(ok.status).toBe(303);
    } finally {
      await limited.close();
    }
  });
});
