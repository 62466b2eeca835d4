/** @module Backups of the embedded database: a verified archive of its data directory, and its restore. */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { type Database, type Db, openDatabase } from "../../db/client.ts";
import { rowsOf } from "../../db/sql.ts";
import type { Clock } from "../context.ts";
import { readCatalog } from "./catalog.ts";
import { type TableChecksum, tableChecksums } from "./checksum.ts";
import {
  extractTarGz,
  listArchive,
  readRange,
  sha256Range,
  tarGzDirectory,
  writeArchive,
} from "./tar.ts";

const BACKUP_FORMAT = "quire-backup/1";
const MANIFEST = "quire-backup.json";
const PGDATA = "pgdata.tar.gz";
/** Files of the data directory that belong to a process, not to the database. */
const PROCESS_FILES = ["quire.pid", "postmaster.pid"];

/** A backup that could not be taken, read or restored; nothing was changed. */
export class BackupFailed extends Error {}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  created_at: string;
  /** Taken from a running server through its operator socket, or from a stopped directory. */
  online: boolean;
  /** `select version()` of the engine that wrote the data directory (PGlite's version in it). */
  engine: string;
  /** Drizzle migrations applied in the snapshot. */
  migrations: number;
  pgdata: { file: string; bytes: number; sha256: string };
  tables: TableChecksum[];
}

export interface BackupContext {
  clock: Clock;
  logger: Logger;
}

/** A new directory beside `near` for a snapshot or a restore in progress (mode 0700). */
export function stagingDir(near: string, purpose: "backup" | "restoring"): string {
  return `${resolve(near)}.${purpose}-${randomBytes(4).toString("hex")}`;
}

/**
 * Snapshots a data directory no process is serving (the caller holds its lock) into the
 * new directory `into`. The schema is not migrated: a backup keeps the archive as it was.
 */
export async function snapshotDataDir(dataDir: string, into: string): Promise<void> {
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    throw new BackupFailed(`There is no embedded database in ${resolve(dataDir)}.`);
  }
  const database = await openDatabase({ dataDir, migrate: false });
  try {
    await (database.snapshot as (into: string) => Promise<void>)(into);
  } finally {
    await database.close();
  }
}

/**
 * Writes a backup archive from a snapshot directory (which it consumes): a tar holding
 * `quire-backup.json` (the manifest) and `pgdata.tar.gz` (the data directory). First the
 * snapshot is opened (replaying its WAL, as after a crash) and every table's row count and
 * checksum computed; they go in the manifest, so a snapshot that would not restore fails
 * now, and a restore can prove it got back exactly this. Written to `FILE.partial` and
 * renamed, so FILE is never half written; mode 0600.
 */
export async function writeBackup(
  ctx: BackupContext,
  input: { file: string; snapshot: string; online: boolean },
): Promise<BackupManifest> {
  const createdAt = ctx.clock.now();
  const data = `${input.file}.partial-data`;
  const partial = `${input.file}.partial`;
  try {
    const summary = await summariseDir(input.snapshot);
    mkdirSync(dirname(resolve(input.file)), { recursive: true });
    const packed = await tarGzDirectory(input.snapshot, data, createdAt);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      created_at: createdAt.toISOString(),
      online: input.online,
      engine: summary.engine,
      migrations: summary.migrations,
      pgdata: { file: PGDATA, ...packed },
      tables: summary.tables,
    };
    await writeArchive(
      partial,
      [
        { name: MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
        { name: PGDATA, path: data },
      ],
      createdAt,
    );
    renameSync(partial, input.file);
    ctx.logger.info({ file: input.file, bytes: packed.bytes }, "backup written");
    return manifest;
  } finally {
    rmSync(data, { force: true });
    rmSync(partial, { force: true });
    rmSync(input.snapshot, { recursive: true, force: true });
  }
}

/** Reads and checks an archive: its format, and the data directory's length and SHA-256. */
async function readBackup(
  file: string,
): Promise<{ manifest: BackupManifest; data: { offset: number; size: number } }> {
  if (!existsSync(file)) throw new BackupFailed(`no such file: ${file}`);
  let entries: ReturnType<typeof listArchive>;
  try {
    entries = listArchive(file);
  } catch (error) {
    throw new BackupFailed(`${file} is not a Quire backup: ${(error as Error).message}`);
  }
  const manifestEntry = entries.find((e) => e.name === MANIFEST);
  const data = entries.find((e) => e.name === PGDATA);
  if (!manifestEntry || !data) {
    throw new BackupFailed(`${file} is not a Quire backup (${MANIFEST} or ${PGDATA} is missing)`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readRange(file, manifestEntry).toString("utf8")) as BackupManifest;
  } catch {
    throw new BackupFailed(`${file}: its manifest is not JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT) {
    throw new BackupFailed(`${file}: unknown backup format ${String(manifest.format)}`);
  }
  if (
    data.size !== manifest.pgdata?.bytes ||
    (await sha256Range(file, data)) !== manifest.pgdata.sha256
  ) {
    throw new BackupFailed(`${file} is damaged: the data directory's SHA-256 does not match`);
  }
  return { manifest, data };
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the data directory's previous contents were moved (with `force`), if it had any. */
  replacedTo: string | null;
}

/**
 * Restores an archive into `dataDir` (the caller holds its lock, so no server runs on it).
 * The archive is unpacked into a new directory beside `dataDir` and opened there, and
 * every table's row count and checksum must equal the manifest's; only then does it take
 * `dataDir`'s place. A non-empty `dataDir` is refused unless `force`, and even then its
 * contents are moved aside (`<dataDir>.replaced-<time>`), never deleted.
 */
export async function restoreBackup(
  ctx: BackupContext,
  input: { file: string; dataDir: string; force: boolean },
): Promise<RestoreResult> {
  const dataDir = resolve(input.dataDir);
  const present = existsSync(dataDir)
    ? readdirSync(dataDir).filter((f) => !PROCESS_FILES.includes(f))
    : [];
  if (present.length > 0 && !input.force) {
    throw new BackupFailed(
      `${dataDir} is not empty. Restore into an empty DATA_DIR, or pass --force to move its ` +
        "contents aside (they are kept, not deleted).",
    );
  }
  const { manifest, data } = await readBackup(input.file);
  const staging = stagingDir(dataDir, "restoring");
  try {
    try {
      await extractTarGz(input.file, data, staging);
    } catch (error) {
      throw new BackupFailed(`${input.file} is damaged: ${(error as Error).message}`);
    }
    const summary = await summariseDir(staging, manifest.engine);
    const problems = compareTables(manifest.tables, summary.tables);
    if (problems.length > 0) {
      throw new BackupFailed(
        `${input.file} does not restore to what was backed up:\n  ${problems.join("\n  ")}`,
      );
    }
    let replacedTo: string | null = null;
    mkdirSync(dataDir, { recursive: true });
    if (present.length > 0) {
      replacedTo = `${dataDir}.replaced-${ctx.clock.now().toISOString().replace(/[:.]/g, "-")}`;
      mkdirSync(replacedTo);
      for (const f of present) renameSync(join(dataDir, f), join(replacedTo, f));
    }
    for (const f of readdirSync(staging)) renameSync(join(staging, f), join(dataDir, f));
    ctx.logger.info({ dataDir, replacedTo }, "backup restored");
    return { manifest, replacedTo };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Lines describing where `actual` differs from `expected`; empty when they agree. */
function compareTables(expected: TableChecksum[], actual: TableChecksum[]): string[] {
  const problems: string[] = [];
  const byName = new Map(actual.map((t) => [t.table, t]));
  for (const e of expected) {
    const a = byName.get(e.table);
    if (!a) problems.push(`table ${e.table} is missing`);
    else if (a.rows !== e.rows || a.checksum !== e.checksum) {
      problems.push(
        `table ${e.table}: ${a.rows} rows (${a.checksum}), expected ${e.rows} (${e.checksum})`,
      );
    }
    byName.delete(e.table);
  }
  for (const name of byName.keys()) problems.push(`table ${name} is not in the manifest`);
  return problems;
}

/** Opens a snapshot or unpacked directory (without migrating it) and summarises it. */
async function summariseDir(dir: string, writtenBy?: string) {
  for (const f of PROCESS_FILES) rmSync(join(dir, f), { force: true });
  let database: Database;
  try {
    database = await openDatabase({ dataDir: dir, migrate: false });
  } catch (error) {
    throw new BackupFailed(
      `the snapshot does not open: ${(error as Error).message}` +
        (writtenBy ? ` (it was written by ${writtenBy})` : ""),
    );
  }
  try {
    return await summariseDb(database.db);
  } finally {
    await database.close();
  }
}

/** Engine, migrations and every table's checksum: what a manifest records. */
export async function summariseDb(db: Db) {
  const catalog = await readCatalog(db);
  const tables = await tableChecksums(
    db,
    [...catalog.tables.values()].sort((a, b) => a.name.localeCompare(b.name)),
  );
  const [engine] = await rowsOf<{ v: string }>(db, sql`select version() as v`);
  const [journal] = await rowsOf<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  let migrations = 0;
  if (journal?.present) {
    const [row] = await rowsOf<{ n: string }>(
      db,
      sql`select count(*)::text as n from drizzle.__drizzle_migrations`,
    );
    migrations = Number(row?.n ?? 0);
  }
  return { engine: engine?.v ?? "unknown", migrations, tables };
}
