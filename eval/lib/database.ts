/**
 * @module The database an evaluation runs on: PGlite in a temporary directory by default, or a
 * scratch PostgreSQL database, or one the caller names and keeps (so a rerun reuses its import).
 *
 *   EVAL_ENGINE        pglite (default) or postgres
 *   EVAL_DATA_DIR      keep the PGlite database here and reuse it on the next run
 *   EVAL_DATABASE_URL  use (and keep) this PostgreSQL database (implies postgres)
 *   EVAL_ADMIN_URL     where to create/drop quire_eval_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 *   EVAL_SEARCH        search settings over the defaults, as JSON (see `evalSearchSettings`)
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type BulkPaper, bulkLoadPapers } from "../../bench/lib/bulk-load.ts";
import { rowsOf } from "../../src/db/sql.ts";
import type { Runtime } from "../../src/runtime.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { rebuildSearchIndex } from "../../src/services/search/index.ts";

const EVAL_ENGINE: "pglite" | "postgres" =
  process.env.EVAL_ENGINE === "postgres" || process.env.EVAL_DATABASE_URL ? "postgres" : "pglite";
const ADMIN_URL = process.env.EVAL_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Runs `run` with the environment (DATA_DIR or DATABASE_URL) of the evaluation's database. */
export async function withEvalDatabase<T>(
  prefix: string,
  run: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (EVAL_ENGINE === "pglite") {
    const keep = process.env.EVAL_DATA_DIR;
    const dir = keep ?? mkdtempSync(join(tmpdir(), `quire-${prefix}-`));
    try {
      return await run({ DATA_DIR: dir });
    } finally {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    }
  }
  const keep = process.env.EVAL_DATABASE_URL;
  if (keep) return run({ DATABASE_URL: keep });
  const name = `quire_eval_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return await run({ DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * fetch with one retry on a network error: between runs the server may close an idle
 * keep-alive socket just as the client reuses it (ECONNRESET), which says nothing about search.
 */
export async function fetchRetrying(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch {
    return fetch(url);
  }
}

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * The runtime's search settings with EVAL_SEARCH's over them (JSON, e.g.
 * '{"translationSenses":false}'), logged when set: how an evaluation measures a setting
 * without changing the code.
 */
export function evalSearchSettings(current: ServiceContext["search"]): ServiceContext["search"] {
  const raw = process.env.EVAL_SEARCH;
  if (!raw) return current;
  log(`search settings: ${raw}`);
  return { ...current, ...(JSON.parse(raw) as ServiceContext["search"]) };
}

/**
 * Loads `corpus` and builds the search index, unless the database already holds papers (a kept
 * EVAL_DATA_DIR or EVAL_DATABASE_URL from an earlier run, which is reused as it is).
 */
export async function loadCorpusOnce(rt: Runtime, corpus: readonly BulkPaper[]): Promise<void> {
  const [existing] = await rowsOf<{ n: number }>(
    rt.database.db,
    sql`select count(*)::int as n from papers`,
  );
  if (Number(existing?.n ?? 0) > 0) {
    log(`reusing the ${existing?.n} papers already in this database`);
    return;
  }
  let started = performance.now();
  const loaded = await bulkLoadPapers(rt.services, corpus, { count: corpus.length });
  log(
    `loaded ${loaded.loaded} papers (${loaded.skipped} refused by the screener) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  started = performance.now();
  const built = await rebuildSearchIndex(rt.services);
  log(`indexed ${built.chunks} chunks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await rt.database.db.execute(sql`analyze`);
}
