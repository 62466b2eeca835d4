/**
 * Dataset export benchmark: time and peak memory of the Croissant document (snapshot
 * recomputation included) and of streaming each JSONL export through the real HTTP server,
 * at two corpus sizes. The claim under test: peak RSS does not grow with the corpus.
 *
 *   npm run bench:export
 *   npm run bench:export -- --smoke   # one corpus of 25 papers (CI)
 *
 * Each measurement runs in a fresh child process (so its memory is its own): the child opens
 * the prepared database, starts the real app on a loopback port, samples its RSS every 10 ms
 * and downloads the endpoint with curl to /dev/null. The table gives
 * RSS just before the request, the sampled peak during it, and the process's lifetime
 * maxRSS from `process.resourceUsage()` (which includes start-up and migrations). The rows
 * go to bench/results/export.json and .md.
 *
 * Environment (all optional):
 *   BENCH_SIZES          comma list of corpus sizes (default 1000,6900; smoke 25). Beyond the 6,925
 *                        distinct abstracts, records are reused under ids a year later
 *                        (2605.x -> 2705.x), to see whether memory keeps growing.
 *   BENCH_ENGINES        comma list of pglite,postgres (default both)
 *   BENCH_ADMIN_URL      where to create/drop quire_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ServerType, serve } from "@hono/node-server";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { datasetSnapshots } from "../src/db/schema/index.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import { currentSnapshot } from "../src/services/dataset/snapshot.ts";
import { withScratchDatabase } from "../src/testing/scratch.ts";
import { arxivPapers, type BulkPaper, bulkLoadPapers } from "./lib/bulk-load.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, samples } from "./lib/smoke.ts";

type Engine = "pglite" | "postgres";
type Operation = "croissant" | "papers.jsonl" | "chunks.jsonl";

const ARXIV = new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const SELF = fileURLToPath(import.meta.url);
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SIZES = (process.env.BENCH_SIZES ?? orSmoke("1000,6900", "25"))
  .split(",")
  .map((s) => Number(s.trim()));
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres")
  .split(",")
  .map((s) => s.trim())
  .filter((s): s is Engine => s === "pglite" || s === "postgres");
const OPERATIONS: Operation[] = ["croissant", "papers.jsonl", "chunks.jsonl"];
const MB = 1024 * 1024;

interface Measurement {
  operation: Operation;
  ms: number;
  bytes: number;
  status: number;
  rssBefore: number;
  rssPeak: number;
  heapPeak: number;
  maxRss: number;
}

interface Row extends Measurement {
  engine: Engine;
  papers: number;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The environment a runtime needs for one prepared database. */
function runtimeEnv(target: { dataDir?: string; databaseUrl?: string }): Record<string, string> {
  return {
    LOG_LEVEL: "silent",
    SEED_SAMPLES: "false",
    PORT: "0",
    ...(target.dataDir ? { DATA_DIR: target.dataDir } : {}),
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
  };
}

// --- child: one measurement --------------------------------------------------------------

async function child(operation: Operation, env: Record<string, string>): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger("silent");
  const runtime = await openRuntime(config, logger);
  const app = buildApp({
    services: runtime.services,
    logger,
    baseUrl: config.BASE_URL,
    trustProxy: [],
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  try {
    if (operation === "croissant") {
      // Force the recomputation: the measurement includes streaming both exports to a hash.
      await runtime.database.db.delete(datasetSnapshots);
    } else {
      await currentSnapshot(runtime.services);
    }
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let heapPeak = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      rssPeak = Math.max(rssPeak, usage.rss);
      heapPeak = Math.max(heapPeak, usage.heapUsed);
    }, 10);
    const path =
      operation === "croissant" ? "/api/v1/dataset/croissant" : `/api/v1/dataset/${operation}`;
    const started = performance.now();
    const { status, bytes } = await download(`http://127.0.0.1:${port}${path}`);
    const ms = performance.now() - started;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    const result: Measurement = {
      operation,
      ms,
      bytes,
      status,
      rssBefore,
      rssPeak,
      heapPeak,
      maxRss: process.resourceUsage().maxRSS * 1024,
    };
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ("closeAllConnections" in server) server.closeAllConnections();
    });
    await runtime.close();
  }
}

/**
 * Fetches to /dev/null with curl, a separate process, so the sampled RSS is the server's
 * alone (an in-process client would add its own buffers); fetch() if curl is missing.
 */
function download(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const curl = spawn(
      "curl",
      [
        "-s",
        "-o",
        "/dev/null",
        "-H",
        "Accept-Encoding: identity",
        "-w",
        "%{http_code} %{size_download}",
        url,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    curl.stdout.on("data", (chunk) => {
      out += String(chunk);
    });
    curl.on("error", () => {
      fetchDownload(url).then(resolve, reject);
    });
    curl.on("exit", (code) => {
      if (code !== 0) {
        if (code !== null) reject(new Error(`curl ${url} exited ${code}`));
        return;
      }
      const [status, bytes] = out.trim().split(" ").map(Number);
      resolve({ status: status ?? 0, bytes: bytes ?? 0 });
    });
  });
}

async function fetchDownload(url: string): Promise<{ status: number; bytes: number }> {
  const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
  let bytes = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    bytes += next.value.byteLength;
  }
  return { status: res.status, bytes };
}

function measure(operation: Operation, env: Record<string, string>): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--expose-gc", "--import", "tsx", SELF, "--child", operation, JSON.stringify(env)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    proc.stdout.on("data", (chunk) => {
      out += String(chunk);
    });
    proc.on("error", reject);
    proc.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line) {
        reject(new Error(`child ${operation} exited ${code}:\n${out}`));
        return;
      }
      resolve(JSON.parse(line.slice(7)) as Measurement);
    });
  });
}

// --- parent: prepare each corpus, measure, print ----------------------------------------

async function withDatabase<T>(
  engine: Engine,
  run: (target: { dataDir?: string; databaseUrl?: string }) => Promise<T>,
): Promise<T> {
  if (engine === "pglite") {
    const dir = mkdtempSync(join(tmpdir(), "quire-bench-export-"));
    try {
      return await run({ dataDir: dir });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return withScratchDatabase(ADMIN_URL, "quire_bench", (url) => run({ databaseUrl: url }));
}

/** The arXiv abstracts, then again with every id moved one year on, and so on. */
function* corpus(): Generator<BulkPaper> {
  for (let cycle = 0; ; cycle++) {
    let any = false;
    for (const paper of arxivPapers(ARXIV)) {
      any = true;
      const yymm = Number(paper.id.slice(0, 4)) + cycle * 100;
      yield cycle === 0 ? paper : { ...paper, id: `${yymm}${paper.id.slice(4)}` };
    }
    if (!any) return;
  }
}

async function benchSize(engine: Engine, size: number): Promise<Row[]> {
  return withDatabase(engine, async (target) => {
    const env = runtimeEnv(target);
    const runtime = await openRuntime(loadConfig(env), createLogger("silent"));
    try {
      const started = performance.now();
      const loaded = await bulkLoadPapers(runtime.services, corpus(), { count: size });
      if (loaded.loaded !== size) throw new Error(`only ${loaded.loaded} papers could be loaded`);
      log(
        `${engine} ${size}: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (${loaded.skipped} skipped by the screener)`,
      );
    } finally {
      await runtime.close();
    }
    const rows: Row[] = [];
    for (const operation of OPERATIONS) {
      const m = await measure(operation, env);
      if (m.status !== 200) throw new Error(`${operation} answered ${m.status}`);
      samples(`${operation} body bytes`, m.bytes);
      figure(`${operation} time`, m.ms);
      log(
        `  ${operation}: ${m.ms.toFixed(0)} ms, ${(m.bytes / MB).toFixed(2)} MB, RSS ${(m.rssBefore / MB).toFixed(0)} -> peak ${(m.rssPeak / MB).toFixed(0)} MB`,
      );
      rows.push({ ...m, engine, papers: size });
    }
    return rows;
  });
}

function printTable(rows: Row[]): void {
  const header = [
    "engine",
    "papers",
    "operation",
    "time ms",
    "body MB",
    "RSS before MB",
    "peak RSS MB",
    "peak - before MB",
    "peak heap MB",
    "maxRSS MB",
  ];
  const lines = rows.map((r) => [
    r.engine,
    String(r.papers),
    r.operation,
    r.ms.toFixed(0),
    (r.bytes / MB).toFixed(2),
    (r.rssBefore / MB).toFixed(1),
    (r.rssPeak / MB).toFixed(1),
    ((r.rssPeak - r.rssBefore) / MB).toFixed(1),
    (r.heapPeak / MB).toFixed(1),
    (r.maxRss / MB).toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  log("");
  log(format(header));
  log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) log(format(line));
  log("");
  for (const engine of ENGINES) {
    for (const operation of OPERATIONS) {
      const bySize = rows.filter((r) => r.engine === engine && r.operation === operation);
      if (bySize.length < 2) continue;
      const peaks = bySize.map((r) => `${r.papers}: ${(r.rssPeak / MB).toFixed(1)}`).join(", ");
      const heaps = bySize.map((r) => (r.heapPeak / MB).toFixed(1)).join(", ");
      log(`${engine} ${operation}: peak RSS MB by corpus size ${peaks} (peak heap ${heaps})`);
    }
  }
}

async function main(): Promise<void> {
  const cpuList = cpus();
  log(
    `machine: ${cpuList.length} CPUs (${cpuList[0]?.model.trim() ?? "unknown"}), ${(totalmem() / MB).toFixed(0)} MB RAM, node ${process.version}`,
  );
  if (SIZES.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error("BENCH_SIZES must be positive integers");
  const rows: Row[] = [];
  for (const engine of ENGINES) {
    for (const size of SIZES) rows.push(...(await benchSize(engine, size)));
  }
  printTable(rows);
  writeResult("export", {
    settings: { sizes: SIZES, engines: ENGINES },
    rows: rows.map((r) => ({
      engine: r.engine,
      papers: r.papers,
      operation: r.operation,
      ms: r.ms,
      bodyBytes: r.bytes,
      rssBeforeBytes: r.rssBefore,
      rssPeakBytes: r.rssPeak,
      rssGrowthBytes: r.rssPeak - r.rssBefore,
      heapPeakBytes: r.heapPeak,
      maxRssBytes: r.maxRss,
    })),
  });
}

const args = process.argv.slice(2);
const run =
  args[0] === "--child"
    ? child(args[1] as Operation, JSON.parse(args[2] ?? "{}") as Record<string, string>)
    : main();
run.then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
