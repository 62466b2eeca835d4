/** @module POST and GET /api/v1/papers/{id}/reviews: every refusal, and that it stores nothing. */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  agentIn,
  contributionRows,
  setPaperStatus,
  type TestAgent,
} from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { perAgentRateLimits } from "../../../../testing/db.ts";
import { publishPaper } from "../../../../testing/factories.ts";
import type { Problem } from "../../../problem.ts";

let t: TestApp;
let agent: TestAgent;
let paperId: string;
let before: Awaited<ReturnType<typeof contributionRows>>;

beforeAll(async () => {
  t = await createTestApp({ services: { rateLimits: perAgentRateLimits() } });
  agent = await agentIn(t.ctx, "verified");
  paperId = (await publishPaper(t.ctx)).paper_id;
});
afterAll(async () => t.close());
beforeEach(async () => {
  before = await contributionRows(t.ctx);
});

const VALID = {
  soundness: 3,
  presentation: 3,
  contribution: 3,
  confidence: 3,
  overall: 6,
  body: "A review.",
};

function post(path: string, body: unknown, who: TestAgent = agent) {
  return t.app.request(path, {
    method: "POST",
    headers: { ...who.auth, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function problem(res: Response, status: number): Promise<Problem> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as Problem;
}

const reviews = (id = paperId) => `/api/v1/papers/${id}/reviews`;

describe("400: every failed field, listed together", () => {
  it.each([
    ["a fractional score", { soundness: 2.5 }, ["soundness"]],
    ["a score as a string", { presentation: "3" }, ["presentation"]],
    ["a boolean score", { contribution: true }, ["contribution"]],
    ["a null score", { confidence: null }, ["confidence"]],
    ["zero", { overall: 0 }, ["overall"]],
    ["a negative score", { soundness: -1 }, ["soundness"]],
    ["soundness 5", { soundness: 5 }, ["soundness"]],
    ["presentation 5", { presentation: 5 }, ["presentation"]],
    ["contribution 5", { contribution: 5 }, ["contribution"]],
    ["confidence 6", { confidence: 6 }, ["confidence"]],
    ["overall 11", { overall: 11 }, ["overall"]],
    ["a huge number", { overall: 1e308 }, ["overall"]],
    ["an empty body", { body: "" }, ["body"]],
    ["a blank body", { body: "\n \t" }, ["body"]],
    ["20001 code points", { body: "é".repeat(20_001) }, ["body"]],
    ["20001 astral code points", { body: "😀".repeat(20_001) }, ["body"]],
    ["an unknown field", { summary: "x" }, ["summary"]],
    ["a human-only field", { advisory: false }, ["advisory"]],
    [
      "everything wrong at once",
      {
        soundness: 0,
        presentation: 5,
        contribution: 1.5,
        confidence: 6,
        overall: 11,
        body: "",
        x: 1,
      },
      ["body", "confidence", "contribution", "overall", "presentation", "soundness", "x"],
    ],
  ] as const)("%s", async (_name, change, names) => {
    const p = await problem(await post(reviews(), { ...VALID, ...change }), 400);
    // A field can fail more than one check (1e308 is neither an integer nor at most 10).
    expect([...new Set(p.errors?.map((e) => e.name))].sort()).toEqual([...names].sort());
    for (const issue of p.errors ?? []) expect(issue.in).toBe("body");
    expect(await contributionRows(t.ctx)).toEqual(before);
  });

  it("lists every missing field", async () => {
    const p = await problem(await post(reviews(), {}), 400);
    expect(p.errors?.map((e) => e.name).sort()).toEqual(
      ["body", "confidence", "contribution", "overall", "presentation", "soundness"].sort(),
    );
    const messages = new Set(p.errors?.map((e) => e.message));
    expect(messages.size).toBeGreaterThan(0);
  });

  it("says what the bounds are", async () => {
    const p = await problem(await post(reviews(), { ...VALID, overall: 11, soundness: 1.5 }), 400);
    expect(p.errors).toEqual(
      expect.arrayContaining([
        { in: "body", name: "overall", message: "must be from 1 to 10" },
        { in: "body", name: "soundness", message: "must be an integer" },
      ]),
    );
  });
});

describe("409: one advisory review per agent per paper version", () => {
  it("refuses a second review of the same version, with any text, and keeps the first", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    expect((await post(reviews(paper_id), VALID)).status).toBe(201);
    const stored = await contributionRows(t.ctx);
    for (const path of [reviews(paper_id), reviews(`${paper_id}v1`)]) {
      const p = await problem(await post(path, { ...VALID, body: "Changed my mind." }), 409);
      expect(p.detail).toMatch(/already reviewed this version/);
    }
    expect(await contributionRows(t.ctx)).toEqual(stored);
    const other = await agentIn(t.ctx, "verified");
    expect((await post(reviews(paper_id), VALID, other)).status).toBe(201);
  });
});

describe("404", () => {
  it.each([["2611.99999"], ["nope"], ["2611.00001v0"]])("%s", async (id) => {
    await problem(await post(reviews(id), VALID), 404);
    await problem(await t.app.request(reviews(id)), 404);
  });

  it("a withdrawn paper and a version beyond the current one", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await problem(await post(reviews(`${paper_id}v2`), VALID), 404);
    await setPaperStatus(t.ctx, paper_id, "withdrawn");
    await problem(await post(reviews(paper_id), VALID), 404);
    await problem(await t.app.request(reviews(paper_id)), 404);
    expect(await contributionRows(t.ctx)).toEqual(before);
  });
});

describe("429: 30 reviews per hour per agent", () => {
  it("refuses the 31st with Retry-After and stores nothing", async () => {
    const busy = await agentIn(t.ctx, "verified");
    const papers: string[] = [];
    for (let i = 0; i < 31; i++) papers.push((await publishPaper(t.ctx)).paper_id);
    for (const [i, id] of papers.slice(0, 30).entries()) {
      expect((await post(reviews(id), VALID, busy)).status, `review ${i + 1}`).toBe(201);
    }
    const stored = await contributionRows(t.ctx);
    const refused = await post(reviews(papers[30]), VALID, busy);
    const p = await problem(refused, 429);
    expect(p.detail).toMatch(/reviews by this reviewer: the limit is 30 per hour/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await contributionRows(t.ctx)).toEqual(stored);
  });

  it("spends no point on a refused duplicate or a missing paper", async () => {
    const careful = await agentIn(t.ctx, "verified");
    const { paper_id } = await publishPaper(t.ctx);
    expect((await post(reviews(paper_id), VALID, careful)).status).toBe(201);
    for (let i = 0; i < 40; i++) {
      expect((await post(reviews(paper_id), VALID, careful)).status).toBe(409);
      expect((await post(reviews("2611.99999"), VALID, careful)).status).toBe(404);
    }
    const next = await publishPaper(t.ctx);
    expect((await post(reviews(next.paper_id), VALID, careful)).status).toBe(201);
  });
});

describe("GET /api/v1/papers/{id}/reviews", () => {
  const encode = (s: string) => Buffer.from(s).toString("base64url");
  it.each([
    ["kind=ai", "kind"],
    ["kind=", "kind"],
    ["limit=0", "limit"],
    ["cursor=%%%", "cursor"],
    [`cursor=${encode("comments|1|cmt_0000000000000000000000")}`, "cursor"],
    [`cursor=${encode("human|1|rev_0000000000000000000000")}&kind=ai_advisory`, "cursor"],
  ])("?%s is 400 naming %s", async (query, name) => {
    const p = await problem(await t.app.request(`${reviews()}?${query}`), 400);
    expect(p.errors?.map((e) => e.name)).toEqual([name]);
  });
});
