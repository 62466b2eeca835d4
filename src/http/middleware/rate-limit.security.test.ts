/**
 * @module Rate limits that hold: keyed by the real client address (X-Forwarded-For only from
 * trusted proxies), shared by instances on one Redis, and never an outage of their own.
 */
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { type ServerType, serve } from "@hono/node-server";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { RateLimits } from "../../services/ratelimit/limits.ts";
import { createRedisRateLimits } from "../../services/ratelimit/redis.ts";
import { createTestApp } from "../../testing/app.ts";
import {
  exactRateLimits,
  expectRateLimited,
  expectRateLimitFields,
} from "../../testing/rate-limit.ts";
import { deletePrefix, startOwnRedis, TEST_REDIS_URL, uniquePrefix } from "../../testing/redis.ts";
import { freePort } from "../../testing/scratch.ts";

const READS = { limit: 120, windowSeconds: 60 };
const SEARCH = { limit: 30, windowSeconds: 60 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The app behind a real loopback socket, so the peer address is 127.0.0.1. */
async function served(rateLimits: RateLimits, trustProxy: string[] = []) {
  const test = await createTestApp({ trustProxy, services: { rateLimits } });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: test.app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  cleanups.push(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ("closeAllConnections" in server) server.closeAllConnections();
    });
    await test.close();
  });
  const { port } = server.address() as AddressInfo;
  return { test, url: `http://127.0.0.1:${port}` };
}

const search = (url: string, xff?: string) =>
  fetch(`${url}/api/v1/search/semantic?q=glacier`, {
    headers: xff ? { "x-forwarded-for": xff } : {},
  });

describe("the key is the client address", () => {
  it("behind a trusted proxy, each forwarded client has its own count", async () => {
    const store = await exactRateLimits("memory");
    const { url } = await served(store, ["127.0.0.1"]);
    for (let i = 1; i <= 30; i++) {
      const res = await search(url, `203.0.113.${i}, 198.51.100.7`);
      expect(res.status).toBe(200);
      expectRateLimitFields(res, "search", { ...SEARCH, remaining: 30 - i });
    }
    await expectRateLimited(await search(url, "198.51.100.7"), "search", SEARCH);
    // Another client behind the same proxy is unaffected.
    const other = await search(url, "198.51.100.8");
    expect(other.status).toBe(200);
    expectRateLimitFields(other, "search", { ...SEARCH, remaining: 29 });
  });

  it("from an untrusted peer, X-Forwarded-For is ignored: spoofing it buys nothing", async () => {
    const store = await exactRateLimits("memory");
    const { url } = await served(store, ["10.0.0.0/8"]);
    for (let i = 1; i <= 30; i++) {
      const res = await search(url, `203.0.113.${i}`);
      expect(res.status).toBe(200);
      expectRateLimitFields(res, "search", { ...SEARCH, remaining: 30 - i });
    }
    await expectRateLimited(await search(url, "203.0.113.200"), "search", SEARCH);
    await expectRateLimited(await search(url), "search", SEARCH);
  });
});

describe("an IPv6 client is its /64", () => {
  it.each(["memory", "redis"] as const)(
    "%s: 200 reads from 200 addresses of one /64 get 120 × 200, then 429; another /64 is its own bucket",
    async (engine) => {
      const store = await exactRateLimits(engine);
      cleanups.push(() => store.cleanup());
      const { url } = await served(store, ["127.0.0.1"]);
      const read = async (xff: string) => {
        const res = await fetch(`${url}/api/v1/papers`, { headers: { "x-forwarded-for": xff } });
        await res.arrayBuffer();
        return res.status;
      };
      const statuses: number[] = [];
      for (let i = 1; i <= 200; i++) statuses.push(await read(`2001:db8:78::${i.toString(16)}`));
      expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(120).every((s) => s === 429)).toBe(true);
      // Any other address of the /64, the interface id included, is the same client.
      expect(await read("2001:db8:78:0:ffff:ffff:ffff:ffff")).toBe(429);
      // The next /64 is another client; and an IPv4-mapped address counts as the IPv4 one.
      expect(await read("2001:db8:78:1::1")).toBe(200);
      expect(await read("192.0.2.77")).toBe(200);
      const mapped = await fetch(`${url}/api/v1/papers`, {
        headers: { "x-forwarded-for": "::ffff:192.0.2.77" },
      });
      expectRateLimitFields(mapped, "reads", { ...READS, remaining: 118 });
    },
  );
});

describe("instances on one Redis", () => {
  it("draw on one count: 120 reads across two instances, and the 121st is refused by either", async () => {
    const keyPrefix = uniquePrefix("instances");
    cleanups.push(() => deletePrefix(TEST_REDIS_URL, keyPrefix));
    const a = await served(await exactRateLimits("redis", { keyPrefix }));
    const b = await served(await exactRateLimits("redis", { keyPrefix }));
    for (let i = 1; i <= 120; i++) {
      const res = await fetch(`${(i % 2 ? a : b).url}/api/v1/openapi.json`);
      expect(res.status, `read ${i}`).toBe(200);
      expectRateLimitFields(res, "reads", { ...READS, remaining: 120 - i });
      await res.arrayBuffer();
    }
    await expectRateLimited(await fetch(`${a.url}/api/v1/papers`), "reads", READS);
    await expectRateLimited(await fetch(`${b.url}/api/v1/papers`), "reads", READS);
  });

  it("stay exact under concurrent requests to both", async () => {
    const keyPrefix = uniquePrefix("burst");
    cleanups.push(() => deletePrefix(TEST_REDIS_URL, keyPrefix));
    const a = await served(await exactRateLimits("redis", { keyPrefix }));
    const b = await served(await exactRateLimits("redis", { keyPrefix }));
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await search(i % 2 ? a.url : b.url);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});

describe("fail-open", () => {
  function logSink() {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    return { logger: pino({ level: "info" }, sink), lines };
  }

  it("with Redis unreachable, the API keeps answering with the fields and warns once", async () => {
    const { logger, lines } = logSink();
    const store = await createRedisRateLimits({
      redisUrl: `redis://127.0.0.1:${await freePort()}`,
      logger,
      commandTimeoutMs: 5000,
      keyPrefix: uniquePrefix("down"),
    });
    const { test } = await served(store);
    for (let i = 1; i <= 20; i++) {
      const res = await test.app.request("/api/v1/papers");
      expect(res.status).toBe(200);
      expectRateLimitFields(res, "reads", { ...READS, remaining: 120 - i });
    }
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
  });

  it("when Redis dies mid-run, requests keep being answered and the outage is logged once", async () => {
    const own = await startOwnRedis();
    cleanups.push(() => own.stop());
    const { logger, lines } = logSink();
    const store = await createRedisRateLimits({
      redisUrl: own.url,
      logger,
      commandTimeoutMs: 5000,
      keyPrefix: uniquePrefix("dies"),
    });
    const { url } = await served(store);
    for (let i = 1; i <= 10; i++) {
      const res = await fetch(`${url}/api/v1/papers`);
      expect(res.status).toBe(200);
      expectRateLimitFields(res, "reads", { ...READS, remaining: 120 - i });
    }
    await own.kill();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${url}/api/v1/papers`);
      expect(res.headers.get("ratelimit")).toMatch(/^"reads";r=\d+;t=\d+$/);
      statuses.push(res.status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/fail open/);
  });
});
