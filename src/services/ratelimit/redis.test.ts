/** @module The Redis store: exact shared counts, and failing open through outages. */
import { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  deletePrefix,
  type OwnRedis,
  readCounter,
  startOwnRedis,
  TEST_REDIS_URL,
  uniquePrefix,
} from "../../testing/redis.ts";
import { freePort } from "../../testing/scratch.ts";
import { BUCKETS, type RateLimits } from "./limits.ts";
import { createRateLimits, createRedisRateLimits, type RedisRateLimits } from "./redis.ts";

function capture(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, sink), lines };
}

const warnings = (lines: Record<string, unknown>[]) => lines.filter((l) => l.level === 40);
const infos = (lines: Record<string, unknown>[], text: RegExp) =>
  lines.filter((l) => l.level === 30 && text.test(String(l.msg)));

const open: RateLimits[] = [];
const prefixes: string[] = [];
let own: OwnRedis | undefined;

async function store(options: Partial<Parameters<typeof createRedisRateLimits>[0]> = {}) {
  const keyPrefix = options.keyPrefix ?? uniquePrefix("store");
  prefixes.push(keyPrefix);
  const s = await createRedisRateLimits({
    redisUrl: TEST_REDIS_URL,
    logger: pino({ level: "silent" }),
    // Generous, so a loaded test machine never turns a slow answer into a memory count.
    commandTimeoutMs: 5000,
    ...options,
    keyPrefix,
  });
  open.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await own?.stop();
  own = undefined;
});
afterAll(async () => {
  for (const prefix of prefixes) await deletePrefix(TEST_REDIS_URL, prefix);
});

describe("Redis store", () => {
  it("counts in Redis under the key prefix, exactly to the quota", async () => {
    const s = await store();
    for (let i = 1; i <= 30; i++) {
      expect(await s.consume("search", "198.51.100.1")).toMatchObject({
        allowed: true,
        remaining: 30 - i,
      });
    }
    const refused = await s.consume("search", "198.51.100.1");
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 30, windowSeconds: 60 });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    const prefix = prefixes.at(-1);
    expect(await readCounter(TEST_REDIS_URL, `${prefix}:search:198.51.100.1`)).toBe(31);
    expect(s.shared()).toBe(true);
  });

  it("two instances on one Redis draw on one count, even all at once", async () => {
    const keyPrefix = uniquePrefix("shared");
    const a = await store({ keyPrefix });
    const b = await store({ keyPrefix });
    const draws = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).consume("reads", "203.0.113.9")),
    );
    expect(draws.filter((d) => d.allowed)).toHaveLength(120);
    expect(draws.filter((d) => !d.allowed)).toHaveLength(30);
    // The allowed draws saw every remaining value from 119 down to 0 exactly once.
    const remaining = draws.filter((d) => d.allowed).map((d) => d.remaining);
    expect(new Set(remaining).size).toBe(120);
    expect(Math.min(...remaining)).toBe(0);
  });

  it("keeps the per-agent windows (10 minutes, 1 hour) in Redis", async () => {
    const s = await store();
    const comment = await s.consume("comments", "agt_abc");
    const review = await s.consume("reviews", "agt_abc");
    expect(comment).toMatchObject({ limit: 60, windowSeconds: 600, remaining: 59 });
    expect(review).toMatchObject({ limit: 30, windowSeconds: 3600, remaining: 29 });
    expect(comment.resetSeconds).toBeGreaterThan(590);
    expect(review.resetSeconds).toBeGreaterThan(3590);
  });

  it("honours overrides (short test windows) without touching the contract's buckets", async () => {
    const s = await store({ overrides: { writes: { points: 2, windowSeconds: 5 } } });
    expect((await s.consume("writes", "k")).remaining).toBe(1);
    expect((await s.consume("writes", "k")).remaining).toBe(0);
    expect((await s.consume("writes", "k")).allowed).toBe(false);
    expect((await s.consume("reads", "k")).limit).toBe(BUCKETS.reads.points);
  });
});

describe("fail-open", () => {
  it("a busy instance does not mistake its own lag for an outage: Redis's answer, read late, still counts", async () => {
    const { logger, lines } = capture();
    // The production deadline, so the lag below is well past it.
    const s = (await store({ logger, commandTimeoutMs: 200 })) as RedisRateLimits;
    const keyPrefix = prefixes.at(-1);
    await s.consume("reads", "192.0.2.7");
    const pending = s.consume("reads", "192.0.2.7");
    // The command is on the wire; the event loop now stalls past the deadline (as under a
    // burst of requests on a loaded machine) while Redis answers.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
    expect(await pending).toMatchObject({ allowed: true, remaining: 118 });
    expect(s.shared()).toBe(true);
    expect(warnings(lines)).toHaveLength(0);
    expect(await readCounter(TEST_REDIS_URL, `${keyPrefix}:reads:192.0.2.7`)).toBe(2);
  });

  it("answers with per-instance counts when Redis is unreachable from the start, warning once", async () => {
    const { logger, lines } = capture();
    const port = await freePort();
    const s = await store({ redisUrl: `redis://127.0.0.1:${port}`, logger });
    expect(s.shared()).toBe(false);
    for (let i = 1; i <= 120; i++) {
      expect(await s.consume("reads", "192.0.2.1")).toMatchObject({
        allowed: true,
        remaining: 120 - i,
      });
    }
    // Still a limit, counted in this process.
    expect((await s.consume("reads", "192.0.2.1")).allowed).toBe(false);
    expect(warnings(lines)).toHaveLength(1);
    expect(warnings(lines)[0]?.msg).toMatch(/fail open/);
    expect(JSON.stringify(lines)).not.toContain("redis://");
  });

  it("keeps answering when Redis dies mid-run, logs the outage once, and shares again when it is back", async () => {
    own = await startOwnRedis();
    const { logger, lines } = capture();
    const s = (await store({ redisUrl: own.url, logger })) as RedisRateLimits;
    const keyPrefix = prefixes.at(-1);
    for (let i = 0; i < 5; i++) await s.consume("reads", "192.0.2.2");
    expect(await readCounter(own.url, `${keyPrefix}:reads:192.0.2.2`)).toBe(5);

    await own.kill();
    const during = [];
    for (let i = 0; i < 50; i++) during.push(await s.consume("reads", "192.0.2.2"));
    expect(during.every((d) => d.allowed)).toBe(true);
    expect(s.shared()).toBe(false);
    expect(warnings(lines)).toHaveLength(1);

    await own.restart();
    // The client reconnects on its own schedule; draw until Redis answers again.
    for (let i = 0; i < 400 && !s.shared(); i++) {
      await s.consume("reads", "192.0.2.3");
      if (!s.shared()) await new Promise((r) => setTimeout(r, 25));
    }
    expect(s.shared()).toBe(true);
    expect(infos(lines, /back/)).toHaveLength(1);
    expect(warnings(lines)).toHaveLength(1);
    // Counting is in Redis again (the fresh server started from nothing).
    await s.consume("reads", "192.0.2.4");
    expect(await readCounter(own.url, `${keyPrefix}:reads:192.0.2.4`)).toBe(1);
  });

  it("does not wait on a hung Redis: the command times out and memory answers", async () => {
    own = await startOwnRedis();
    const { logger, lines } = capture();
    const s = (await store({
      redisUrl: own.url,
      logger,
      commandTimeoutMs: 100,
    })) as RedisRateLimits;
    await s.consume("writes", "192.0.2.5");
    own.pause();
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await s.consume("writes", "192.0.2.5"));
    expect(during.every((d) => d.allowed)).toBe(true);
    expect(s.shared()).toBe(false);
    expect(warnings(lines)).toHaveLength(1);
    own.resume();
    for (let i = 0; i < 400 && !s.shared(); i++) {
      await s.consume("writes", "192.0.2.6");
      if (!s.shared()) await new Promise((r) => setTimeout(r, 25));
    }
    expect(s.shared()).toBe(true);
    expect(infos(lines, /back/)).toHaveLength(1);
  });
});

describe("createRateLimits", () => {
  it("is in process without a Redis URL", async () => {
    const { logger, lines } = capture();
    const s = await createRateLimits({ logger });
    open.push(s);
    expect("shared" in s).toBe(false);
    expect((await s.consume("reads", "k")).remaining).toBe(119);
    expect(lines).toHaveLength(0);
  });

  it("is Redis with one", async () => {
    const keyPrefix = uniquePrefix("factory");
    prefixes.push(keyPrefix);
    const s = await createRateLimits({
      redisUrl: TEST_REDIS_URL,
      logger: pino({ level: "silent" }),
      keyPrefix,
    });
    open.push(s);
    await s.consume("reviews", "agt_x");
    expect(await readCounter(TEST_REDIS_URL, `${keyPrefix}:reviews:agt_x`)).toBe(1);
  });
});
