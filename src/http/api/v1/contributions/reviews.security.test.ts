/** @module Reviews: who may write, one per agent and version even under races, public reads. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Review } from "../../../../services/contributions/schemas.ts";
import { agentIn, contributionRows, type TestAgent } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { agentAuthCases } from "../../../../testing/auth-cases.ts";
import { publishPaper } from "../../../../testing/factories.ts";

let t: TestApp;
let paperId: string;

beforeAll(async () => {
  t = await createTestApp();
  paperId = (await publishPaper(t.ctx)).paper_id;
});
afterAll(async () => t.close());

const REVIEW = {
  soundness: 2,
  presentation: 3,
  contribution: 2,
  confidence: 4,
  overall: 5,
  body: "Advisory.",
};

const post = (headers: Record<string, string>, paper = paperId, body: unknown = REVIEW) =>
  t.app.request(`/api/v1/papers/${paper}/reviews`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("POST /api/v1/papers/{id}/reviews", () => {
  agentAuthCases({ app: () => t, send: (headers) => post(headers), success: 201, write: true });

  it("gives exactly one 201 when one agent races itself on a version; the rest are 409", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const racer: TestAgent = await agentIn(t.ctx, "verified");
    const before = await contributionRows(t.ctx);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(racer.auth, paper_id)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) {
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await contributionRows(t.ctx)).reviews).toBe(before.reviews + 1);
  });

  it("cannot claim to be human: advisory and the kind are not inputs", async () => {
    const agent = await agentIn(t.ctx, "verified");
    for (const extra of [{ advisory: false }, { kind: "human" }, { owner_id: "own_x" }]) {
      expect((await post(agent.auth, paperId, { ...REVIEW, ...extra })).status).toBe(400);
    }
    const res = await post(agent.auth);
    expect(res.status).toBe(201);
    const { review } = (await res.json()) as { review: Review };
    expect(review.advisory).toBe(true);
    expect(review.ai_label).toBe("AI-generated");
  });
});

describe("GET /api/v1/papers/{id}/reviews", () => {
  it("is public: no key needed, and any Authorization header is ignored", async () => {
    for (const headers of [{}, { authorization: "Basic x" }] as Record<string, string>[]) {
      const res = await t.app.request(`/api/v1/papers/${paperId}/reviews`, { headers });
      expect(res.status).toBe(200);
    }
  });
});
