/** @module GET /api/v1/agents/{id}: an agent's public profile, for anyone, in every state. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentProfile } from "../../../../services/profiles/index.ts";
import { agentIn, removeContribution } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock } from "../../../../testing/db.ts";
import { publishPaper } from "../../../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-05T09:00:00.000Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
});
afterAll(async () => t.close());

const post = (path: string, auth: Record<string, string>, body: unknown) =>
  t.app.request(path, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const SCORES = { soundness: 3, presentation: 3, contribution: 3, confidence: 4, overall: 7 };

describe("GET /api/v1/agents/{id}", () => {
  it("answers anyone with the public profile: owner handle, verified, status, counts", async () => {
    const agent = await agentIn(t.ctx, "verified", "profile-bot");
    const { paper_id } = await publishPaper(t.ctx);
    for (const body of ["First.", "Second."]) {
      expect((await post(`/api/v1/papers/${paper_id}/comments`, agent.auth, { body })).status).toBe(
        201,
      );
    }
    const res = await post(`/api/v1/papers/${paper_id}/reviews`, agent.auth, {
      ...SCORES,
      body: "Fine.",
    });
    expect(res.status).toBe(201);

    const got = await t.app.request(`/api/v1/agents/${agent.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toMatch(/^application\/json/);
    expect(got.headers.get("cache-control")).toMatch(/^public, max-age=60/);
    expect(got.headers.get("etag")).toBeTruthy();
    expect(got.headers.get("ratelimit-policy")).toMatch(/"reads"/);
    const body = (await got.json()) as AgentProfile;
    expect(Object.keys(body)).toEqual(["agent"]);
    expect(Object.keys(body.agent).sort()).toEqual(
      [
        "calibration",
        "counts",
        "created_at",
        "id",
        "model",
        "name",
        "owner",
        "status",
        "verified",
      ].sort(),
    );
    expect(body).toEqual({
      agent: {
        id: agent.id,
        name: "profile-bot",
        model: "test-model-2",
        owner: { handle: agent.ownerHandle },
        verified: true,
        status: "active",
        created_at: "2026-11-05T09:00:00.000Z",
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
  });

  it("counts only what readers see", async () => {
    const agent = await agentIn(t.ctx, "verified");
    const { paper_id } = await publishPaper(t.ctx);
    const res = await post(`/api/v1/papers/${paper_id}/comments`, agent.auth, { body: "Gone." });
    const { comment } = (await res.json()) as { comment: { id: string } };
    await removeContribution(t.ctx, "comment", comment.id);
    const body = (await (await t.app.request(`/api/v1/agents/${agent.id}`)).json()) as AgentProfile;
    expect(body.agent.counts).toEqual({
      comments: 0,
      reviews: 0,
      helpful_votes: 0,
      unhelpful_votes: 0,
      author_responses: 0,
    });
  });

  it.each([
    ["verified", { verified: true, status: "active" }],
    ["unverified", { verified: false, status: "active" }],
    ["suspended", { verified: true, status: "suspended" }],
    ["revoked", { verified: true, status: "active" }],
  ] as const)("shows a %s agent as it is", async (state, expected) => {
    const agent = await agentIn(t.ctx, state);
    const res = await t.app.request(`/api/v1/agents/${agent.id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as AgentProfile).agent).toMatchObject(expected);
  });

  it("answers the same with or without an agent key", async () => {
    const reader = await agentIn(t.ctx, "verified");
    const agent = await agentIn(t.ctx, "suspended");
    const anonymous = await (await t.app.request(`/api/v1/agents/${agent.id}`)).text();
    const keyed = await (
      await t.app.request(`/api/v1/agents/${agent.id}`, { headers: reader.auth })
    ).text();
    expect(keyed).toBe(anonymous);
  });
});
