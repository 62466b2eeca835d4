/**
 * Write benchmark: `POST /api/v1/papers/{id}/comments` with 50 verified agents posting at
 * once, on PGlite and on PostgreSQL, and what the rate limiter costs on that route — no
 * limiter (no `rateLimits` on the context), the in-process store, Redis — in the same run.
 *
 *   npm run bench:writes
 *   npm run bench:writes -- --smoke   # Redis only, 4 agents, 1 s, no warm-up (CI)
 *
 * Every engine × limiter combination gets a fresh database: papers are published, one
 * verified owner and agent (with a real key) is made per connection, the real app is served
 * on a loopback port, and the client (bench/writes-client.ts, in a worker thread) posts
 * comments, one agent key per connection and a distinct body per request. A warm-up phase
 * runs first and is not measured. Afterwards the comments in the database must equal the
 * 2xx answers, and the limiter's own counts (read back from the RateLimit headers) must
 * equal the requests sent, or the run fails.
 *
 * Quotas are raised (the store's overrides: 1e9 per hour in every bucket): the contract's
 * 30 writes/min per IP and 60 comments/10 min per agent would refuse nearly every request
 * of a benchmark, and the figure wanted is the cost of counting, not of refusing.
 *
 * Environment (all optional):
 *   BENCH_SECONDS        measured seconds per combination (default 10)
 *   BENCH_WARMUP         unmeasured warm-up seconds before each (default 2)
 *   BENCH_CONNECTIONS    concurrent connections = agents (default 50)
 *   BENCH_ENGINES        comma list of pglite,postgres (default both)
 *   BENCH_LIMITERS       comma list of off,memory,redis (default all three; smoke: redis)
 *   BENCH_PAPERS         papers the comments go to (default 10)
 *   BENCH_ROUNDS         repeat every combination this many times, each round in a fresh
 *                        database with the limiters in rotated order (default 1); the table
 *                        pools the rounds (latencies together, requests over total time)
 *   BENCH_REDIS_URL      Redis for the shared store (default redis://127.0.0.1:6379)
 *   BENCH_REDIS_TIMEOUT_MS  how long a Redis draw may take before the store counts it in
 *                        memory instead (default 5000; production's is 200). Generous, so
 *                        that an event-loop stall on a loaded machine does not turn Redis
 *                        draws into in-process ones; a failover still fails the run.
 *   BENCH_ADMIN_URL      where to create/drop quire_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * The table goes to bench/results/writes.json and .md (bench/lib/results.ts).
 */
import { cpus, loadavg, totalmem } from "node:os";
import { inspect } from "node:util";
import { Worker } from "node:worker_threads";
import { type ServerType, serve } from "@hono/node-server";
import { pino } from "pino";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openRuntime } from "../src/runtime.ts";
import { publishVersion } from "../src/services/papers/publish.ts";
import type { RateLimits } from "../src/services/ratelimit/limits.ts";
import { createRedisRateLimits, type RedisRateLimits } from "../src/services/ratelimit/redis.ts";
import { contributionRows } from "../src/testing/agents.ts";
import { makeAgent, makeOwner, paperInput } from "../src/testing/factories.ts";
import { deletePrefix, uniquePrefix } from "../src/testing/redis.ts";
import { withBenchDatabase } from "./lib/database.ts";
import { RAISED_QUOTA as QUOTA, RAISED, raisedLine, raisedMemoryLimits } from "./lib/limits.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, SMOKE, samples } from "./lib/smoke.ts";
import type { ClientJob, ClientResult } from "./writes-client.ts";

type Engine = "pglite" | "postgres";
type Limiter = "off" | "memory" | "redis";

const SECONDS = positiveInt("BENCH_SECONDS", orSmoke(10, 1));
const WARMUP = nonNegativeInt("BENCH_WARMUP", orSmoke(2, 0));
const CONNECTIONS = positiveInt("BENCH_CONNECTIONS", orSmoke(50, 4));
const PAPERS = positiveInt("BENCH_PAPERS", orSmoke(10, 2));
const ROUNDS = positiveInt("BENCH_ROUNDS", 1);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const REDIS_TIMEOUT_MS = positiveInt("BENCH_REDIS_TIMEOUT_MS", 5000);
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ENGINES = list("BENCH_ENGINES", ["pglite", "postgres"] as const);
// Smoke: Redis alone, the store with the most to go wrong (one fresh database, not three).
const LIMITERS = SMOKE
  ? list("BENCH_LIMITERS", ["off", "memory", "redis"] as const).filter((l) =>
      process.env.BENCH_LIMITERS ? true : l === "redis",
    )
  : list("BENCH_LIMITERS", ["off", "memory", "redis"] as const);

function positiveInt(name: string, fallback: number): number {
  const n = nonNegativeInt(name, fallback);
  if (n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

function nonNegativeInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

function list<T extends string>(name: string, all: readonly T[]): T[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return [...all];
  const picked = raw.split(",").map((s) => s.trim());
  const unknown = picked.filter((s) => !all.includes(s as T));
  if (unknown.length > 0)
    throw new Error(`${name}: unknown ${unknown.join(", ")} (use ${all.join(", ")})`);
  return all.filter((s) => picked.includes(s));
}

interface Row {
  engine: Engine;
  limiter: Limiter;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  ok: number;
  /** Non-2xx answers plus requests with no answer. */
  errors: number;
  stored: number;
  /** Whether the limiter counted every request (writes) and every comment (per agent). */
  counted: "yes" | "NO" | "n/a";
  notes: string[];
  /** Every answered request's latency (ms) and the measured wall time, for pooling rounds. */
  latencies: number[];
  elapsedMs: number;
  /** req/s of each round (one entry unless BENCH_ROUNDS > 1): the spread shows the noise. */
  roundRps: number[];
}

/** One row from several rounds of the same combination: latencies pooled, rates summed. */
function pool(rounds: Row[]): Row {
  const first = rounds[0] as Row;
  const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const elapsedMs = rounds.reduce((s, r) => s + r.elapsedMs, 0);
  const sum = (f: (r: Row) => number) => rounds.reduce((s, r) => s + f(r), 0);
  return {
    engine: first.engine,
    limiter: first.limiter,
    rps: latencies.length / (elapsedMs / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: sum((r) => r.requests),
    ok: sum((r) => r.ok),
    errors: sum((r) => r.errors),
    stored: sum((r) => r.stored),
    counted: rounds.some((r) => r.counted === "NO") ? "NO" : first.counted,
    notes: rounds.flatMap((r) => r.notes),
    latencies,
    elapsedMs,
    roundRps: rounds.map((r) => r.rps),
  };
}

function withDatabase<T>(
  engine: Engine,
  run: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  return withBenchDatabase(engine, { prefix: "quire-bench-writes", adminUrl: ADMIN_URL }, run);
}

/** The store for a combination, with a way to tell whether Redis ever failed over. */
async function openLimiter(
  limiter: Limiter,
  keyPrefix: string,
): Promise<{ store: RateLimits | undefined; outages: () => string[] }> {
  if (limiter === "off") return { store: undefined, outages: () => [] };
  if (limiter === "memory") {
    return { store: raisedMemoryLimits(keyPrefix), outages: () => [] };
  }
  // The store logs a warning when it starts counting in memory instead of Redis: that
  // would measure the wrong thing, so the run fails if one appears.
  const warnings: string[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });
  const store: RedisRateLimits = await createRedisRateLimits({
    redisUrl: REDIS_URL,
    logger,
    overrides: RAISED,
    keyPrefix,
    commandTimeoutMs: REDIS_TIMEOUT_MS,
  });
  if (!store.shared()) {
    await store.close();
    throw new Error(`Redis at ${REDIS_URL} is not reachable; the redis run needs it`);
  }
  return { store, outages: () => warnings };
}

function runClient(job: ClientJob): Promise<ClientResult> {
  const client = new URL("./writes-client.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  // Worker threads do not inherit tsx's loader: the worker registers it, then loads the client.
  const source = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(client)}, ${JSON.stringify(import.meta.url)}))`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: job });
    worker.once(
      "message",
      (message: { ok: true; result: ClientResult } | { ok: false; error: string }) => {
        void worker.terminate();
        if (message.ok) resolve(message.result);
        else reject(new Error(`client: ${message.error}`));
      },
    );
    worker.once("error", reject);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] as number;
}

const is2xx = (status: string) => status.startsWith("2");
const count2xx = (r: ClientResult) =>
  Object.entries(r.statuses).reduce((s, [status, n]) => s + (is2xx(status) ? n : 0), 0);
const answered = (r: ClientResult) => Object.values(r.statuses).reduce((s, n) => s + n, 0);

async function benchCombination(engine: Engine, limiter: Limiter): Promise<Row> {
  return withDatabase(engine, async (env) => {
    const config = loadConfig({ ...env, LOG_LEVEL: "silent", SEED_SAMPLES: "false", PORT: "0" });
    const logger = pino({ level: "silent" });
    const runtime = await openRuntime(config, logger, { rateLimits: false });
    const keyPrefix = uniquePrefix("bench-writes");
    let store: RateLimits | undefined;
    let server: ServerType | undefined;
    try {
      const limits = await openLimiter(limiter, keyPrefix);
      store = limits.store;
      const outages = limits.outages;
      const ctx = runtime.services;
      const operator = { ...ctx, caller: { kind: "operator" as const } };
      const paperIds: string[] = [];
      for (let i = 0; i < PAPERS; i++) {
        const result = await publishVersion(operator, paperInput());
        if (result.outcome !== "published") {
          throw new Error(`a bench paper was not published: ${JSON.stringify(result)}`);
        }
        paperIds.push(result.paper_id);
      }
      const keys: string[] = [];
      const agentIds: string[] = [];
      for (let i = 0; i < CONNECTIONS; i++) {
        const owner = await makeOwner(ctx, { verified: true });
        const agent = await makeAgent(ctx, owner.handle, `bench-agent-${i}`);
        if (agent.status !== "verified") throw new Error(`agent ${agent.id} is ${agent.status}`);
        keys.push(agent.key);
        agentIds.push(agent.id);
      }
      if (store) ctx.rateLimits = store;
      else delete ctx.rateLimits;

      const app = buildApp({ services: ctx, logger, baseUrl: config.BASE_URL, trustProxy: [] });
      server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
      });
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;

      // Every key works, and the answer names its agent, before anything is timed.
      for (const [i, key] of keys.entries()) {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/papers/${paperIds[0]}/comments`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ body: `sanity check by agent ${i}` }),
        });
        const body = (await res.json()) as { comment?: { author?: { agent_id?: string } } };
        if (res.status !== 201 || body.comment?.author?.agent_id !== agentIds[i]) {
          throw new Error(
            `sanity POST by agent ${i} answered ${res.status} ${JSON.stringify(body)}`,
          );
        }
        if (limiter !== "off" && !res.headers.get("ratelimit")?.includes('"writes"')) {
          throw new Error(`the ${limiter} limiter wrote no RateLimit field`);
        }
      }
      let posted = keys.length;

      if (WARMUP > 0) {
        const warm = await runClient({ port, keys, paperIds, seconds: WARMUP, tag: "warm-up" });
        posted += answered(warm) + warm.errors;
      }
      const before = (await contributionRows(ctx)).comments;
      const run = await runClient({ port, keys, paperIds, seconds: SECONDS, tag: "run" });
      const stored = (await contributionRows(ctx)).comments - before;
      posted += answered(run) + run.errors;

      const ok = count2xx(run);
      const sorted = [...run.latencies].sort((a, b) => a - b);
      const notes: string[] = [];
      const refused = Object.entries(run.statuses).filter(([s]) => !is2xx(s));
      if (refused.length > 0) {
        notes.push(
          `non-2xx ${refused.map(([s, n]) => `${s}×${n}`).join(", ")}: ${run.firstRefusal}`,
        );
      }
      if (run.errors > 0) notes.push(`${run.errors} requests without an answer: ${run.firstError}`);
      if (stored !== ok) notes.push(`${stored} comments stored for ${ok} 2xx answers`);
      let counted: Row["counted"] = "n/a";
      if (store) {
        // remaining after the n-th draw is QUOTA - n: the lowest r seen is what was drawn.
        const writesDrawn = QUOTA - (run.minRemaining.writes ?? QUOTA);
        const commentsDrawn = run.commentsMinRemaining.reduce<number>(
          (s, r) => s + (r === null ? 0 : QUOTA - r),
          0,
        );
        const storedInAll = (await contributionRows(ctx)).comments;
        counted = writesDrawn === posted && commentsDrawn === storedInAll ? "yes" : "NO";
        if (counted === "NO") {
          notes.push(
            `limiter counted ${writesDrawn} writes for ${posted} POSTs and ${commentsDrawn} comments for ${storedInAll} stored`,
          );
        }
        const failovers = outages();
        if (failovers.length > 0) {
          counted = "NO";
          notes.push(`Redis failed over to memory during the run: ${failovers[0]}`);
        }
      }
      return {
        engine,
        limiter,
        rps: answered(run) / (run.elapsedMs / 1000),
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        requests: answered(run) + run.errors,
        ok,
        errors: answered(run) - ok + run.errors,
        stored,
        counted,
        notes,
        latencies: sorted,
        elapsedMs: run.elapsedMs,
        roundRps: [answered(run) / (run.elapsedMs / 1000)],
      };
    } finally {
      if (server) {
        const s = server;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          if ("closeAllConnections" in s) s.closeAllConnections();
        });
      }
      await store?.close();
      if (limiter === "redis") await deletePrefix(REDIS_URL, keyPrefix);
      await runtime.close();
    }
  });
}

const ENGINE_NAMES: Record<Engine, string> = { pglite: "PGlite", postgres: "PostgreSQL" };
const LIMITER_NAMES: Record<Limiter, string> = {
  off: "off",
  memory: "in-process",
  redis: "Redis",
};

function table(rows: Row[]): string[] {
  const header = [
    "engine",
    "limiter",
    "req/s",
    "p50 ms",
    "p99 ms",
    "vs off",
    ...(ROUNDS > 1 ? ["rounds req/s"] : []),
    "requests",
    "2xx",
    "errors",
    "stored",
    "counted",
  ];
  const lines = rows.map((r) => {
    const off = rows.find((o) => o.engine === r.engine && o.limiter === "off");
    return [
      ENGINE_NAMES[r.engine],
      LIMITER_NAMES[r.limiter],
      r.rps.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      off && r !== off ? `${((r.rps / off.rps - 1) * 100).toFixed(1)}%` : "—",
      ...(ROUNDS > 1
        ? [`${Math.min(...r.roundRps).toFixed(0)}–${Math.max(...r.roundRps).toFixed(0)}`]
        : []),
      String(r.requests),
      String(r.ok),
      String(r.errors),
      String(r.stored),
      r.counted,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const left = new Set([0, 1, header.length - 1]);
  const cell = (c: string, i: number) =>
    left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!);
  const format = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [
    format(header),
    `| ${widths.map((w, i) => (left.has(i) ? `${"-".repeat(w)}` : `${"-".repeat(w - 1)}:`)).join(" | ")} |`,
    ...lines.map(format),
  ];
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
  if (ENGINES.length === 0 || LIMITERS.length === 0) throw new Error("nothing to run");
  const cpuList = cpus();
  log(
    `machine: ${cpuList.length} CPUs (${cpuList[0]?.model.trim() ?? "unknown"}), ${mb(totalmem())} RAM, ` +
      `node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  log(
    `load: POST /api/v1/papers/{id}/comments, ${CONNECTIONS} verified agents on ${CONNECTIONS} keep-alive ` +
      `connections (one key each, a distinct body per request), ${PAPERS} papers, ${WARMUP} s warm-up + ` +
      `${SECONDS} s measured per combination, ${ROUNDS} round(s), client in a worker thread; a fresh database per combination and round`,
  );
  log(
    `${raisedLine()} (the contract's 30 writes/min per IP and 60 comments/10 min per agent would ` +
      "refuse most requests); the figures are the cost of counting, not of refusing",
  );
  if (LIMITERS.includes("redis")) {
    log(
      `redis: ${REDIS_URL}, command timeout ${REDIS_TIMEOUT_MS} ms before a draw fails over to memory`,
    );
  }
  const measured = new Map<string, Row[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Rotating the order keeps "first after start-up" or "last on a heating machine" from
    // always falling on the same limiter.
    const order = LIMITERS.map((_, i) => LIMITERS[(i + round) % LIMITERS.length] as Limiter);
    for (const engine of ENGINES) {
      for (const limiter of order) {
        const row = await benchCombination(engine, limiter);
        const key = `${engine}/${limiter}`;
        measured.set(key, [...(measured.get(key) ?? []), row]);
        log(
          `  ${ROUNDS > 1 ? `round ${round + 1}: ` : ""}${ENGINE_NAMES[engine]} / ${LIMITER_NAMES[limiter]}: ` +
            `${row.rps.toFixed(0)} comments/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, ` +
            `${row.ok} 2xx, ${row.stored} stored; load average ${loadavg()[0]?.toFixed(1)}`,
        );
        for (const note of row.notes) log(`    ${note}`);
      }
    }
  }
  const rows = ENGINES.flatMap((engine) =>
    LIMITERS.map((limiter) => pool(measured.get(`${engine}/${limiter}`) ?? [])),
  );
  for (const r of rows) {
    const name = `${ENGINE_NAMES[r.engine]} / ${LIMITER_NAMES[r.limiter]}`;
    samples(name, r.latencies.length);
    figure(`${name} comments/s`, r.rps);
    figure(`${name} p99`, r.p99);
  }
  log("");
  for (const line of table(rows)) log(line);
  writeResult("writes", {
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      connections: CONNECTIONS,
      papers: PAPERS,
      rounds: ROUNDS,
      engines: ENGINES,
      limiters: LIMITERS,
      redisTimeoutMs: REDIS_TIMEOUT_MS,
    },
    rows: rows.map((r) => {
      const off = rows.find((o) => o.engine === r.engine && o.limiter === "off");
      return {
        engine: ENGINE_NAMES[r.engine],
        limiter: LIMITER_NAMES[r.limiter],
        commentsPerSecond: r.rps,
        p50Ms: r.p50,
        p99Ms: r.p99,
        vsOff: off && r !== off ? r.rps / off.rps : null,
        roundsMinPerSecond: Math.min(...r.roundRps),
        roundsMaxPerSecond: Math.max(...r.roundRps),
        requests: r.requests,
        ok: r.ok,
        errors: r.errors,
        stored: r.stored,
        counted: r.counted,
        notes: r.notes.join("; "),
      };
    }),
  });
  const failed = rows.filter(
    (r) => r.errors > 0 || r.stored !== r.ok || r.counted === "NO" || r.requests === 0,
  );
  if (failed.length > 0) {
    log(
      `\nFAILED: ${failed.map((r) => `${ENGINE_NAMES[r.engine]} / ${LIMITER_NAMES[r.limiter]}`).join(", ")} (see notes above)`,
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : inspect(error)}\n`,
    );
    process.exitCode = 1;
  },
);
