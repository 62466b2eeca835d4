/** @module 429s: the contract's exact limits on both stores, and the same answer from services. */
import { afterEach, describe, expect, it } from "vitest";
import { limitOperation } from "../../services/ratelimit/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  type Engine,
  exactRateLimits,
  expectRateLimited,
  expectRateLimitFields,
  parseRateLimitField,
} from "../../testing/rate-limit.ts";

const READS = { limit: 120, windowSeconds: 60 };
const SEARCH = { limit: 30, windowSeconds: 60 };
const WRITES = { limit: 30, windowSeconds: 60 };
const COMMENTS = { limit: 60, windowSeconds: 600 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function appOn(engine: Engine, overrides?: Parameters<typeof exactRateLimits>[1]) {
  const rateLimits = await exactRateLimits(engine, overrides);
  const test = await createTestApp({ services: { rateLimits } });
  cleanups.push(async () => {
    await test.close();
    await rateLimits.cleanup();
  });
  return test;
}

const post = (t: TestApp, path: string, body: unknown = { body: "A comment." }) =>
  t.app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://agent.example" },
    body: JSON.stringify(body),
  });

describe.each(["memory", "redis"] as const)("%s store", (engine) => {
  it("the 121st read in a minute is 429, with Retry-After and the fields", async () => {
    const t = await appOn(engine);
    for (let i = 1; i <= 120; i++) {
      const res = await t.app.request("/api/v1/openapi.json");
      expect(res.status, `read ${i}`).toBe(200);
      expectRateLimitFields(res, "reads", { ...READS, remaining: 120 - i });
    }
    const refused = await t.app.request("/api/v1/papers", {
      headers: { origin: "https://agent.example" },
    });
    const { body } = await expectRateLimited(refused, "reads", READS);
    expect(body.instance).toBe("/api/v1/papers");
    expect(body.request_id).toBe(refused.headers.get("x-request-id"));
    expect(body.detail).toMatch(/reads from your address: the limit is 120 per minute/);
    // Readable by a browser client: CORS applies to the 429 too.
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    // Every read path is refused now, not just the one that tipped it over.
    expect((await t.app.request("/llms.txt")).status).toBe(429);
    // The other buckets are untouched.
    const search = await t.app.request("/api/v1/search/semantic?q=glacier");
    expect(search.status).toBe(200);
    expectRateLimitFields(search, "search", { ...SEARCH, remaining: 29 });
  });

  it("the 31st search in a minute is 429, and reads still pass", async () => {
    const t = await appOn(engine);
    for (let i = 1; i <= 30; i++) {
      const res = await t.app.request("/api/v1/search/semantic?q=glacier");
      expect(res.status, `search ${i}`).toBe(200);
      expectRateLimitFields(res, "search", { ...SEARCH, remaining: 30 - i });
    }
    const refused = await t.app.request("/api/v1/search/semantic?q=glacier");
    const { body } = await expectRateLimited(refused, "search", SEARCH);
    expect(body.detail).toMatch(/searches from your address: the limit is 30 per minute/);
    expect((await t.app.request("/api/v1/papers")).status).toBe(200);
  });

  it("the 31st POST in a minute is 429, before the body is even read", async () => {
    const t = await appOn(engine);
    for (let i = 1; i <= 30; i++) {
      const res = await post(t, "/api/v1/papers/2611.00001/comments");
      expect(res.status, `post ${i}`).not.toBe(429);
      expectRateLimitFields(res, "writes", { ...WRITES, remaining: 30 - i });
    }
    const refused = await post(t, "/api/v1/papers/2611.00001/reviews");
    await expectRateLimited(refused, "writes", WRITES);
    // A body the app would answer 415 for is refused as 429: the limit is checked first.
    const wrongType = await t.app.request("/api/v1/papers/2611.00001/comments", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "x",
    });
    expect(wrongType.status).toBe(429);
    expect((await t.app.request("/api/v1/papers")).status).toBe(200);
  });

  it("a RateLimited thrown by a service reads exactly like the middleware's 429", async () => {
    const t = await appOn(engine, { overrides: { writes: { points: 1000, windowSeconds: 60 } } });
    // What the contributions routes do: the service draws on the agent's bucket.
    t.app.post("/api/v1/test/comment", async (c) => {
      await limitOperation(c.get("ctx"), "comment", { writer: "agt_test" });
      return c.json({ ok: true }, 201);
    });
    for (let i = 1; i <= 60; i++) {
      const res = await post(t, "/api/v1/test/comment");
      expect(res.status, `comment ${i}`).toBe(201);
      expectRateLimitFields(res, "comments", { ...COMMENTS, remaining: 60 - i });
      expectRateLimitFields(res, "writes", { limit: 1000, windowSeconds: 60, remaining: 1000 - i });
    }
    const refused = await post(t, "/api/v1/test/comment");
    const { body, retryAfter } = await expectRateLimited(refused, "comments", COMMENTS);
    expect(body.detail).toMatch(/comments by this agent: the limit is 60 per 10 minutes/);
    expect(retryAfter).toBeGreaterThan(60);
    // Both policies the request drew on are in both fields.
    expect(Object.keys(parseRateLimitField(refused.headers.get("ratelimit-policy")))).toEqual([
      "writes",
      "comments",
    ]);
    expectRateLimitFields(refused, "writes", { limit: 1000, windowSeconds: 60, remaining: 939 });
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");

    // Same members and headers as a 429 from the middleware itself.
    const ipLimited = await appOn(engine);
    for (let i = 0; i < 30; i++) await ipLimited.app.request("/api/v1/search/semantic?q=ab");
    const fromMiddleware = await ipLimited.app.request("/api/v1/search/semantic?q=ab");
    expect(fromMiddleware.status).toBe(429);
    expect(Object.keys((await fromMiddleware.json()) as object).sort()).toEqual(
      Object.keys(body).sort(),
    );
    const names = (res: Response) =>
      [...res.headers.keys()].filter((h) => !h.startsWith("access-control")).sort();
    expect(names(fromMiddleware)).toEqual(names(refused));
  }, 180_000); // two apps and 92 requests: past 60 s on a loaded machine
});
