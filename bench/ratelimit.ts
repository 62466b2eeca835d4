/**
 * @module bench:ratelimit — what a rate-limit draw costs: one `consume()` on the in-process
 * store and on Redis (one at a time, and 50 in flight), and the added time per request
 * through the real app (in-process `app.request` on a static route) with no store, the
 * in-process store and Redis.
 *
 *   npm run bench:ratelimit
 *
 * Environment (optional): BENCH_REDIS_URL (default redis://127.0.0.1:6379), BENCH_N
 * (draws per measurement, default 20000; `-- --smoke`: 200). Quotas are raised so that nothing is refused:
 * the cost measured is counting, not refusing. Keys are removed afterwards. Figures go to
 * bench/results/ratelimit.json and .md.
 */
import { pino } from "pino";
import { buildApp } from "../src/app.ts";
import { createMemoryRateLimits, type RateLimits } from "../src/services/ratelimit/limits.ts";
import { createRedisRateLimits } from "../src/services/ratelimit/redis.ts";
import { createTestDatabase, testContext } from "../src/testing/db.ts";
import { deletePrefix, uniquePrefix } from "../src/testing/redis.ts";
import { RAISED } from "./lib/limits.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke } from "./lib/smoke.ts";

const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const N = Number(process.env.BENCH_N ?? orSmoke(20_000, 200));
const HUGE = RAISED;
const silent = pino({ level: "silent" });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Microseconds per call, each call timed alone: mean, p50, p99. */
async function sequential(run: (i: number) => Promise<unknown>, n = N) {
  for (let i = 0; i < Math.min(1000, n); i++) await run(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  if (times.length === 0) throw new Error("no draws were timed");
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  return {
    mean: figure("mean µs", mean),
    p50: figure("p50 µs", percentile(times, 0.5)),
    p99: figure("p99 µs", percentile(times, 0.99)),
  };
}

/** Draws per second with `inFlight` concurrent callers. */
async function throughput(run: (i: number) => Promise<unknown>, inFlight = 50, n = N) {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) await run(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return figure("draws/s", n / seconds);
}

const fmt = (us: number) => us.toFixed(1).padStart(8);

async function main() {
  const prefix = uniquePrefix("bench");
  const stores: [string, () => Promise<RateLimits>][] = [
    ["memory", async () => createMemoryRateLimits({ overrides: HUGE, keyPrefix: prefix })],
    [
      "redis",
      () =>
        createRedisRateLimits({
          redisUrl: REDIS_URL,
          logger: silent,
          overrides: HUGE,
          keyPrefix: prefix,
        }),
    ],
  ];

  const draws: {
    store: string;
    meanUs: number;
    p50Us: number;
    p99Us: number;
    drawsPerSecondAt50: number;
  }[] = [];
  const requests: {
    store: string;
    meanUs: number;
    p50Us: number;
    p99Us: number;
    addedP50Us: number;
  }[] = [];
  console.log(`consume(), ${N} draws over 1,000 keys`);
  console.log("store   | mean µs |  p50 µs |  p99 µs | draws/s at 50 in flight");
  for (const [name, make] of stores) {
    const store = await make();
    const seq = await sequential((i) => store.consume("reads", `10.0.${i % 1000}.1`));
    const tput = await throughput((i) => store.consume("reads", `10.1.${i % 1000}.1`));
    console.log(
      `${name.padEnd(7)} | ${fmt(seq.mean)} | ${fmt(seq.p50)} | ${fmt(seq.p99)} | ${Math.round(tput)}`,
    );
    draws.push({
      store: name,
      meanUs: seq.mean,
      p50Us: seq.p50,
      p99Us: seq.p99,
      drawsPerSecondAt50: tput,
    });
    await store.close();
  }

  const database = await createTestDatabase();
  const n = Math.min(N, 5000);
  console.log(`\nGET /api/v1/openapi.json in process (app.request), ${n} requests`);
  console.log("store   | mean µs |  p50 µs |  p99 µs | added p50 µs");
  let baseline = 0;
  for (const [name, make] of [["none", async () => undefined], ...stores] as const) {
    const rateLimits = await make();
    const ctx = testContext(database, { logger: silent });
    if (rateLimits) ctx.rateLimits = rateLimits;
    else delete ctx.rateLimits;
    const app = buildApp({
      services: ctx,
      logger: silent,
      baseUrl: "http://bench",
      trustProxy: [],
    });
    const res = await sequential(async () => {
      const r = await app.request("/api/v1/openapi.json");
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`/api/v1/openapi.json answered ${r.status}`);
    }, n);
    if (name === "none") baseline = res.p50;
    console.log(
      `${name.padEnd(7)} | ${fmt(res.mean)} | ${fmt(res.p50)} | ${fmt(res.p99)} | ${fmt(res.p50 - baseline)}`,
    );
    requests.push({
      store: name,
      meanUs: res.mean,
      p50Us: res.p50,
      p99Us: res.p99,
      addedP50Us: res.p50 - baseline,
    });
    await rateLimits?.close();
  }
  await database.close();
  await deletePrefix(REDIS_URL, prefix);
  writeResult("ratelimit", {
    settings: { draws: N, keys: 1000, inFlight: 50, requests: n },
    consume: draws,
    "GET /api/v1/openapi.json in process": requests,
  });
}

await main();
