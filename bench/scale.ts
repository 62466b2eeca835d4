/**
 * Scale benchmark: a mixed load through nginx (deploy/nginx/quire.conf, as in
 * test/deploy.e2e.test.ts) against one Quire instance, then two, on PostgreSQL + Redis — and,
 * with BENCH_CONFIGS including `2+replica`, two instances whose anonymous reads go to a
 * streaming replica (src/testing/replica.ts).
 *
 *   npm run bench:scale
 *   npm run bench:scale -- --smoke   # 30 papers, one instance, 1 s, 4 connections (CI)
 *
 * The corpus is imported once per run: BENCH_PAPERS distinct arXiv CS abstracts
 * (shared/data/arxiv-daily-cs) bulk-loaded into a scratch database and indexed for search,
 * plus 20 verified agents with real keys. Every configuration then serves that database.
 *
 * The load is closed-loop: BENCH_CONNECTIONS keep-alive connections, each sending its next
 * request when the last one is answered, for BENCH_SECONDS after BENCH_WARMUP unmeasured
 * seconds. Each request is drawn at random: 80% reads (a quarter the list of 20, the rest
 * split between a paper and its context, random papers), 15% hybrid searches (two random
 * title words), 5% agent comments (a random agent and paper, a distinct body). Clients
 * send Accept-Encoding: gzip, as real ones do.
 *
 * Instances run bench/lib/scale-instance.ts: `quire serve`'s runtime and app with the Redis
 * rate-limit quotas raised to 1e9 per hour (every request still draws on Redis), because the
 * contract's 120 reads a minute per address would cap the measurement after a second.
 *
 * Printed per configuration: requests/s, p50/p95/p99 overall and per kind, non-2xx answers
 * by status and transport errors, and CPU seconds per second of the instances, nginx and
 * the machine (from /proc); then the ratio of the configurations to one instance. The same
 * figures go to bench/results/scale.json and .md (bench/lib/results.ts).
 *
 * Environment (all optional):
 *   BENCH_PAPERS       papers in the corpus (default 3000)
 *   BENCH_SECONDS      measured seconds per configuration (default 20)
 *   BENCH_WARMUP       unmeasured seconds before each (default 3)
 *   BENCH_CONNECTIONS  concurrent connections (default 32)
 *   BENCH_CONFIGS      comma list of 1, 2, 2+replica (default 1,2)
 *   BENCH_ROUNDS       repeat the configurations, in rotated order (default 1); pooled
 *   BENCH_POOL_SIZE    DATABASE_POOL_SIZE per instance (default 10)
 *   BENCH_ARXIV_DIR    the arXiv listing files (default ../shared/data/arxiv-daily-cs/data/)
 *   BENCH_ADMIN_URL    where to create/drop quire_bench_scale_<random> (default local postgres)
 *   BENCH_REDIS_URL    Redis (default redis://127.0.0.1:6379)
 */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, totalmem } from "node:os";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { rowsOf } from "../src/db/sql.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import { rebuildSearchIndex } from "../src/services/search/indexing.ts";
import { makeAgent, makeOwner } from "../src/testing/factories.ts";
import { type RunningNginx, startNginx } from "../src/testing/nginx.ts";
import { deletePrefix, uniquePrefix } from "../src/testing/redis.ts";
import { type StreamingReplica, startStreamingReplica } from "../src/testing/replica.ts";
import { withScratchDatabase } from "../src/testing/scratch.ts";
import { type ServedQuire, serveQuire } from "../src/testing/serve.ts";
import { arxivPapers, bulkLoadPapers } from "./lib/bulk-load.ts";
import { writeResult } from "./lib/results.ts";
import { orSmoke, samples } from "./lib/smoke.ts";

const env = process.env;
const PAPERS = Number(env.BENCH_PAPERS ?? orSmoke(3000, 30));
const SECONDS = Number(env.BENCH_SECONDS ?? orSmoke(20, 1));
const WARMUP = Number(env.BENCH_WARMUP ?? orSmoke(3, 0));
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? orSmoke(32, 4));
const CONFIGS = (env.BENCH_CONFIGS ?? orSmoke("1,2", "1")).split(",").map((s) => s.trim());
const POOL_SIZE = env.BENCH_POOL_SIZE ?? "10";
const ARXIV = env.BENCH_ARXIV_DIR
  ? new URL(`file://${env.BENCH_ARXIV_DIR.replace(/\/?$/, "/")}`)
  : new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const ADMIN_URL = env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const ROUNDS = Number(env.BENCH_ROUNDS ?? 1);
const AGENTS = 20;

for (const config of CONFIGS) {
  if (!["1", "2", "2+replica"].includes(config)) throw new Error(`unknown config ${config}`);
}

type Kind = "list" | "paper" | "context" | "search" | "comment";
const READS: Kind[] = ["list", "paper", "context"];

interface Corpus {
  paperIds: string[];
  words: string[];
  keys: string[];
}

interface Sample {
  kind: Kind;
  status: number;
  ms: number;
}

interface RunResult {
  config: string;
  seconds: number;
  samples: Sample[];
  errors: number;
  cpu: { instances: number; nginx: number; postgres: number; client: number; machine: number };
  failovers: number;
}

function log(message: string): void {
  process.stderr.write(`[bench:scale] ${message}\n`);
}

async function main(): Promise<void> {
  log(
    `machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  await withScratchDatabase(ADMIN_URL, "quire_bench_scale", async (url) => {
    const corpus = await loadCorpus(url);
    const results: RunResult[] = [];
    // Rounds rotate the order, so load that drifts during a run favours no configuration;
    // the table pools each configuration's rounds.
    for (let round = 0; round < ROUNDS; round++) {
      const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length] as string);
      for (const config of order) {
        const result = await runConfig(config, url, corpus);
        log(`${config}: ${(result.samples.length / result.seconds).toFixed(0)} req/s`);
        results.push(result);
      }
    }
    report(results);
  });
}

async function loadCorpus(url: string): Promise<Corpus> {
  const runtime = await openRuntime(
    loadConfig({ DATABASE_URL: url, SEED_SAMPLES: "false" }),
    createLogger("silent"),
    { rateLimits: false },
  );
  try {
    const ctx = runtime.services;
    let started = performance.now();
    const loaded = await bulkLoadPapers(ctx, arxivPapers(ARXIV), { count: PAPERS });
    log(
      `corpus: ${loaded.loaded} papers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    started = performance.now();
    const built = await rebuildSearchIndex(ctx);
    log(
      `search index: ${built.chunks} chunks in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await ctx.db.execute(sql`analyze`);
    const keys: string[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const owner = await makeOwner(ctx);
      keys.push((await makeAgent(ctx, owner.handle, `bench-agent-${i}`)).key);
    }
    const titles = await rowsOf<{ title: string }>(
      ctx.db,
      sql`select title from paper_versions limit 2000`,
    );
    const words = new Set<string>();
    for (const row of titles) {
      for (const w of row.title.toLowerCase().match(/[a-z]{5,}/g) ?? []) words.add(w);
    }
    return { paperIds: loaded.ids, words: [...words], keys };
  } finally {
    await runtime.close();
  }
}

async function runConfig(config: string, url: string, corpus: Corpus): Promise<RunResult> {
  const count = config === "1" ? 1 : 2;
  let replica: StreamingReplica | undefined;
  const instances: ServedQuire[] = [];
  let nginx: RunningNginx | undefined;
  const prefix = uniquePrefix("bench-scale");
  try {
    const instanceEnv: Record<string, string> = {
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: POOL_SIZE,
      REDIS_URL,
      TRUST_PROXY: "127.0.0.1",
      SEED_SAMPLES: "false",
      BENCH_RL_PREFIX: prefix,
    };
    if (config === "2+replica") {
      replica = await startStreamingReplica(ADMIN_URL);
      await replica.catchUp();
      instanceEnv.DATABASE_READ_URL = replica.url(new URL(url).pathname.slice(1));
    }
    for (let i = 0; i < count; i++) {
      instances.push(
        await serveQuire(instanceEnv, {
          argv: ["--import", "tsx", "bench/lib/scale-instance.ts"],
        }),
      );
    }
    nginx = await startNginx({ upstreamPorts: instances.map((i) => i.port) });
    log(`${config}: warming up ${WARMUP} s`);
    await drive(nginx.base, corpus, WARMUP);
    const pids = instances.map((i) => i.pid);
    const database = new URL(url).pathname.slice(1);
    const before = cpuSnapshot(pids, nginx.pid, database);
    const clientBefore = process.cpuUsage();
    log(`${config}: measuring ${SECONDS} s with ${CONNECTIONS} connections`);
    const started = performance.now();
    const { samples, errors } = await drive(nginx.base, corpus, SECONDS);
    const seconds = (performance.now() - started) / 1000;
    const after = cpuSnapshot(pids, nginx.pid, database);
    const client = process.cpuUsage(clientBefore);
    const failovers = instances.reduce(
      (n, i) => n + (i.output().match(/Redis is unreachable/g)?.length ?? 0),
      0,
    );
    return {
      config,
      seconds,
      samples,
      errors,
      failovers,
      cpu: {
        instances: (after.instances - before.instances) / seconds,
        nginx: (after.nginx - before.nginx) / seconds,
        postgres: (after.postgres - before.postgres) / seconds,
        client: (client.user + client.system) / 1e6 / seconds,
        machine: (after.machine - before.machine) / seconds,
      },
    };
  } finally {
    await nginx?.stop();
    await Promise.all(instances.map((i) => i.stop()));
    await replica?.destroy();
    await deletePrefix(REDIS_URL, prefix).catch(() => {});
  }
}

/** Closed-loop load for `seconds`: CONNECTIONS loops over keep-alive connections. */
async function drive(
  base: string,
  corpus: Corpus,
  seconds: number,
): Promise<{ samples: Sample[]; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const samples: Sample[] = [];
  let errors = 0;
  let written = 0;
  const deadline = performance.now() + seconds * 1000;
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;
  const loop = async () => {
    while (performance.now() < deadline) {
      const roll = Math.random();
      const kind: Kind =
        roll < 0.8
          ? Math.random() < 0.25
            ? "list"
            : Math.random() < 0.5
              ? "paper"
              : "context"
          : roll < 0.95
            ? "search"
            : "comment";
      const id = pick(corpus.paperIds);
      const headers: Record<string, string> = { "accept-encoding": "gzip" };
      let path: string;
      let body: string | undefined;
      if (kind === "list") path = "/api/v1/papers?limit=20";
      else if (kind === "paper") path = `/api/v1/papers/${id}`;
      else if (kind === "context") path = `/api/v1/papers/${id}/context`;
      else if (kind === "search") {
        path = `/api/v1/search/semantic?q=${encodeURIComponent(`${pick(corpus.words)} ${pick(corpus.words)}`)}&limit=8`;
      } else {
        path = `/api/v1/papers/${id}/comments`;
        headers.authorization = `Bearer ${pick(corpus.keys)}`;
        headers["content-type"] = "application/json";
        body = JSON.stringify({ body: `Benchmark comment ${++written} at ${Date.now()}.` });
      }
      const started = performance.now();
      try {
        const status = await send(
          agent,
          `${base}${path}`,
          kind === "comment" ? "POST" : "GET",
          headers,
          body,
        );
        samples.push({ kind, status, ms: performance.now() - started });
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  agent.destroy();
  return { samples, errors };
}

function send(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout: 60_000 }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/** CPU seconds so far: the instances, nginx (master and workers), and the whole machine. */
function cpuSnapshot(
  instancePids: number[],
  nginxPid: number,
  database: string,
): { instances: number; nginx: number; postgres: number; machine: number } {
  const ticks = 100; // USER_HZ on Linux
  const processCpu = (pid: number): number => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      // utime, stime, cutime, cstime: fields 14-17 (index 11-14 after the comm).
      return [11, 12, 13, 14].reduce((s, i) => s + Number(fields[i] ?? 0), 0) / ticks;
    } catch {
      return 0;
    }
  };
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const stat = readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/).slice(1) ?? [];
  // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
  const busy = stat.slice(0, 8).reduce((s, v, i) => (i === 3 || i === 4 ? s : s + Number(v)), 0);
  return {
    instances: instancePids.reduce((s, pid) => s + processCpu(pid), 0),
    nginx: [nginxPid, ...children(nginxPid)].reduce((s, pid) => s + processCpu(pid), 0),
    postgres: backendPids(database).reduce((s, pid) => s + processCpu(pid), 0),
    machine: busy / ticks,
  };
}

/**
 * The PostgreSQL backends serving `database` (on the primary and on a replica): their
 * process titles name it. Other users of the server are left out; so are its background
 * processes (WAL writer, checkpointer), a small share under this load.
 */
function backendPids(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(` ${database} `)) {
        pids.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function summary(samples: Sample[]): { p50: number; p95: number; p99: number } {
  const sorted = samples.map((s) => s.ms).sort((x, y) => x - y);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

/** One configuration's rounds as one result: samples together, time and CPU added. */
function pooled(results: RunResult[]): RunResult[] {
  const byConfig = new Map<string, RunResult>();
  for (const r of results) {
    const seen = byConfig.get(r.config);
    if (!seen) {
      byConfig.set(r.config, { ...r, samples: [...r.samples], cpu: { ...r.cpu } });
      continue;
    }
    seen.samples.push(...r.samples);
    seen.errors += r.errors;
    seen.failovers += r.failovers;
    // CPU figures are per second: weight them by each round's length.
    for (const key of Object.keys(seen.cpu) as (keyof RunResult["cpu"])[]) {
      seen.cpu[key] =
        (seen.cpu[key] * seen.seconds + r.cpu[key] * r.seconds) / (seen.seconds + r.seconds);
    }
    seen.seconds += r.seconds;
  }
  return CONFIGS.map((c) => byConfig.get(c)).filter((r): r is RunResult => r !== undefined);
}

function report(rounds: RunResult[]): void {
  const results = pooled(rounds);
  const ms = (v: number) => (Number.isNaN(v) ? "—" : v.toFixed(0));
  const lines: string[] = [];
  lines.push(
    `\nbench:scale — ${PAPERS} papers, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per configuration, ` +
      `${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end\n`,
  );
  lines.push(
    "| instances | req/s | p50 ms | p95 ms | p99 ms | reads p50/p95 | search p50/p95 | comments p50/p95 | non-2xx | errors | CPU s/s: quire / postgres / nginx / client / machine | CPU ms/request: quire / postgres |",
  );
  lines.push("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  for (const r of results) {
    const all = summary(r.samples);
    const of = (kinds: Kind[]) => summary(r.samples.filter((s) => kinds.includes(s.kind)));
    const reads = of(READS);
    const search = of(["search"]);
    const comments = of(["comment"]);
    const non2xx = new Map<number, number>();
    for (const s of r.samples) {
      if (s.status < 200 || s.status > 299) non2xx.set(s.status, (non2xx.get(s.status) ?? 0) + 1);
    }
    const bad =
      non2xx.size === 0 ? "0" : [...non2xx].map(([status, n]) => `${n}×${status}`).join(", ");
    lines.push(
      `| ${r.config} | ${(r.samples.length / r.seconds).toFixed(0)} | ${ms(all.p50)} | ${ms(all.p95)} | ${ms(all.p99)} | ` +
        `${ms(reads.p50)}/${ms(reads.p95)} | ${ms(search.p50)}/${ms(search.p95)} | ${ms(comments.p50)}/${ms(comments.p95)} | ` +
        `${bad} | ${r.errors} | ${[r.cpu.instances, r.cpu.postgres, r.cpu.nginx, r.cpu.client, r.cpu.machine].map((v) => v.toFixed(2)).join(" / ")} | ` +
        `${[r.cpu.instances, r.cpu.postgres].map((v) => ((1000 * v * r.seconds) / r.samples.length).toFixed(1)).join(" / ")} |`,
    );
  }
  const one = results.find((r) => r.config === "1");
  if (one) {
    const base = one.samples.length / one.seconds;
    for (const r of results) {
      if (r === one) continue;
      lines.push(
        `\n${r.config} instances vs 1: ${(r.samples.length / r.seconds / base).toFixed(2)}× the requests/s`,
      );
    }
  }
  const failovers = results.reduce((n, r) => n + r.failovers, 0);
  if (failovers > 0) {
    lines.push(
      `\nRedis fail-open warnings during the runs: ${failovers} (counted in memory meanwhile)`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  const base = one ? one.samples.length / one.seconds : null;
  writeResult("scale", {
    settings: {
      papers: PAPERS,
      connections: CONNECTIONS,
      secondsPerConfiguration: SECONDS,
      warmupSeconds: WARMUP,
      rounds: ROUNDS,
      configurations: CONFIGS,
      poolSize: Number(POOL_SIZE),
    },
    configurations: results.map((r) => {
      const all = summary(r.samples);
      const of = (kinds: Kind[]) => summary(r.samples.filter((s) => kinds.includes(s.kind)));
      const rps = r.samples.length / r.seconds;
      return {
        instances: r.config,
        requestsPerSecond: rps,
        vsOneInstance: base ? rps / base : null,
        p50Ms: all.p50,
        p95Ms: all.p95,
        p99Ms: all.p99,
        readsP50Ms: of(READS).p50,
        readsP95Ms: of(READS).p95,
        searchP50Ms: of(["search"]).p50,
        searchP95Ms: of(["search"]).p95,
        commentsP50Ms: of(["comment"]).p50,
        commentsP95Ms: of(["comment"]).p95,
        non2xx: r.samples.filter((s) => s.status < 200 || s.status > 299).length,
        errors: r.errors,
        quireCpuSPerS: r.cpu.instances,
        postgresCpuSPerS: r.cpu.postgres,
        nginxCpuSPerS: r.cpu.nginx,
        clientCpuSPerS: r.cpu.client,
        machineCpuSPerS: r.cpu.machine,
        quireCpuMsPerRequest: (1000 * r.cpu.instances * r.seconds) / r.samples.length,
        postgresCpuMsPerRequest: (1000 * r.cpu.postgres * r.seconds) / r.samples.length,
        redisFailovers: r.failovers,
      };
    }),
  });
  // A refusal or a lost request means the figures above measure something else: fail.
  for (const r of results) {
    samples(`${r.config} requests`, r.samples.length);
    const refused = r.samples.filter((s) => s.status < 200 || s.status > 299).length;
    if (refused > 0 || r.errors > 0) {
      throw new Error(`${r.config}: ${refused} non-2xx answers and ${r.errors} errors`);
    }
  }
}

await main();
