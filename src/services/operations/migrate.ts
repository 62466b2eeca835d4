/** @module migrateToPostgres: the embedded archive copied into PostgreSQL, table by table, resumable and verified. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type SQL, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { type Database, type Db, openDatabase, runMigrations } from "../../db/client.ts";
import { rowsOf, withTransaction } from "../../db/sql.ts";
import {
  CANONICAL_OUTPUT,
  type Catalog,
  dependencyOrder,
  qualified,
  readCatalog,
  type TableInfo,
} from "./catalog.ts";
import { generatedDifferences, type TableChecksum, tableChecksums } from "./checksum.ts";

/** A migration refused before it changed anything, or stopped by a schema it cannot copy. */
export class MigrationRefused extends Error {}

export interface MigrateInput {
  /** The embedded database's directory; the caller holds its lock for the whole run. */
  dataDir: string;
  /** postgres:// URL of the target database. */
  targetUrl: string;
  /** Resume a migration this tool started in the target from the same source; nothing else. */
  force?: boolean;
  /** Rows per batch (default 2000); a batch also stops at about 8 MB of text. */
  batch?: number;
}

export type MigrateEvent =
  | { kind: "phase"; message: string }
  | { kind: "table"; table: string; copied: number; total: number; finished: boolean };

export interface MigrateContext {
  logger: Logger;
  onEvent?: (event: MigrateEvent) => void;
}

interface VerifiedTable {
  table: string;
  source: TableChecksum;
  target: TableChecksum;
  ok: boolean;
}

export interface MigrateReport {
  /** The run continued a migration an earlier, interrupted run started. */
  resumed: boolean;
  /** Rows inserted by this run (a resumed run counts only its own). */
  rowsCopied: number;
  copyMs: number;
  sequences: number;
  /** Indexes the source had and the migrations do not create (the HNSW index per dimension). */
  indexesCreated: string[];
  tables: VerifiedTable[];
  /** Papers whose contribution counters disagree with their comments and reviews. */
  counters: { source: number; target: number };
  /**
   * Generated columns (computed by each engine, so not copied and not in the checksums)
   * that came out differently on the target, e.g. `chunks.tsv` when the engines' English
   * stemmers differ. Informational: the stored data is identical.
   */
  generated: { table: string; columns: string[]; rows: number; differing: number }[];
  engines: { source: string; target: string };
  ok: boolean;
}

/** The progress tables live in their own schema, so the copy never mistakes them for data. */
const PROGRESS = "quire_migrate";
const DEFAULT_BATCH = 2000;
const BATCH_BYTES = 8 * 1024 * 1024;

interface TableProgress {
  copied: number;
  lastKey: string[] | null;
  done: boolean;
}

/**
 * Copies every table of the embedded database into an empty PostgreSQL database, then
 * proves the copy: row counts and content checksums of every table, computed by the same
 * SQL on both engines, and the contribution counters.
 *
 * Invariants and choices:
 * - The table list comes from the databases' catalogs, not from code: a table in the
 *   source that this version's migrations do not create, a column that differs, a table
 *   without a primary key, or a foreign-key cycle stops the run before any row moves.
 * - The target gets the normal migrations first, then rows in foreign-key order (foreign
 *   keys stay checked, so no orphan can be copied), in keyset-paginated batches. Each
 *   batch commits in one transaction together with its progress row, so an interrupted
 *   run (even `kill -9`) leaves exactly the rows its progress says, and the next run
 *   continues from there.
 * - Inside each batch's transaction the table's user triggers are disabled (the copied
 *   rows already carry the counters those triggers keep; they would count twice) and
 *   enabled again before commit: other sessions never see them disabled, and an
 *   interruption rolls the switch back with the batch. This needs the role to own the
 *   tables (it ran the migrations), not to be a superuser.
 * - A non-empty target is refused. `force` resumes only a migration this tool started in
 *   the target from the same source (its progress schema says so); it never deletes rows.
 * - The whole run holds the target's startup lock, so a `quire serve` started on the
 *   target waits for the end instead of seeding sample papers into a half-copied archive.
 */
export async function migrateToPostgres(
  ctx: MigrateContext,
  input: MigrateInput,
): Promise<MigrateReport> {
  if (!existsSync(join(input.dataDir, "PG_VERSION"))) {
    throw new MigrationRefused(`There is no embedded database in ${resolve(input.dataDir)}.`);
  }
  const batch = input.batch ?? DEFAULT_BATCH;
  if (!Number.isInteger(batch) || batch < 1) throw new MigrationRefused("--batch must be ≥ 1.");
  const emit = ctx.onEvent ?? (() => {});
  emit({ kind: "phase", message: `opening the embedded database in ${input.dataDir}` });
  const source = await openDatabase({ dataDir: input.dataDir });
  try {
    emit({ kind: "phase", message: "connecting to the target" });
    const target = await openDatabase({
      databaseUrl: input.targetUrl,
      migrate: false,
      poolSize: 3,
    });
    try {
      return await target.exclusive(() => migrate(ctx, source, target, input, batch));
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

async function migrate(
  ctx: MigrateContext,
  source: Database,
  target: Database,
  input: MigrateInput,
  batchSize: number,
): Promise<MigrateReport> {
  const emit = ctx.onEvent ?? (() => {});
  const sourceId = await systemIdentifier(source.db);
  const run = await readRun(target.db);
  const resumed = run !== null;
  if (run) {
    if (run.sourceId !== sourceId) {
      throw new MigrationRefused(
        `${target.location} holds an unfinished migration from another embedded database ` +
          `(${run.source}, started ${run.startedAt}); --force resumes only a migration from the same source. ` +
          "Migrate into a new, empty database instead.",
      );
    }
    if (!input.force) {
      throw new MigrationRefused(
        `${target.location} holds an unfinished migration from this embedded database (started ${run.startedAt}). ` +
          "Rerun with --force to resume it.",
      );
    }
    emit({ kind: "phase", message: `resuming the migration started ${run.startedAt}` });
  } else {
    const filled = await tablesWithRows(target.db);
    if (filled.length > 0) {
      throw new MigrationRefused(
        `${target.location} is not empty (rows in ${filled.join(", ")}). Migrate into a new, empty database ` +
          "(createdb) that no `quire serve` has started on. --force does not help: it only resumes an " +
          "interrupted migration of this tool, and never deletes rows.",
      );
    }
    emit({ kind: "phase", message: "migrating the target's schema" });
    try {
      await runMigrations(target);
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      const message = cause ?? (error as Error).message;
      throw new MigrationRefused(
        `The target's migrations failed: ${message}.` +
          (/extension/i.test(message)
            ? " Create the extension first as a superuser (psql -d <database> -c 'create extension vector'), then migrate again."
            : ""),
      );
    }
  }

  const [sourceCatalog, targetCatalog] = [
    await readCatalog(source.db),
    await readCatalog(target.db),
  ];
  const order = planCopy(sourceCatalog, targetCatalog);
  if (!run) {
    const totals = await rowCounts(source.db, order);
    await startRun(target.db, {
      sourceId,
      source: resolve(input.dataDir),
      batch: batchSize,
      tables: order.map((t, i) => ({ name: t.name, position: i, total: totals.get(t.name) ?? 0 })),
    });
  }

  const progress = await readProgress(target.db);
  const totals = await rowCounts(source.db, order);
  const started = performance.now();
  let rowsCopied = 0;
  for (const table of order) {
    const state = progress.get(table.name);
    if (!state) throw new Error(`no progress row for ${table.name}`);
    const total = totals.get(table.name) ?? 0;
    if (state.done) {
      emit({ kind: "table", table: table.name, copied: state.copied, total, finished: true });
      continue;
    }
    const targetTable = targetCatalog.tables.get(table.name) as TableInfo;
    emit({ kind: "table", table: table.name, copied: state.copied, total, finished: false });
    rowsCopied += await copyTable(source.db, target.db, targetTable, state, batchSize, (n) =>
      emit({ kind: "table", table: table.name, copied: n, total, finished: false }),
    );
    emit({ kind: "table", table: table.name, copied: state.copied, total, finished: true });
  }
  const copyMs = Math.round(performance.now() - started);

  emit({ kind: "phase", message: "setting sequences" });
  for (const name of sourceCatalog.sequences) {
    const [value] = await rowsOf<{ last_value: string; is_called: boolean }>(
      source.db,
      sql`select last_value::text as last_value, is_called from ${qualified(name)}`,
    );
    if (!value) continue;
    await target.db.execute(
      sql`select setval(${`"public"."${name.replaceAll('"', '""')}"`}::regclass,
                        ${value.last_value}::int8, ${value.is_called})`,
    );
  }
  const indexesCreated: string[] = [];
  for (const [name, definition] of sourceCatalog.indexes) {
    if (targetCatalog.indexes.has(name)) continue;
    emit({ kind: "phase", message: `creating index ${name}` });
    await target.db.execute(sql.raw(definition));
    indexesCreated.push(name);
  }
  emit({ kind: "phase", message: "analyzing the target" });
  await target.db.execute(sql`analyze`);

  emit({ kind: "phase", message: "verifying: row counts and checksums of every table" });
  const [sourceSums, targetSums] = await Promise.all([
    tableChecksums(source.db, order, { generated: false }),
    tableChecksums(target.db, order, { generated: false }),
  ]);
  const tables = order.map((t, i) => {
    const s = sourceSums[i] as TableChecksum;
    const d = targetSums[i] as TableChecksum;
    return {
      table: t.name,
      source: s,
      target: d,
      ok: s.rows === d.rows && s.checksum === d.checksum,
    };
  });
  const counters = {
    source: await inconsistentCounters(source.db),
    target: await inconsistentCounters(target.db),
  };
  const generated: MigrateReport["generated"] = [];
  for (const table of order) {
    const columns = table.columns.filter((c) => c.generated).map((c) => c.name);
    if (columns.length === 0) continue;
    const diff = await generatedDifferences(source.db, target.db, table);
    generated.push({ table: table.name, columns, ...diff });
  }
  const engines = {
    source: await engineVersion(source.db),
    target: await engineVersion(target.db),
  };
  const ok = tables.every((t) => t.ok) && counters.source === counters.target;
  if (ok) await target.db.execute(sql`drop schema ${sql.identifier(PROGRESS)} cascade`);
  ctx.logger.info({ ok, rowsCopied, copyMs, resumed }, "migration finished");
  return {
    resumed,
    rowsCopied,
    copyMs,
    sequences: sourceCatalog.sequences.length,
    indexesCreated,
    tables,
    counters,
    generated,
    engines,
    ok,
  };
}

async function engineVersion(db: Db): Promise<string> {
  const [row] = await rowsOf<{ v: string }>(db, sql`select split_part(version(), ' on ', 1) as v`);
  return row?.v ?? "unknown";
}

/**
 * The copy order, after checking that the target's schema (this version's migrations)
 * can hold everything the source has: the same tables, the same columns with the same
 * types, primary keys everywhere, the same sequences.
 */
export function planCopy(source: Catalog, target: Catalog): TableInfo[] {
  const problems: string[] = [];
  for (const [name, table] of source.tables) {
    const other = target.tables.get(name);
    if (!other) {
      problems.push(
        `table ${name} is in the source but not in this version's schema: its rows would be lost`,
      );
      continue;
    }
    for (const column of table.columns) {
      const match = other.columns.find((c) => c.name === column.name);
      if (!match) problems.push(`column ${name}.${column.name} is missing from the target`);
      else if (match.type !== column.type || match.generated !== column.generated) {
        problems.push(
          `column ${name}.${column.name} is ${column.type} in the source, ${match.type} in the target`,
        );
      }
    }
    for (const column of other.columns) {
      if (!table.columns.some((c) => c.name === column.name)) {
        problems.push(`column ${name}.${column.name} is in the target only`);
      }
    }
    if (table.primaryKey.length === 0) problems.push(`table ${name} has no primary key`);
    else if (table.primaryKey.join() !== other.primaryKey.join()) {
      problems.push(`table ${name} has another primary key in the target`);
    }
  }
  for (const name of target.tables.keys()) {
    if (!source.tables.has(name)) problems.push(`table ${name} is in the target only`);
  }
  for (const name of source.sequences) {
    if (!target.sequences.includes(name)) {
      problems.push(`sequence ${name} is in the source only`);
    }
  }
  if (problems.length > 0) {
    throw new MigrationRefused(
      `The source's schema does not match this version's migrations; nothing was copied:\n  ${problems.join("\n  ")}`,
    );
  }
  try {
    return dependencyOrder(target.tables);
  } catch (error) {
    throw new MigrationRefused((error as Error).message);
  }
}

/** Copies what is left of one table; returns the rows inserted. */
async function copyTable(
  source: Db,
  target: Db,
  table: TableInfo,
  state: TableProgress,
  batchSize: number,
  onBatch: (copied: number) => void,
): Promise<number> {
  const columns = table.columns.filter((c) => !c.generated);
  const keyIndex = table.primaryKey.map((k) => columns.findIndex((c) => c.name === k));
  const keyColumns = sql.join(
    table.primaryKey.map((k) => sql.identifier(k)),
    sql`, `,
  );
  const keyTypes = keyIndex.map((i) => (columns[i] as { type: string }).type);
  const alias = (i: number) => sql.identifier(`c${i}`);
  const selectList = sql.join(
    columns.map((c, i) => sql`${sql.identifier(c.name)}::text as ${alias(i)}`),
    sql`, `,
  );
  const fetch = async (after: string[] | null): Promise<Batch> => {
    const where = after
      ? sql`where (${keyColumns}) > (${sql.join(
          after.map((v, i) => sql`${v}::${sql.raw(keyTypes[i] as string)}`),
          sql`, `,
        )})`
      : sql``;
    const rows = await withTransaction(source, async (t) => {
      await t.execute(CANONICAL_OUTPUT);
      return rowsOf<Record<string, string | null>>(
        t,
        sql`select ${selectList} from ${qualified(table.name)} ${where}
            order by ${keyColumns} limit ${batchSize}`,
      );
    });
    let bytes = 0;
    let take = rows.length;
    for (let r = 0; r < rows.length; r++) {
      for (let i = 0; i < columns.length; i++) bytes += rows[r]?.[`c${i}`]?.length ?? 0;
      if (bytes > BATCH_BYTES && r > 0) {
        take = r;
        break;
      }
    }
    const kept = rows.slice(0, take);
    const last = kept.at(-1);
    return {
      values: columns.map((_, i) => kept.map((row) => row[`c${i}`] ?? null)),
      count: kept.length,
      lastKey: last ? keyIndex.map((i) => last[`c${i}`] as string) : after,
      done: take === rows.length && rows.length < batchSize,
    };
  };
  const insert = sql`insert into ${qualified(table.name)} (${sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  )}) ${columns.some((c) => c.identityAlways) ? sql`overriding system value` : sql``}`;
  const casts = sql.join(
    columns.map((c, i) => sql`${alias(i)}::${sql.raw(c.type)}`),
    sql`, `,
  );
  const names = sql.join(
    columns.map((_, i) => alias(i)),
    sql`, `,
  );
  const triggers = (action: "disable" | "enable"): SQL[] =>
    table.triggers.map(
      (t) =>
        sql`alter table ${qualified(table.name)} ${sql.raw(action)} trigger ${sql.identifier(t)}`,
    );

  let inserted = 0;
  let next = fetch(state.lastKey);
  for (;;) {
    const batch = await next;
    // Read the next batch from the source while this one is written to the target.
    if (!batch.done && batch.count > 0) {
      next = fetch(batch.lastKey);
      next.catch(() => {}); // awaited (and so reported) on the next turn, if there is one
    }
    await withTransaction(target, async (t) => {
      if (batch.count > 0) {
        for (const statement of triggers("disable")) await t.execute(statement);
        const arrays = sql.join(
          batch.values.map((values) => sql`${sql.param(values)}::text[]`),
          sql`, `,
        );
        await t.execute(sql`${insert} select ${casts} from unnest(${arrays}) as u(${names})`);
        for (const statement of triggers("enable")) await t.execute(statement);
      }
      await t.execute(
        sql`update ${sql.identifier(PROGRESS)}.tables
            set copied = copied + ${batch.count}, last_key = ${sql.param(batch.lastKey)}::text[],
                done = ${batch.done || batch.count === 0}, updated_at = now()
            where name = ${table.name}`,
      );
    });
    inserted += batch.count;
    state.copied += batch.count;
    state.lastKey = batch.lastKey;
    onBatch(state.copied);
    if (batch.done || batch.count === 0) {
      state.done = true;
      return inserted;
    }
  }
}

interface Batch {
  /** Column-major text values, one array per copied column. */
  values: (string | null)[][];
  count: number;
  lastKey: string[] | null;
  done: boolean;
}

async function systemIdentifier(db: Db): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(
    db,
    sql`select system_identifier::text as id from pg_control_system()`,
  );
  return row?.id ?? "unknown";
}

async function tablesWithRows(db: Db): Promise<string[]> {
  const catalog = await readCatalog(db);
  const filled: string[] = [];
  for (const name of catalog.tables.keys()) {
    const [row] = await rowsOf<{ any: boolean }>(
      db,
      sql`select exists (select 1 from ${qualified(name)}) as "any"`,
    );
    if (row?.any) filled.push(name);
  }
  return filled;
}

async function rowCounts(db: Db, tables: TableInfo[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const t of tables) {
    const [row] = await rowsOf<{ n: string }>(
      db,
      sql`select count(*)::text as n from ${qualified(t.name)}`,
    );
    counts.set(t.name, Number(row?.n ?? 0));
  }
  return counts;
}

interface RunRow {
  sourceId: string;
  source: string;
  startedAt: string;
}

async function readRun(db: Db): Promise<RunRow | null> {
  const [exists] = await rowsOf<{ present: boolean }>(
    db,
    sql`select to_regclass(${`${PROGRESS}.run`}) is not null as present`,
  );
  if (!exists?.present) return null;
  const [row] = await rowsOf<{ source_id: string; source: string; started_at: string }>(
    db,
    sql`select source_id, source, started_at::text as started_at from ${sql.identifier(PROGRESS)}.run`,
  );
  return row ? { sourceId: row.source_id, source: row.source, startedAt: row.started_at } : null;
}

async function startRun(
  db: Db,
  run: {
    sourceId: string;
    source: string;
    batch: number;
    tables: { name: string; position: number; total: number }[];
  },
): Promise<void> {
  const schema = sql.identifier(PROGRESS);
  await withTransaction(db, async (t) => {
    await t.execute(sql`create schema ${schema}`);
    await t.execute(sql`create table ${schema}.run (
      one boolean primary key default true check (one),
      source_id text not null, source text not null, batch integer not null,
      started_at timestamptz not null default now())`);
    await t.execute(sql`create table ${schema}.tables (
      name text primary key, position integer not null, source_rows bigint not null,
      copied bigint not null default 0, last_key text[], done boolean not null default false,
      updated_at timestamptz)`);
    await t.execute(
      sql`insert into ${schema}.run (source_id, source, batch) values (${run.sourceId}, ${run.source}, ${run.batch})`,
    );
    for (const table of run.tables) {
      await t.execute(
        sql`insert into ${schema}.tables (name, position, source_rows)
            values (${table.name}, ${table.position}, ${table.total})`,
      );
    }
  });
}

async function readProgress(db: Db): Promise<Map<string, TableProgress>> {
  const rows = await rowsOf<{
    name: string;
    copied: string;
    last_key: string[] | null;
    done: boolean;
  }>(
    db,
    sql`select name, copied::text as copied, last_key, done
        from ${sql.identifier(PROGRESS)}.tables order by position`,
  );
  return new Map(
    rows.map((r) => [r.name, { copied: Number(r.copied), lastKey: r.last_key, done: r.done }]),
  );
}

/**
 * Papers whose comment and review counters (kept by triggers, migration 0005) disagree
 * with the rows they count. The copy disables those triggers, so this is checked on both
 * sides: the target must agree with the source (zero on a healthy archive).
 */
async function inconsistentCounters(db: Db): Promise<number> {
  const [row] = await rowsOf<{ n: string }>(
    db,
    sql`select count(*)::text as n from papers p
        where p.comment_count <> (select count(*) from comments c
                                  where c.paper_id = p.id and c.removed_at is null)
           or p.ai_review_count <> (select count(*) from reviews r where r.paper_id = p.id
                                    and r.kind = 'ai_advisory' and r.removed_at is null)
           or p.human_review_count <> (select count(*) from reviews r where r.paper_id = p.id
                                       and r.kind = 'human' and r.removed_at is null)`,
  );
  return Number(row?.n ?? 0);
}
