/**
 * @module bench:soak — hostile-but-valid requests that each try to leave state behind, and
 * what the server holds afterwards. The real app on a loopback port over a fresh database,
 * with the contract's rate limits (each request comes from its own address of the
 * benchmarking range 198.18.0.0/15, through a trusted proxy, so quotas are drawn on but
 * rarely reached) and a small response cache.
 *
 *   npm run bench:soak                 # 10,000 requests a round, two rounds: 20,000 (PGlite)
 *   npm run bench:soak -- --smoke      # 300 a round (CI, both engines)
 *
 * Each request is one of:
 * - `cache`: an anonymous GET that would be a new response-cache key: unknown query
 *   parameters with long values, a new search query, another list size;
 * - `authorize`: an OAuth authorization request with a long `state` (a pending request row);
 * - `register`: an OAuth dynamic client registration (a client row);
 * - `sign-up`: a new account through the site's form (an owner row, an e-mail token, a session);
 * - `report`: a reader's report on a paper through the site's form (a report row).
 *
 * A round sends the requests, then moves the server's clock past every retention and runs the
 * prune the server runs periodically. Heap (after a full GC), RSS, the response cache's bytes
 * and every table's rows and bytes are read at the start, after each round's requests and
 * after each round's prune. The verdict: after the second prune, every table holds what it
 * held after the first (flat), the heap is within a few MB of it, and the cache never held
 * more than its bound. Results go to bench/results/ (one file per engine: soak-pglite.json,
 * soak-postgres.json).
 *
 * Environment (all optional):
 *   BENCH_REQUESTS     requests a round (default 10000; smoke 300)
 *   BENCH_CONNECTIONS  in flight at once (default 16; smoke 4)
 *   RESPONSE_CACHE_MB  the cache's bound (default 4; smoke 1)
 *   BENCH_ENGINES      pglite or postgres (default pglite; the first one listed)
 *   BENCH_ADMIN_URL    where to create/drop quire_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { createHash, randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type ServerType, serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import { rowsOf } from "../src/db/sql.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import { type Clock, type ServiceContext, systemClock } from "../src/services/context.ts";
import { pruneStores } from "../src/services/lifecycle/index.ts";
import { seedSamplePapers } from "../src/services/papers/seed.ts";
import { withBenchDatabase } from "./lib/database.ts";
import { positive } from "./lib/env.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, SMOKE, samples } from "./lib/smoke.ts";

const REQUESTS = positive("BENCH_REQUESTS", orSmoke(10_000, 300));
const CONNECTIONS = positive("BENCH_CONNECTIONS", orSmoke(16, 4));
const CACHE_MB = positive("RESPONSE_CACHE_MB", orSmoke(4, 1));
const ENGINE = (process.env.BENCH_ENGINES ?? "pglite").split(",")[0]?.trim();
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROUNDS = 2;
/** How far the clock moves after each round: past every retention in docs/data-lifecycle.md. */
const ADVANCE_MS = 400 * 24 * 3600 * 1000;
/** Heap growth from the first prune to the second that still counts as flat. */
const HEAP_SLACK_BYTES = 8 * 1024 * 1024;

if (ENGINE !== "pglite" && ENGINE !== "postgres") {
  throw new Error(`BENCH_ENGINES: unknown engine ${ENGINE}`);
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A clock the benchmark can move forward, as time would pass for the server. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    schedule: systemClock.schedule,
    advance(ms) {
      offset += ms;
    },
  };
}

type Kind = "cache" | "authorize" | "register" | "sign-up" | "report";
/**
 * A round's second half: the requests that write rows, in these proportions (sign-ups cost
 * a password hash each, so fewer of them). The first half is all `cache`: writes empty the
 * cache on every commit, so the cache's bound is tested while nothing else writes.
 */
const WRITES: Kind[] = ["authorize", "authorize", "register", "register", "report", "sign-up"];

interface Snapshot {
  heapUsed: number;
  rss: number;
  cacheBytes: number;
  tables: Record<string, { rows: number; bytes: number }>;
}

async function tableSizes(db: Database): Promise<Snapshot["tables"]> {
  const names = await rowsOf<{ name: string }>(
    db.db,
    sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  );
  const out: Snapshot["tables"] = {};
  for (const { name } of names) {
    const [row] = await rowsOf<{ rows: string; bytes: string }>(
      db.db,
      sql`select (select count(*) from ${sql.identifier(name)}) as rows,
                 pg_total_relation_size(${name}::regclass) as bytes`,
    );
    out[name] = { rows: Number(row?.rows), bytes: Number(row?.bytes) };
  }
  return out;
}

/** An address of 198.18.0.0/15 (RFC 2544's benchmarking range) for request `i`. */
function addressOf(i: number): string {
  const n = i % (2 * 65_536);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

function cookiesOf(res: Response, jar: Map<string, string>): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

function csrfIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error("no CSRF token in the form");
  return match[1];
}

await withBenchDatabase(
  ENGINE,
  { prefix: "quire-bench-soak", adminUrl: ADMIN_URL },
  async (env) => {
    const config = loadConfig({
      ...env,
      LOG_LEVEL: "silent",
      SEED_SAMPLES: "false",
      PORT: "0",
      RESPONSE_CACHE_MB: String(CACHE_MB),
      TRUST_PROXY: "127.0.0.1",
    });
    const logger = createLogger("silent");
    const runtime = await openRuntime(config, logger, { responseCache: true });
    const clock = movableClock();
    runtime.services.clock = clock;
    const ctx: ServiceContext = runtime.services;
    let server: ServerType | undefined;
    try {
      const cache = runtime.responseCache;
      if (!cache) throw new Error("no response cache (RESPONSE_CACHE_MB must be above 0)");
      await seedSamplePapers({ ...ctx, caller: { kind: "operator" } });
      const app = buildApp({
        services: ctx,
        logger,
        baseUrl: config.BASE_URL,
        trustProxy: config.TRUST_PROXY,
        responseCache: cache,
      });
      server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
      });
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const base = `http://127.0.0.1:${port}`;
      const list = (await (await fetch(`${base}/api/v1/papers?limit=100`)).json()) as {
        papers: { id: string }[];
      };
      const ids = list.papers.map((p) => p.id);
      samples("papers", ids.length);

      let maxCacheBytes = 0;
      const snapshot = async (): Promise<Snapshot> => {
        gc();
        const memory = process.memoryUsage();
        return {
          heapUsed: memory.heapUsed,
          rss: memory.rss,
          cacheBytes: cache.stats().bytes,
          tables: await tableSizes(runtime.database),
        };
      };

      // One client registered each round (the prune removes an unused one): the authorization
      // requests name it.
      const redirectUri = "http://127.0.0.1:9/callback";
      const registerClient = async (): Promise<string> => {
        const registered = await fetch(`${base}/register`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": "198.19.255.254" },
          body: JSON.stringify({ client_name: "soak", redirect_uris: [redirectUri] }),
        });
        if (registered.status !== 201) throw new Error(`/register answered ${registered.status}`);
        return ((await registered.json()) as { client_id: string }).client_id;
      };
      const challenge = createHash("sha256").update(randomBytes(32)).digest("base64url");

      const statuses = new Map<string, number>();
      const count = (kind: Kind, status: number) => {
        const key = `${kind} ${status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      };

      let clientId = "";
      const one = async (i: number, kind: Kind): Promise<void> => {
        const from = { "x-forwarded-for": addressOf(i) };
        const id = ids[i % ids.length] as string;
        const tag = `${i.toString(36)}${randomBytes(4).toString("hex")}`;
        let status: number;
        switch (kind) {
          case "cache": {
            const path = [
              `/api/v1/papers/${id}/comments?L${tag}=${"a".repeat(15_000)}`,
              `/api/v1/search/semantic?q=${encodeURIComponent(`method ${tag}`)}`,
              `/api/v1/papers?limit=${1 + (i % 100)}&x${tag}=${"b".repeat(2_000)}`,
            ][i % 3] as string;
            const res = await fetch(`${base}${path}`, { headers: from });
            await res.arrayBuffer();
            status = res.status;
            break;
          }
          case "authorize": {
            const query = new URLSearchParams({
              client_id: clientId,
              redirect_uri: redirectUri,
              response_type: "code",
              code_challenge: challenge,
              code_challenge_method: "S256",
              state: `${tag}${"s".repeat(900)}`,
              resource: `${config.BASE_URL}/mcp`,
            });
            const res = await fetch(`${base}/authorize?${query}`, {
              headers: from,
              redirect: "manual",
            });
            await res.arrayBuffer();
            status = res.status;
            break;
          }
          case "register": {
            const res = await fetch(`${base}/register`, {
              method: "POST",
              headers: { ...from, "content-type": "application/json" },
              body: JSON.stringify({
                client_name: `soak ${tag}`,
                redirect_uris: [`http://127.0.0.1:9/${tag}`],
              }),
            });
            await res.arrayBuffer();
            status = res.status;
            break;
          }
          case "sign-up":
          case "report": {
            const jar = new Map<string, string>();
            // Reports all name one paper: readers beyond the per-target bound are told it is queued.
            const path = kind === "sign-up" ? "/sign-up" : `/report/paper/${ids[0]}`;
            const form = await fetch(`${base}${path}`, {
              headers: { ...from, accept: "text/html" },
            });
            cookiesOf(form, jar);
            const token = csrfIn(await form.text());
            const fields: Record<string, string> =
              kind === "sign-up"
                ? {
                    email: `soak-${tag}@example.test`,
                    handle: `soak${tag}`,
                    password: `pw-${tag}-long enough`,
                  }
                : { reason: "spam", note: `soak ${tag}` };
            const res = await fetch(`${base}${path}`, {
              method: "POST",
              redirect: "manual",
              headers: {
                ...from,
                accept: "text/html",
                "content-type": "application/x-www-form-urlencoded",
                origin: base,
                cookie: cookieHeader(jar),
              },
              body: new URLSearchParams({ _csrf: token, ...fields }),
            });
            await res.arrayBuffer();
            status = res.status;
            break;
          }
        }
        count(kind, status);
        if (status >= 500) throw new Error(`${kind} answered ${status}`);
        maxCacheBytes = Math.max(maxCacheBytes, cache.stats().bytes);
      };

      const phase = async (offset: number, count: number, kindOf: (i: number) => Kind) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            while (next < count) {
              const i = offset + next++;
              await one(i, kindOf(i));
              if ((i + 1) % 2000 === 0) process.stderr.write(`  ${i + 1} requests sent\n`);
            }
          }),
        );
      };
      const round = async (offset: number) => {
        clientId = await registerClient();
        const half = Math.floor(REQUESTS / 2);
        await phase(offset, half, () => "cache");
        await phase(offset + half, REQUESTS - half, (i) => WRITES[i % WRITES.length] as Kind);
      };

      const snapshots: { label: string; at: Snapshot }[] = [
        { label: "start", at: await snapshot() },
      ];
      const pruned: Record<string, number>[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const started = performance.now();
        await round(r * REQUESTS);
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `round ${r + 1}: ${REQUESTS} requests in ${seconds.toFixed(1)} s (${Math.round(REQUESTS / seconds)}/s)`,
        );
        snapshots.push({ label: `after round ${r + 1}`, at: await snapshot() });
        clock.advance(ADVANCE_MS);
        const report = await pruneStores({ ...ctx, caller: { kind: "operator" } });
        if (report.outcome !== "pruned") throw new Error(`prune: ${JSON.stringify(report)}`);
        const failed = report.stores.filter((s) => s.error);
        if (failed.length > 0) throw new Error(`prune failed: ${JSON.stringify(failed)}`);
        pruned.push(Object.fromEntries(report.stores.map((s) => [s.store, s.rows])));
        snapshots.push({ label: `after prune ${r + 1}`, at: await snapshot() });
      }

      const byKind = [...statuses].sort().map(([k, n]) => `${k}: ${n}`);
      console.log(`answers: ${byKind.join(", ")}`);
      const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
      console.log(
        `\n${"".padEnd(16)} | heap     | RSS      | cache    | rows (tables that changed)`,
      );
      const start = snapshots[0]!.at;
      const changed = Object.keys(start.tables).filter((t) =>
        snapshots.some((s) => s.at.tables[t]?.rows !== start.tables[t]?.rows),
      );
      for (const { label, at } of snapshots) {
        const rows = changed.map((t) => `${t} ${at.tables[t]?.rows}`).join(", ");
        console.log(
          `${label.padEnd(16)} | ${mb(at.heapUsed).padStart(8)} | ${mb(at.rss).padStart(8)} | ${mb(at.cacheBytes).padStart(8)} | ${rows}`,
        );
      }
      pruned.forEach((deleted, i) => {
        console.log(`prune ${i + 1} deleted: ${JSON.stringify(deleted)}`);
      });

      const first = snapshots.find((s) => s.label === "after prune 1")!.at;
      const last = snapshots.at(-1)!.at;
      // Rows back to what the first prune left. Bytes: what a prune leaves stays under what
      // one round's rows took (the prune vacuums: the heap is reused and its empty end cut off;
      // B-tree pages a VACUUM frees are recycled by the next one, so a prune's residue carries
      // at most one round of index pages, and does not grow round on round).
      const peak = snapshots.find((s) => s.label === "after round 1")!.at;
      const grown = Object.keys(last.tables).filter((t) => {
        const [a, b] = [first.tables[t], last.tables[t]];
        return (
          (b?.rows ?? 0) > (a?.rows ?? 0) || (b?.bytes ?? 0) > (peak.tables[t]?.bytes ?? 0) + 65_536
        );
      });
      const heapGrowth = figure("heap growth", last.heapUsed - first.heapUsed);
      const verdicts = {
        tablesFlat: grown.length === 0,
        heapFlat: heapGrowth <= HEAP_SLACK_BYTES,
        cacheWithinBound: maxCacheBytes <= cache.maxBytes,
      };
      console.log(
        `\ntables flat after a prune: ${verdicts.tablesFlat ? "met" : `NOT met (${grown.join(", ")} grew)`}`,
      );
      console.log(
        `heap flat after a prune (≤ ${mb(HEAP_SLACK_BYTES)} growth): ${verdicts.heapFlat ? "met" : "NOT met"} (${mb(heapGrowth)})`,
      );
      console.log(
        `cache within its bound (${mb(cache.maxBytes)}): ${verdicts.cacheWithinBound ? "met" : "NOT met"} (max ${mb(maxCacheBytes)})`,
      );
      writeResult(`soak-${ENGINE}`, {
        settings: {
          engine: ENGINE,
          requests: REQUESTS,
          rounds: ROUNDS,
          connections: CONNECTIONS,
          cacheMb: CACHE_MB,
          smoke: SMOKE,
        },
        answers: Object.fromEntries(statuses),
        snapshots,
        pruned,
        maxCacheBytes,
        verdicts,
      });
      if (!verdicts.tablesFlat || !verdicts.cacheWithinBound || (!SMOKE && !verdicts.heapFlat)) {
        process.exitCode = 1;
      }
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await runtime.close();
    }
  },
);
