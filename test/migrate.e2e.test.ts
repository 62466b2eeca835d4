/**
 * `quire migrate` end to end: an embedded archive with rows in every table (the sample
 * papers, generated abstracts imported through the import service, owners, a session, agents,
 * comments, reviews, moderation, embeddings from a local fake model and a queue, a dataset
 * snapshot) is migrated by the real command into scratch PostgreSQL databases.
 *
 * - The copy verifies (every table listed, counts and checksums equal), and every public
 *   API response served over the two databases is byte-for-byte the same.
 * - `kill -9` in the middle of the copy, then a rerun (refused without --force, resumed
 *   with it) ends in the same database as the uninterrupted run.
 * - A role that owns the target database but is no superuser can migrate (once the
 *   extension exists; without it, the refusal says what to do).
 * - A non-empty target, a served source and a table the schema does not know are refused.
 *
 * ABSTRACTS is 300 here: importing costs ~100 ms a paper on PGlite on a loaded machine, so
 * 5,000 take ~10 minutes; `npm run bench:migrate` does the 5,000 and prints the figures.
 * Migration needs PostgreSQL as well as PGlite, so this file always uses it:
 * TEST_DATABASE_URL's server when set, else the local default.
 */
import { randomBytes } from "node:crypto";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { rowsOf } from "../src/db/sql.ts";
import { readCatalog } from "../src/services/operations/catalog.ts";
import { tableChecksums } from "../src/services/operations/checksum.ts";
import { compareResponses } from "../src/testing/api-responses.ts";
import {
  archiveResponses,
  type EmbeddedArchive,
  embeddedArchive,
  type PopulatedArchive,
} from "../src/testing/archive.ts";
import { runQuire, spawnQuire } from "../src/testing/quire-cli.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ABSTRACTS = 300;
let fixture: EmbeddedArchive;
let root: string;
let dataDir: string;
let archive: PopulatedArchive;
/** The database of the first, uninterrupted migration. */
let migrated: string;
const drops: (() => Promise<void>)[] = [];

async function scratch(): Promise<string> {
  const db = await createScratchDatabase(ADMIN_URL, "quire_migrate");
  drops.push(db.drop);
  return db.url;
}

beforeAll(async () => {
  fixture = await embeddedArchive("quire-migrate-", { abstracts: ABSTRACTS });
  ({ root, dataDir, archive } = fixture);
}, 900_000);

afterAll(async () => {
  for (const drop of drops) await drop();
  await fixture?.close();
});

function tableLines(stdout: string): string[][] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith("table "));
  const end = lines.findIndex((l) => l.startsWith("counters:"));
  return lines.slice(start + 1, end).map((l) => l.trim().split(/\s+/));
}

describe("quire migrate", () => {
  it("copies every table, verifies it, and both engines answer every API request identically", async () => {
    migrated = await scratch();
    const run = await runQuire(["migrate", "--to", migrated], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("verified: every table matches");
    expect(run.stderr).toMatch(/copy chunks \[#{24}\] 100%/);

    // Every table of the schema is in the table, has rows (the archive fills them all) and
    // matches. The one generated column is reported apart, with the engines named.
    const rows = tableLines(run.stdout);
    const target = await openDatabase({ databaseUrl: migrated, migrate: false, poolSize: 4 });
    try {
      const catalog = await readCatalog(target.db);
      expect(rows.map((r) => r[0]).sort()).toEqual([...catalog.tables.keys()].sort());
      for (const [name, sourceRows, targetRows, , , verdict] of rows) {
        expect(Number(sourceRows), `${name} has rows`).toBeGreaterThan(0);
        expect(targetRows, name).toBe(sourceRows);
        expect(verdict, name).toBe("ok");
      }
      expect(run.stdout).toMatch(/generated chunks\.tsv: recomputed by the target/);
      expect(run.stdout).toContain("indexes created: chunk_embeddings_hnsw_64");
      const [progress] = await rowsOf<{ gone: boolean }>(
        target.db,
        sql`select to_regclass('quire_migrate.run') is null as gone`,
      );
      expect(progress?.gone).toBe(true);

      const source = await openDatabase({ dataDir, migrate: false });
      try {
        const [a, b] = await Promise.all([responses(source), responses(target)]);
        expect(a.size).toBeGreaterThan(archive.published * 10);
        // Byte for byte, except search scores, which may differ below 1e-6 (the engines'
        // float arithmetic rounds differently: SCORE_TOLERANCE); results, order and quotes
        // are the same.
        const comparison = compareResponses(a, b);
        expect(comparison.different).toEqual([]);
        expect(comparison.identical).toBe(a.size - comparison.scoresOnly.length);
        for (const path of comparison.scoresOnly) expect(path).toMatch(/^\/api\/v1\/search\//);
      } finally {
        await source.close();
      }
    } finally {
      await target.close();
    }
  }, 1_200_000);

  it("resumes after kill -9 mid-copy (with --force only) and ends identical", async () => {
    const url = await scratch();
    const first = spawnQuire(["migrate", "--to", url, "--batch", "20"], { DATA_DIR: dataDir });
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    let partial: { name: string; copied: string } | undefined;
    try {
      for (;;) {
        const state = await watcher
          .query<{ name: string; copied: string }>(
            `select name, copied::text as copied from quire_migrate.tables
             where copied > 0 and not done`,
          )
          .catch(() => ({ rows: [] }));
        partial = state.rows[0];
        if (partial || first.child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await watcher.end();
    }
    first.child.kill("SIGKILL");
    const killed = await first.exited;
    expect(killed.signal, first.output()).toBe("SIGKILL");
    expect(partial, "killed while a table was half copied").toBeDefined();

    const refused = await runQuire(["migrate", "--to", url], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Rerun with --force to resume it");

    const resumed = await runQuire(["migrate", "--to", url, "--force"], { DATA_DIR: dataDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("resuming an interrupted run");
    expect(resumed.stdout).toContain("verified: every table matches");

    // The same database as the uninterrupted migration, generated columns included.
    const [a, b] = [
      await openDatabase({ databaseUrl: migrated, migrate: false, poolSize: 2 }),
      await openDatabase({ databaseUrl: url, migrate: false, poolSize: 2 }),
    ];
    try {
      const tables = [...(await readCatalog(a.db)).tables.values()];
      expect(await tableChecksums(b.db, tables)).toEqual(await tableChecksums(a.db, tables));
    } finally {
      await a.close();
      await b.close();
    }
  }, 1_200_000);

  it("needs only to own the tables, not to be a superuser", async () => {
    const role = `quire_owner_${randomBytes(4).toString("hex")}`;
    const password = randomBytes(12).toString("hex");
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const url = new URL(ADMIN_URL);
    url.username = role;
    url.password = password;
    url.pathname = `/${role}`;
    try {
      await admin.query(`create role ${role} login password '${password}'`);
      await admin.query(`create database ${role} owner ${role}`);
      const refused = await runQuire(["migrate", "--to", url.toString()], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('permission denied to create extension "vector"');
      expect(refused.stderr).toContain("create extension vector");

      // As docs/operations.md says: a superuser creates the extension; the owner does the rest.
      const asSuperuser = new URL(ADMIN_URL);
      asSuperuser.pathname = `/${role}`;
      const db = new pg.Client({ connectionString: asSuperuser.toString() });
      await db.connect();
      await db.query("create extension vector");
      await db.end();
      const run = await runQuire(["migrate", "--to", url.toString()], { DATA_DIR: dataDir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("verified: every table matches");
    } finally {
      await admin.query(`drop database if exists ${role} with (force)`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    }
  }, 600_000);

  it("refuses a non-empty target, with or without --force, and changes nothing", async () => {
    for (const extra of [[], ["--force"]]) {
      const run = await runQuire(["migrate", "--to", migrated, ...extra], { DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("is not empty");
      expect(run.stderr).toContain("never deletes rows");
    }
  }, 600_000);

  it("refuses while the source is being served (its lock file names a live process)", async () => {
    writeFileSync(join(dataDir, "quire.pid"), String(process.pid));
    try {
      const run = await runQuire(["migrate", "--to", "postgres://nobody@127.0.0.1:1/none"], {
        DATA_DIR: dataDir,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`in use by process ${process.pid}`);
      expect(run.stderr).toContain("stop the server, then migrate");
    } finally {
      rmSync(join(dataDir, "quire.pid"), { force: true });
    }
  });

  it("fails loudly on a table the schema does not know, before copying anything", async () => {
    const copy = join(root, "with-stray-table");
    cpSync(dataDir, copy, { recursive: true });
    const database = await openDatabase({ dataDir: copy, migrate: false });
    await database.db.execute(sql`create table stray_notes (id integer primary key, note text)`);
    await database.db.execute(sql`insert into stray_notes values (1, 'kept by hand')`);
    await database.close();

    const url = await scratch();
    const run = await runQuire(["migrate", "--to", url], { DATA_DIR: copy });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("nothing was copied");
    expect(run.stderr).toContain("table stray_notes is in the source but not in this version");
    const target = new pg.Client({ connectionString: url });
    await target.connect();
    try {
      const { rows } = await target.query<{ n: string; progress: string | null }>(
        "select (select count(*) from papers)::text as n, to_regclass('quire_migrate.run')::text as progress",
      );
      expect(rows[0]).toEqual({ n: "0", progress: null });
    } finally {
      await target.end();
    }
  }, 600_000);
});

/** Every API response of the app over `database`, at one fixed instant. */
function responses(database: Database) {
  return archiveResponses(database, archive, fixture.embedder(), { withAgentKeys: true });
}
