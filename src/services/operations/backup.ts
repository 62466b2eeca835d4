/** @module Backups of the embedded database: a verified archive of its data directory, and its restore. */
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { type Database, type Db, openDatabase } from "../../db/client.ts";
import type { Clock } from "../context.ts";
import { rowsOf } from "../search/indexing.ts";
import { readCatalog } from "./catalog.ts";
import { type TableChecksum, tableChecksums } from "./checksum.ts";
import { readTar, writeTar } from "./tar.ts";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const BACKUP_FORMAT = "quire-backup/1";
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

/**
 * A snapshot of a data directory no process is serving (the caller holds its lock). The
 * schema is not migrated: a backup keeps the archive exactly as it was.
 */
export async function snapshotDataDir(dataDir: string): Promise<Uint8Array> {
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    throw new BackupFailed(`There is no embedded database in ${resolve(dataDir)}.`);
  }
  const database = await openDatabase({ dataDir, migrate: false });
  try {
    return new Uint8Array(await (await (database.snapshot as () => Promise<Blob>)()).arrayBuffer());
  } finally {
    await database.close();
  }
}

/**
 * Writes a backup archive: a tar holding `quire-backup.json` (the manifest) and
 * `pgdata.tar.gz` (the data directory). Before anything is written, the snapshot is opened
 * in memory and every table's row count and checksum computed; they go in the manifest,
 * so a backup that could not be restored fails now, and a restore can prove it got back
 * exactly this. Written to `FILE.partial` and renamed, so FILE is never half written.
 */
export async function writeBackup(
  ctx: BackupContext,
  input: { file: string; tarball: Uint8Array; online: boolean },
): Promise<BackupManifest> {
  const createdAt = ctx.clock.now().toISOString();
  const [compressed, summary] = await Promise.all([
    gzipAsync(input.tarball),
    summarise(input.tarball),
  ]);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    created_at: createdAt,
    online: input.online,
    engine: summary.engine,
    migrations: summary.migrations,
    pgdata: {
      file: PGDATA,
      bytes: compressed.length,
      sha256: createHash("sha256").update(compressed).digest("hex"),
    },
    tables: summary.tables,
  };
  const archive = writeTar(
    [
      { name: MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: PGDATA, data: compressed },
    ],
    new Date(createdAt),
  );
  const partial = `${input.file}.partial`;
  mkdirSync(dirname(resolve(input.file)), { recursive: true });
  writeFileSync(partial, archive, { mode: 0o600 });
  renameSync(partial, input.file);
  ctx.logger.info({ file: input.file, bytes: archive.length }, "backup written");
  return manifest;
}

/** Reads and checks an archive: its format, and the data directory's SHA-256. */
export async function readBackup(
  file: string,
): Promise<{ manifest: BackupManifest; tarball: Uint8Array }> {
  if (!existsSync(file)) throw new BackupFailed(`no such file: ${file}`);
  let entries: ReturnType<typeof readTar>;
  try {
    entries = readTar(readFileSync(file));
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
    manifest = JSON.parse(Buffer.from(manifestEntry.data).toString("utf8")) as BackupManifest;
  } catch {
    throw new BackupFailed(`${file}: its manifest is not JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT) {
    throw new BackupFailed(`${file}: unknown backup format ${String(manifest.format)}`);
  }
  const sha256 = createHash("sha256").update(data.data).digest("hex");
  if (sha256 !== manifest.pgdata?.sha256 || data.data.length !== manifest.pgdata.bytes) {
    throw new BackupFailed(`${file} is damaged: the data directory's SHA-256 does not match`);
  }
  let tarball: Uint8Array;
  try {
    tarball = await gunzipAsync(data.data);
  } catch (error) {
    throw new BackupFailed(`${file} is damaged: ${(error as Error).message}`);
  }
  return { manifest, tarball };
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
  const { manifest, tarball } = await readBackup(input.file);
  const staging = `${dataDir}.restoring-${randomBytes(4).toString("hex")}`;
  try {
    let database: Database;
    try {
      database = await openDatabase({
        dataDir: staging,
        loadDataDir: new Blob([tarball], { type: "application/x-tar" }),
        migrate: false,
      });
    } catch (error) {
      throw new BackupFailed(
        `${input.file} does not open with this version's engine (${(error as Error).message}); ` +
          `it was written by ${manifest.engine}`,
      );
    }
    try {
      const summary = await summariseDb(database.db);
      const problems = compareTables(manifest.tables, summary.tables);
      if (problems.length > 0) {
        throw new BackupFailed(
          `${input.file} does not restore to what was backed up:\n  ${problems.join("\n  ")}`,
        );
      }
    } finally {
      await database.close();
    }
    for (const f of PROCESS_FILES) rmSync(join(staging, f), { force: true });
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
export function compareTables(expected: TableChecksum[], actual: TableChecksum[]): string[] {
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

async function summarise(tarball: Uint8Array) {
  let database: Database;
  try {
    database = await openDatabase({
      dataDir: "memory://",
      loadDataDir: new Blob([tarball], { type: "application/x-tar" }),
      migrate: false,
    });
  } catch (error) {
    throw new BackupFailed(`the snapshot does not open: ${(error as Error).message}`);
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
