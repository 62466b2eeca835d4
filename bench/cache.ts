/**
 * @module Response-cache memory benchmark: the real app with its response cache bounded at
 * RESPONSE_CACHE_MB, served on a loopback port, under a mixed read/write load for minutes;
 * the cache's byte count and the process's RSS are sampled all along, and the run fails if
 * the cache ever holds more than its bound.
 *
 *   npm run bench:cache                 # 10 minutes on PostgreSQL
 *   npm run bench:cache -- --smoke      # a few seconds, tiny corpus (CI)
 *
 * Load: BENCH_CONNECTIONS keep-alive readers fetch, at random, list pages (by cursor and
 * size), papers (json, jsonld, bibtex), contexts and comment lists, each with no
 * Accept-Encoding, gzip, or "br, gzip": many more distinct responses than the bound holds, so
 * the LRU evicts all along. One writer posts a comment every BENCH_WRITE_EVERY_MS (alternating
 * agents and papers); each commit drops the cache on every instance (LISTEN/NOTIFY), which
 * then refills. Every answer must be the status intended (200 reads, 201 comments).
 *
 * The readers run in this process, so the RSS sampled is the server's and the load's together.
 * Figures go to bench/results/cache.json and .md.
 * Rate limits: the in-process store with every quota raised (bench/lib/limits.ts), drawn on.
 *
 * Environment (all optional):
 *   BENCH_MINUTES          minutes of load (default 10; smoke 0.1)
 *   RESPONSE_CACHE_MB      the cache's bound (default 4; smoke 0.5): small against the
 *                          corpus's responses, so the bound is what limits it
 *   BENCH_CONNECTIONS      concurrent readers (default 16; smoke 2)
 *   BENCH_WRITE_EVERY_MS   one comment per this many ms (default 5000; smoke 500)
 *   BENCH_IMPORT_LIMIT     arXiv abstracts imported (default 1000; smoke 20)
 *   BENCH_SAMPLE_MS        sampling interval (default 100)
 *   BENCH_ENGINES          pglite or postgres (default postgres; the first one listed)
 *   BENCH_ADMIN_URL        where to create/drop quire_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import type { Server } from "node:http";
import { availableParallelism, loadavg } from "node:os";
import { type ServerType, serve } from "@hono/node-server";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import { populateArchive } from "../src/testing/archive.ts";
import { withBenchDatabase } from "./lib/database.ts";
import { positive } from "./lib/env.ts";
import { raisedLine, raisedMemoryLimits } from "./lib/limits.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, SMOKE, samples } from "./lib/smoke.ts";

const MINUTES = positive("BENCH_MINUTES", orSmoke(10, 0.1));
const CACHE_MB = positive("RESPONSE_CACHE_MB", orSmoke(4, 0.5));
const CONNECTIONS = positive("BENCH_CONNECTIONS", orSmoke(16, 2));
const WRITE_EVERY_MS = positive("BENCH_WRITE_EVERY_MS", orSmoke(5000, 500));
const IMPORT_LIMIT = positive("BENCH_IMPORT_LIMIT", orSmoke(1000, 20));
const SAMPLE_MS = positive("BENCH_SAMPLE_MS", 100);
const ENGINE = (process.env.BENCH_ENGINES ?? "postgres").split(",")[0]?.trim();
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const ENCODINGS: (Record<string, string> | undefined)[] = [
  undefined,
  { "accept-encoding": "gzip" },
  { "accept-encoding": "br, gzip" },
];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

if (ENGINE !== "pglite" && ENGINE !== "postgres") {
  throw new Error(`BENCH_ENGINES: unknown engine ${ENGINE}`);
}
await withBenchDatabase(
  ENGINE,
  { prefix: "quire-bench-cache", adminUrl: ADMIN_URL },
  async (env) => {
    const config = loadConfig({
      ...env,
      LOG_LEVEL: "silent",
      SEED_SAMPLES: "false",
      PORT: "0",
      RESPONSE_CACHE_MB: String(CACHE_MB),
    });
    const logger = createLogger("silent");
    const runtime = await openRuntime(config, logger, { rateLimits: false, responseCache: true });
    runtime.services.rateLimits = raisedMemoryLimits();
    let server: ServerType | undefined;
    try {
      const cache = runtime.responseCache;
      if (!cache) throw new Error("no response cache (RESPONSE_CACHE_MB must be above 0)");
      const started = performance.now();
      const archive = await populateArchive(runtime.services, { abstracts: IMPORT_LIMIT });
      console.log(
        `${ENGINE} (${runtime.database.location}): ${archive.published} papers published in ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const app = buildApp({
        services: runtime.services,
        logger,
        baseUrl: config.BASE_URL,
        trustProxy: [],
        responseCache: cache,
      });
      server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
      });
      const address = server.address();
      const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

      // Every published paper's id and a cursor for each list page, walked once.
      const ids: string[] = [];
      const cursors: string[] = [""];
      for (let cursor = ""; ; ) {
        const res = await fetch(
          `${base}/api/v1/papers?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
        );
        if (res.status !== 200) throw new Error(`list answered ${res.status}`);
        const page = (await res.json()) as { papers: { id: string }[]; next_cursor: string | null };
        ids.push(...page.papers.map((p) => p.id));
        if (!page.next_cursor) break;
        cursor = encodeURIComponent(page.next_cursor);
        cursors.push(cursor);
      }
      samples("papers listed", ids.length);
      const readPaths = (): string => {
        const id = pick(ids);
        switch (Math.floor(Math.random() * 7)) {
          case 0: {
            const cursor = pick(cursors);
            return `/api/v1/papers?limit=${pick([10, 20, 50])}${cursor ? `&cursor=${cursor}` : ""}`;
          }
          case 1:
            return `/api/v1/papers/${id}`;
          case 2:
            return `/api/v1/papers/${id}?format=jsonld`;
          case 3:
            return `/api/v1/papers/${id}?format=bibtex`;
          case 4:
          case 5:
            return `/api/v1/papers/${id}/context`;
          default:
            return `/api/v1/papers/${id}/comments`;
        }
      };

      const stats = { reads: 0, writes: 0, unexpected: [] as string[] };
      const rss: number[] = [];
      let maxBytes = 0;
      let maxEntries = 0;
      let over = 0;
      let overHalf = 0;
      let sampled = 0;
      const sample = () => {
        const s = cache.stats();
        sampled++;
        maxBytes = Math.max(maxBytes, s.bytes);
        maxEntries = Math.max(maxEntries, s.entries);
        if (s.bytes > s.maxBytes) over++;
        if (s.bytes > s.maxBytes / 2) overHalf++;
        rss.push(process.memoryUsage().rss);
      };
      sample();
      const sampler = setInterval(sample, SAMPLE_MS);
      const deadline = performance.now() + MINUTES * 60_000;
      const note = (what: string) => {
        if (stats.unexpected.length < 10) stats.unexpected.push(what);
      };
      const reader = async () => {
        while (performance.now() < deadline) {
          const path = readPaths();
          try {
            const headers = pick(ENCODINGS);
            const res = await fetch(`${base}${path}`, headers ? { headers } : {});
            await res.arrayBuffer();
            stats.reads++;
            if (res.status !== 200) note(`GET ${path}: ${res.status}`);
          } catch (error) {
            note(`GET ${path}: ${(error as Error).message}`);
          }
        }
      };
      const writer = async () => {
        for (let n = 0; performance.now() + WRITE_EVERY_MS < deadline; n++) {
          await new Promise((r) => setTimeout(r, WRITE_EVERY_MS));
          const id = ids[n % ids.length] as string;
          const res = await fetch(`${base}/api/v1/papers/${id}/comments`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${archive.agentKeys[n % 2]}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({ body: `bench:cache comment ${n}, written under load` }),
          });
          await res.arrayBuffer();
          stats.writes++;
          if (res.status !== 201) note(`POST comment: ${res.status}`);
        }
      };
      const loadStart = performance.now();
      await Promise.all([...Array.from({ length: CONNECTIONS }, reader), writer()]);
      const seconds = (performance.now() - loadStart) / 1000;
      clearInterval(sampler);
      sample();

      const end = cache.stats();
      samples("samples", sampled);
      samples("reads", stats.reads);
      samples("writes", stats.writes);
      const sorted = [...rss].sort((a, b) => a - b);
      const rssAt = (q: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      const hitRatio = figure("hit ratio", end.hits / Math.max(1, end.hits + end.misses));
      console.log(
        `load: ${seconds.toFixed(0)} s, ${CONNECTIONS} readers (${figure("reads/s", stats.reads / seconds).toFixed(0)} reads/s, ` +
          `${stats.reads} reads), 1 comment every ${WRITE_EVERY_MS} ms (${stats.writes} comments); ${raisedLine()}`,
      );
      console.log("| figure | value |");
      console.log("| --- | --- |");
      console.log(`| cache bound (RESPONSE_CACHE_MB) | ${mb(end.maxBytes)} |`);
      console.log(
        `| cache bytes, highest of ${sampled} samples (every ${SAMPLE_MS} ms) | ${mb(maxBytes)} (${((100 * maxBytes) / end.maxBytes).toFixed(1)} % of the bound) |`,
      );
      console.log(`| samples above the bound | ${over} |`);
      console.log(`| samples above half the bound | ${overHalf} |`);
      console.log(`| entries, most at once | ${maxEntries} |`);
      console.log(
        `| hits / misses / invalidations | ${end.hits} / ${end.misses} / ${end.invalidations} (hit ratio ${hitRatio.toFixed(2)}) |`,
      );
      console.log(
        `| process RSS: first / median / highest / last | ${mb(rss[0] ?? 0)} / ${mb(rssAt(0.5))} / ${mb(rssAt(1))} / ${mb(rss.at(-1) ?? 0)} |`,
      );
      console.log(
        `load average: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")} on ${availableParallelism()} cores`,
      );
      const failures: string[] = [];
      if (over > 0) failures.push(`the cache held more than its bound in ${over} samples`);
      if (stats.unexpected.length > 0) {
        failures.push(`unexpected answers: ${stats.unexpected.join("; ")}`);
      }
      // A run whose load never filled the cache towards its bound proves nothing about it
      // (a smoke run's few seconds may not: it proves the script works).
      if (overHalf === 0 && !SMOKE) failures.push("the cache never held more than half its bound");
      writeResult("cache", {
        settings: {
          engine: ENGINE,
          minutes: MINUTES,
          cacheMb: CACHE_MB,
          connections: CONNECTIONS,
          writeEveryMs: WRITE_EVERY_MS,
          papers: archive.published,
          sampleMs: SAMPLE_MS,
        },
        traffic: {
          seconds,
          reads: stats.reads,
          readsPerSecond: stats.reads / seconds,
          comments: stats.writes,
        },
        cache: {
          boundBytes: end.maxBytes,
          highestBytes: maxBytes,
          highestOfBound: maxBytes / end.maxBytes,
          samples: sampled,
          samplesAboveBound: over,
          samplesAboveHalfBound: overHalf,
          mostEntries: maxEntries,
          hits: end.hits,
          misses: end.misses,
          invalidations: end.invalidations,
          hitRatio,
        },
        rssBytes: {
          first: rss[0] ?? 0,
          median: rssAt(0.5),
          highest: rssAt(1),
          last: rss.at(-1) ?? 0,
        },
        failures,
      });
      if (failures.length > 0) {
        console.log(`FAILED: ${failures.join("; ")}`);
        process.exitCode = 1;
      } else {
        console.log("the cache stayed within its bound in every sample");
      }
    } finally {
      if (server) {
        const http = server as Server;
        const closed = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        await closed;
      }
      await runtime.close();
    }
  },
);
