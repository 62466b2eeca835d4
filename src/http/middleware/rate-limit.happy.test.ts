/** @module Rate limits on HTTP: which requests draw on which bucket, and the headers they carry. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimits } from "../../services/ratelimit/limits.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { RELAXED_LIMITS } from "../../testing/db.ts";
import { expectRateLimitFields, parseRateLimitField } from "../../testing/rate-limit.ts";
import { operationFor } from "./rate-limit.ts";

const READS = { limit: 120, windowSeconds: 60 };
const SEARCH = { limit: 30, windowSeconds: 60 };
const WRITES = { limit: 30, windowSeconds: 60 };

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { rateLimits: createMemoryRateLimits() } });
});
afterAll(() => t.close());

describe("operationFor", () => {
  it.each([
    ["GET", "/api/v1/papers", "read"],
    ["HEAD", "/api/v1/papers/2611.00001", "read"],
    ["GET", "/api/v1/papers/2611.00001/context", "read"],
    ["GET", "/api/v1/papers/2611.00001/comments", "read"],
    ["GET", "/api/v1/me", "read"],
    ["GET", "/api/v1/dataset/croissant", "read"],
    ["GET", "/api/v1/openapi.json", "read"],
    ["GET", "/api/v1/no-such-thing", "read"],
    ["GET", "/api/v1/search/semantic", "search"],
    ["POST", "/api/v1/papers/2611.00001/comments", "comment"],
    ["POST", "/api/v1/papers/2611.00001/reviews", "review"],
    ["POST", "/api/v1/papers", "write"],
    ["POST", "/sign-in", null],
    ["GET", "/llms.txt", "read"],
    ["GET", "/llms-full.txt", "read"],
    ["GET", "/feed.atom", "read"],
    ["GET", "/oai", "read"],
    ["POST", "/oai", "read"],
    ["GET", "/docs", "read"],
    ["GET", "/docs/problems", "read"],
    ["OPTIONS", "/api/v1/papers", null],
    ["DELETE", "/api/v1/papers", null],
    ["GET", "/healthz", null],
    ["GET", "/readyz", null],
    ["GET", "/metrics", null],
    ["GET", "/", null],
    ["GET", "/api/v1x", null],
  ])("%s %s → %s", (method, path, operation) => {
    expect(operationFor(method, path)).toBe(operation);
  });

  it("counts the Atom feed of a search as a search, and other feeds as reads", () => {
    expect(operationFor("GET", "/feed.atom", "?q=glaciers")).toBe("search");
    expect(operationFor("HEAD", "/feed.atom", "?subject=cs&q=ice")).toBe("search");
    expect(operationFor("GET", "/feed.atom", "?subject=cs.CL")).toBe("read");
    expect(operationFor("GET", "/oai", "?q=x")).toBe("read");
  });
});

describe("reads", () => {
  it("every response carries RateLimit-Policy and a RateLimit that counts down", async () => {
    // app.request() has no socket, so every request in this file is one client.
    const first = await t.app.request("/api/v1/papers");
    expect(first.status).toBe(200);
    const { r: start, t: reset } = expectRateLimitFields(first, "reads", READS);
    for (let i = 1; i <= 5; i++) {
      const res = await t.app.request("/api/v1/papers?limit=1");
      expect(res.status).toBe(200);
      const now = expectRateLimitFields(res, "reads", { ...READS, remaining: start - i });
      expect(now.t).toBeLessThanOrEqual(reset);
    }
  });

  it("the public machine-readable paths, /me and the OpenAPI document draw on reads too", async () => {
    for (const path of [
      "/api/v1/openapi.json",
      "/api/v1/me",
      "/api/v1/dataset/croissant",
      "/llms.txt",
      "/feed.atom",
      "/oai?verb=Identify",
      "/docs",
    ]) {
      const before = parseRateLimitField(
        (await t.app.request("/api/v1/papers?limit=1")).headers.get("ratelimit"),
      ).reads?.r as number;
      const res = await t.app.request(path);
      expect(res.status, path).not.toBe(429);
      expectRateLimitFields(res, "reads", { ...READS, remaining: before - 1 });
    }
  });

  it("a 304 carries the fields as well", async () => {
    const first = await t.app.request("/api/v1/openapi.json");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await t.app.request("/api/v1/openapi.json", {
      headers: { "if-none-match": etag as string },
    });
    expect(again.status).toBe(304);
    const r = parseRateLimitField(first.headers.get("ratelimit")).reads?.r as number;
    expectRateLimitFields(again, "reads", { ...READS, remaining: r - 1 });
  });
});

describe("search and writes", () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp({ services: { rateLimits: createMemoryRateLimits() } });
  });
  afterAll(() => own.close());

  it("a search draws on search only, not on reads", async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await own.app.request("/api/v1/search/semantic?q=glacier");
      expect(res.status).toBe(200);
      expectRateLimitFields(res, "search", { ...SEARCH, remaining: 30 - i });
      expect(parseRateLimitField(res.headers.get("ratelimit")).reads).toBeUndefined();
    }
    const read = await own.app.request("/api/v1/papers");
    expectRateLimitFields(read, "reads", { ...READS, remaining: 119 });
  });

  it("a POST under /api/v1 draws on writes, whatever it answers", async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await own.app.request("/api/v1/papers/2611.00001/comments", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "A comment." }),
      });
      expect(res.status).not.toBe(429);
      expectRateLimitFields(res, "writes", { ...WRITES, remaining: 30 - i });
    }
  });
});

describe("not limited", () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp({ services: { rateLimits: createMemoryRateLimits() } });
  });
  afterAll(() => own.close());

  it("CORS preflights, unknown pages and probes carry no fields and spend nothing", async () => {
    const preflight = await own.app.request("/api/v1/papers", {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("ratelimit")).toBeNull();
    for (const path of ["/healthz", "/readyz", "/metrics", "/no-such-page"]) {
      const res = await own.app.request(path);
      expect(res.headers.get("ratelimit"), path).toBeNull();
      expect(res.headers.get("ratelimit-policy"), path).toBeNull();
    }
    const read = await own.app.request("/api/v1/papers");
    expectRateLimitFields(read, "reads", { ...READS, remaining: 119 });
  });

  it("CORS exposes Retry-After and both fields to browsers", async () => {
    const res = await own.app.request("/api/v1/papers", {
      headers: { origin: "https://agent.example" },
    });
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const name of ["retry-after", "ratelimit", "ratelimit-policy"]) {
      expect(exposed.split(",")).toContain(name);
    }
  });
});

describe("the default test app", () => {
  let relaxed: TestApp;
  afterEach(() => relaxed?.close());

  it("has a fresh store with relaxed quotas, so suites that make hundreds of requests never meet a 429", async () => {
    relaxed = await createTestApp();
    expect(RELAXED_LIMITS.reads?.points).toBe(1_200_000);
    for (let i = 0; i < 125; i++) {
      const res = await relaxed.app.request("/api/v1/openapi.json");
      expect(res.status).toBe(200);
    }
    const res = await relaxed.app.request("/api/v1/openapi.json");
    expectRateLimitFields(res, "reads", {
      limit: 1_200_000,
      windowSeconds: 60,
      remaining: 1_200_000 - 126,
    });
  });
});

describe("the OpenAPI document", () => {
  it("lists 429 with Retry-After, and the RateLimit fields on every response, for every /api/v1 operation", async () => {
    const doc = (await (await t.app.request("/api/v1/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
      >;
      components: { headers: Record<string, unknown> };
    };
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      "RateLimit",
      "RateLimitPolicy",
      "RetryAfter",
    ]);
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith("/api/v1/")) continue;
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.responses["429"], where).toBeDefined();
        expect(Object.keys(op.responses["429"]?.headers ?? {}), where).toContain("Retry-After");
        for (const response of Object.values(op.responses)) {
          expect(Object.keys(response.headers ?? {}), where).toEqual(
            expect.arrayContaining(["RateLimit", "RateLimit-Policy"]),
          );
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(12);
  });
});
