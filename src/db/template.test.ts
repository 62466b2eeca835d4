/**
 * @module The pre-initialised data directory: built from this code's migrations, used only
 * while it matches them, and the same database as initdb and the migrations make. (Embedded
 * engine only, so it runs on PGlite whichever engine the suite runs against.)
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./client.ts";
import { migrationState } from "./migrations-state.ts";
import { rowsOf } from "./sql.ts";
import { buildTemplate, freshTemplate, templateKey, templateParts } from "./template.ts";

const root = mkdtempSync(join(tmpdir(), "quire-template-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What the schema is: every column, index, constraint, trigger and function, and the journal. */
async function schemaOf(database: Database): Promise<unknown> {
  const db = database.db;
  return {
    columns: await rowsOf(
      db,
      sql`select table_schema, table_name, column_name, data_type, is_nullable, column_default
          from information_schema.columns where table_schema in ('public', 'drizzle')
          order by 1, 2, 3`,
    ),
    indexes: await rowsOf(
      db,
      sql`select indexdef from pg_indexes where schemaname in ('public', 'drizzle') order by 1`,
    ),
    constraints: await rowsOf(
      db,
      sql`select conrelid::regclass::text as rel, conname, pg_get_constraintdef(oid) as def
          from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`,
    ),
    triggers: await rowsOf(
      db,
      sql`select tgrelid::regclass::text as rel, tgname from pg_trigger where not tgisinternal
          order by 1, 2`,
    ),
    functions: await rowsOf(
      db,
      sql`select proname, pg_get_function_identity_arguments(oid) as args from pg_proc
          where pronamespace = 'public'::regnamespace order by 1, 2`,
    ),
    extensions: await rowsOf(db, sql`select extname from pg_extension order by 1`),
    journal: await rowsOf(
      db,
      sql`select hash, created_at::text from drizzle.__drizzle_migrations order by id`,
    ),
  };
}

describe("the pre-initialised data directory", () => {
  const templates = join(root, "templates");
  let built: string;

  it("is built under a name that says what it was built from, replacing stale ones", async () => {
    mkdirSync(templates, { recursive: true });
    writeFileSync(join(templates, `pgdata-${"0".repeat(64)}.tar`), "built by an older release");
    mkdirSync(join(templates, `pgdata-${"1".repeat(64)}`));
    writeFileSync(join(templates, "unrelated.txt"), "kept");
    built = await buildTemplate(templates);
    expect(readdirSync(templates).sort()).toEqual([`pgdata-${templateKey()}`, "unrelated.txt"]);
    expect(freshTemplate(templates)).toBe(built);
    // A database directory at rest: no process's files in it.
    expect(readdirSync(built)).toContain("PG_VERSION");
    expect(readdirSync(built)).not.toContain("postmaster.pid");
  }, 180_000);

  it("opens as the database initdb and the migrations make, with nothing left to migrate", async () => {
    const dataDir = join(root, "from-template");
    const fromTemplate = await openDatabase({ dataDir, template: templates });
    const fromScratch = await openDatabase({ dataDir: "memory://", template: false });
    try {
      expect((await migrationState(fromTemplate.db)).pending).toEqual([]);
      expect(await schemaOf(fromTemplate)).toEqual(await schemaOf(fromScratch));
      // Usable, not just present: a write and a read.
      await fromTemplate.db.execute(sql`create table t (x int)`);
      await fromTemplate.db.execute(sql`insert into t values (1)`);
    } finally {
      await fromScratch.close();
      await fromTemplate.close();
    }
    // Opened again, it is that database (the template is for a directory with none).
    const again = await openDatabase({ dataDir, template: templates });
    try {
      expect(await rowsOf(again.db, sql`select x from t`)).toEqual([{ x: 1 }]);
    } finally {
      await again.close();
    }
  }, 180_000);

  it("is never used when built from other migrations or another PGlite", () => {
    const parts = templateParts();
    const other = [
      { ...parts, migrations: `${parts.migrations}\n1:added` },
      { ...parts, pglite: "0.0.0" },
      { ...parts, pgvector: "0.0.0" },
    ];
    for (const changed of other) expect(templateKey(changed)).not.toBe(templateKey(parts));
    // A directory holding only a template of another key offers none.
    const stale = join(root, "stale");
    mkdirSync(stale, { recursive: true });
    cpSync(built, join(stale, `pgdata-${templateKey(other[0])}`), { recursive: true });
    expect(freshTemplate(stale)).toBeUndefined();
    expect(freshTemplate(join(root, "missing"))).toBeUndefined();
  });
});
