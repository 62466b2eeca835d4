/** @module Whether the database carries every migration bundled with this code. */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { fromRoot } from "../paths.ts";
import type { Db } from "./client.ts";

export interface MigrationState {
  /** Migrations bundled with this code. */
  expected: number;
  /** Rows in Drizzle's journal table (a newer release may have applied more). */
  applied: number;
  /** Bundled migrations the database lacks, by tag. */
  pending: string[];
  /** Bundled migrations recorded with another hash: the database ran different SQL. */
  modified: string[];
}

interface Bundled {
  tag: string;
  when: number;
  hash: string;
}

const migrationsFolder = fromRoot("src/db/migrations");
let bundled: Bundled[] | undefined;

/** The bundled journal with each file's hash, as Drizzle's migrator computes them; read once. */
function bundledMigrations(): Bundled[] {
  if (!bundled) {
    const files = readMigrationFiles({ migrationsFolder });
    const journal = (
      JSON.parse(
        // readMigrationFiles has no tags; the journal lists them in the same order.
        readFileSync(`${migrationsFolder}/meta/_journal.json`, "utf8"),
      ) as { entries: { tag: string }[] }
    ).entries;
    bundled = files.map((f, i) => ({
      tag: journal[i]?.tag ?? String(i),
      when: f.folderMillis,
      hash: f.hash,
    }));
  }
  return bundled;
}

/**
 * The bundled migrations as one string (each one's timestamp and hash, in order): equal for
 * two builds exactly when they would leave a database with the same migrations applied.
 */
export function migrationsFingerprint(): string {
  return bundledMigrations()
    .map((m) => `${m.when}:${m.hash}`)
    .join("\n");
}

/**
 * Compares Drizzle's journal table with the bundled migrations. A migration counts as applied
 * when a row has its timestamp (what Drizzle's migrator goes by) and its hash. Throws when the
 * database cannot be queried; a database never migrated has no journal table and reports
 * every migration pending.
 */
export async function migrationState(db: Db): Promise<MigrationState> {
  const expected = bundledMigrations();
  const exists = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  )) as unknown as { rows: { present: boolean }[] };
  const rows = exists.rows[0]?.present
    ? (
        (await db.execute(
          sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations`,
        )) as unknown as { rows: { hash: string; created_at: string }[] }
      ).rows
    : [];
  const byTime = new Map(rows.map((r) => [Number(r.created_at), r.hash]));
  const pending: string[] = [];
  const modified: string[] = [];
  for (const m of expected) {
    const hash = byTime.get(m.when);
    if (hash === undefined) pending.push(m.tag);
    else if (hash !== m.hash) modified.push(m.tag);
  }
  return { expected: expected.length, applied: rows.length, pending, modified };
}
