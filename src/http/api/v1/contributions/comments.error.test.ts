/** @module POST and GET /api/v1/papers/{id}/comments: every refusal, and that it stores nothing. */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../../app.ts";
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

function post(
  path: string,
  body: string,
  headers: Record<string, string> = {},
  who: TestAgent = agent,
) {
  return t.app.request(path, {
    method: "POST",
    headers: { ...who.auth, "content-type": "application/json", ...headers },
    body,
  });
}

async function problem(res: Response, status: number): Promise<Problem> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as Problem;
}

async function expectNothingStored() {
  expect(await contributionRows(t.ctx)).toEqual(before);
}

const comments = (id = paperId) => `/api/v1/papers/${id}/comments`;

describe("400: every failed check, listed together", () => {
  it.each([
    ["no body field", {}, [["body", /required|expected string/i]]],
    ["an unknown field", { body: "ok", author: "someone else" }, [["author", /not a known field/]]],
    ["a number for the body", { body: 42 }, [["body", /string/i]]],
    ["null", { body: null }, [["body", /string/i]]],
    ["blanks only", { body: " \n\t " }, [["body", /must not be empty/]]],
    ["10001 code points", { body: "é".repeat(10_001) }, [["body", /at most 10000/]]],
    ["10001 astral code points", { body: "𝛼".repeat(10_001) }, [["body", /at most 10000/]]],
    [
      "two faults",
      { body: "", extra: 1, more: 2 },
      [
        ["body", /must not be empty/],
        ["extra", /not a known field/],
        ["more", /not a known field/],
      ],
    ],
  ] as const)("%s", async (_name, body, expected) => {
    const p = await problem(await post(comments(), JSON.stringify(body)), 400);
    expect(p.errors?.map((e) => e.name).sort()).toEqual(expected.map(([n]) => n).sort());
    for (const [name, message] of expected) {
      const issue = p.errors?.find((e) => e.name === name);
      expect(issue?.in).toBe("body");
      expect(issue?.message).toMatch(message);
    }
    await expectNothingStored();
  });

  it("counts 10000 code points after trimming as within bounds", async () => {
    const res = await post(comments(), JSON.stringify({ body: `  ${"é".repeat(10_000)}  ` }));
    expect(res.status).toBe(201);
  });

  it.each([
    ["an array", "[]"],
    ["a string", '"hello"'],
    ["not JSON", "{body:"],
    ["nothing", ""],
  ])("a body that is %s is 400", async (_name, raw) => {
    await problem(await post(comments(), raw), 400);
    await expectNothingStored();
  });

  it("lists a bad Idempotency-Key with the body's faults, and alone", async () => {
    const bad = { "idempotency-key": "has spaces in it" };
    const both = await problem(await post(comments(), JSON.stringify({ body: "" }), bad), 400);
    expect(both.errors).toEqual(
      expect.arrayContaining([
        { in: "body", name: "body", message: expect.any(String) },
        { in: "header", name: "idempotency-key", message: expect.stringMatching(/ASCII/) },
      ]),
    );
    for (const key of ["x".repeat(256), "é", '""', "tab\there"]) {
      const alone = await problem(
        await post(comments(), JSON.stringify({ body: "fine" }), { "idempotency-key": key }),
        400,
      );
      expect(alone.errors).toEqual([
        { in: "header", name: "idempotency-key", message: expect.any(String) },
      ]);
    }
    await expectNothingStored();
  });
});

describe("404: the paper is not there for writing", () => {
  it.each([
    ["an unknown id", () => "2611.99999"],
    ["a malformed id", () => "not-a-paper"],
    ["a version beyond the current one", () => `${paperId}v2`],
  ])("%s", async (_name, id) => {
    const p = await problem(await post(comments(id()), JSON.stringify({ body: "Hello." })), 404);
    expect(p.detail).toContain(id());
    await expectNothingStored();
  });

  it.each([["withdrawn"], ["removed"], ["submitted"]] as const)(
    "a %s paper, answered like an unknown one",
    async (status) => {
      const { paper_id } = await publishPaper(t.ctx);
      await setPaperStatus(t.ctx, paper_id, status);
      await problem(await post(comments(paper_id), JSON.stringify({ body: "Hello." })), 404);
      await problem(await t.app.request(comments(paper_id)), 404);
      await expectNothingStored();
    },
  );
});

describe("413 and 415 come before the key is even read", () => {
  it("a body over 256 KiB is 413 and a form post is 415", async () => {
    const big = JSON.stringify({ body: "x".repeat(MAX_BODY_BYTES) });
    await problem(await post(comments(), big), 413);
    await problem(await post(comments(), "body=x", { "content-type": "text/plain" }), 415);
    await problem(
      await t.app.request(comments(), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "body=x",
      }),
      415,
    );
    await expectNothingStored();
  });
});

describe("422: an Idempotency-Key reused for a different request", () => {
  it("refuses another body or another paper under the same key, and stores nothing more", async () => {
    const key = { "idempotency-key": "reused-key-1" };
    expect((await post(comments(), JSON.stringify({ body: "First." }), key)).status).toBe(201);
    const stored = await contributionRows(t.ctx);
    const other = await publishPaper(t.ctx);
    for (const [path, body] of [
      [comments(), { body: "Second." }],
      [comments(other.paper_id), { body: "First." }],
      [comments(`${paperId}v1`), { body: "First." }],
    ] as const) {
      const p = await problem(await post(path, JSON.stringify(body), key), 422);
      expect(p.detail).toMatch(/different request/);
    }
    const review = {
      soundness: 3,
      presentation: 3,
      contribution: 3,
      confidence: 3,
      overall: 6,
      body: "First.",
    };
    await problem(
      await post(`/api/v1/papers/${paperId}/reviews`, JSON.stringify(review), key),
      422,
    );
    expect(await contributionRows(t.ctx)).toEqual(stored);
  });
});

describe("429: 60 comments per 10 minutes per agent", () => {
  it("refuses the 61st with Retry-After, stores nothing, and leaves other agents alone", async () => {
    const busy = await agentIn(t.ctx, "verified");
    for (let i = 0; i < 60; i++) {
      const res = await post(comments(), JSON.stringify({ body: `note ${i}` }), {}, busy);
      expect(res.status, `comment ${i + 1}`).toBe(201);
    }
    const stored = await contributionRows(t.ctx);
    const refused = await post(comments(), JSON.stringify({ body: "one too many" }), {}, busy);
    const p = await problem(refused, 429);
    expect(p.detail).toMatch(/comments by this agent: the limit is 60 per 10 minutes/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await contributionRows(t.ctx)).toEqual(stored);

    const calm = await agentIn(t.ctx, "verified");
    expect((await post(comments(), JSON.stringify({ body: "hi" }), {}, calm)).status).toBe(201);
  });
});

describe("GET /api/v1/papers/{id}/comments", () => {
  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=x", "limit"],
    ["cursor=nope!", "cursor"],
    [`cursor=${Buffer.from("human|1|rev_0000000000000000000000").toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from("comments|1|2611.00001").toString("base64url")}`, "cursor"],
  ])("?%s is 400 naming %s", async (query, name) => {
    const p = await problem(await t.app.request(`${comments()}?${query}`), 400);
    expect(p.errors).toEqual([{ in: "query", name, message: expect.any(String) }]);
  });

  it.each([["2611.99999"], ["nope"], ["2611.00001v0"]])("%s is 404", async (id) => {
    await problem(await t.app.request(comments(id)), 404);
  });
});
