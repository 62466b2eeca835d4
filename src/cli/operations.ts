/** @module The operator commands that move data: `quire migrate`, `quire backup`, `quire restore`. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Config } from "../config.ts";
import { createLogger } from "../logger.ts";
import { DataDirLocked, lockDataDir } from "../runtime.ts";
import { systemClock } from "../services/context.ts";
import {
  BackupFailed,
  type MigrateEvent,
  type MigrateReport,
  MigrationRefused,
  migrateToPostgres,
  requestSnapshot,
  restoreBackup,
  snapshotDataDir,
  stagingDir,
  writeBackup,
} from "../services/operations/index.ts";
import { createProgress, type Progress } from "./progress.ts";

export interface CommandIo {
  usage(message: string): number;
  fail(message: string): number;
}

/**
 * `quire migrate --to URL`: the embedded archive (DATA_DIR, or --from-data-dir) into an
 * empty PostgreSQL database. The data directory stays locked for the whole run, so the
 * server cannot start on it meanwhile; a running server makes this refuse at once.
 */
export async function migrateCommand(config: Config, args: string[], io: CommandIo) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      to: { type: "string" },
      "from-data-dir": { type: "string" },
      force: { type: "boolean" },
      batch: { type: "string" },
    },
  });
  if (positionals.length > 0 || !values.to) {
    return io.usage("migrate --to postgres://… [--from-data-dir DIR] [--force] [--batch N]");
  }
  if (!/^postgres(ql)?:\/\//.test(values.to)) return io.usage("--to must be a postgres:// URL");
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1 && batch <= 100_000)) {
    return io.usage("--batch must be an integer from 1 to 100000");
  }
  const dataDir = values["from-data-dir"] ?? config.DATA_DIR;
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    return io.fail(`there is no embedded database in ${resolve(dataDir)}`);
  }
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLocked)) throw error;
    return io.fail(
      `${error.message} The embedded engine is single-process: stop the server, then migrate ` +
        "(rows it wrote during the copy would otherwise be lost).",
    );
  }
  const bars = new Map<string, Progress>();
  const onEvent = (event: MigrateEvent) => {
    if (event.kind === "phase") {
      process.stderr.write(`migrate: ${event.message}\n`);
      return;
    }
    let bar = bars.get(event.table);
    if (!bar) {
      bar = createProgress(`copy ${event.table}`, event.total);
      bars.set(event.table, bar);
      if (!event.finished) return;
    }
    if (event.finished) bar.finish(`${event.copied} rows`);
    else if (event.total > 0) bar.tick(event.copied, "");
  };
  try {
    const report = await migrateToPostgres(
      { logger: createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL), onEvent },
      { dataDir, targetUrl: values.to, force: values.force ?? false, batch },
    );
    process.stdout.write(formatReport(report));
    if (!report.ok) {
      return io.fail(
        "verification failed: the target differs from the source (see the table above). " +
          "The progress schema quire_migrate was kept in the target; migrate again into a new, empty database.",
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof MigrationRefused) return io.fail(error.message);
    throw error;
  } finally {
    unlock();
  }
}

/** The verification table, one line per table, then the totals. */
function formatReport(report: MigrateReport): string {
  const header = ["table", "source rows", "target rows", "source checksum", "target checksum", ""];
  const rows = report.tables.map((t) => [
    t.table,
    String(t.source.rows),
    String(t.target.rows),
    t.source.checksum,
    t.target.checksum,
    t.ok ? "ok" : "MISMATCH",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => (i >= 1 && i <= 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd()}\n`;
  const seconds = report.copyMs / 1000;
  const rate = report.rowsCopied / Math.max(seconds, 0.001);
  return [
    line(header),
    ...rows.map(line),
    `counters: ${report.counters.source} papers with inconsistent contribution counters in the source, ${report.counters.target} in the target\n`,
    ...report.generated.map(
      (g) =>
        `generated ${g.table}.${g.columns.join(", ")}: recomputed by the target, ${g.differing} of ${g.rows} rows differ` +
        (g.differing > 0
          ? ` (${report.engines.source} and ${report.engines.target} analyse some words differently; ` +
            "the search index was copied as it was: run `quire reindex` with DATABASE_URL set to the target to rebuild it with the target's analyser)\n"
          : "\n"),
    ),
    `copied ${report.rowsCopied} rows in ${seconds.toFixed(1)} s (${rate.toFixed(0)} rows/s)${report.resumed ? ", resuming an interrupted run" : ""}; ` +
      `${report.sequences} sequences set; indexes created: ${report.indexesCreated.join(", ") || "none"}\n`,
    report.ok ? "verified: every table matches\n" : "NOT verified\n",
  ].join("");
}

const PG_TOOLS =
  'With PostgreSQL (DATABASE_URL), use pg_dump and pg_restore; see docs/operations.md, "Backup and restore".';

/**
 * `quire backup FILE`: a consistent snapshot of the embedded database. With the server
 * stopped, this process opens the directory (under its lock); while the server runs, the
 * server takes the snapshot and sends it over its operator socket.
 */
export async function backupCommand(config: Config, args: string[], io: CommandIo) {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) return io.usage("backup FILE");
  if (config.DATABASE_URL) return io.usage(`backup is for the embedded database. ${PG_TOOLS}`);
  const dataDir = config.DATA_DIR;
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    return io.fail(`there is no embedded database in ${resolve(dataDir)}`);
  }
  const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
  try {
    let snapshot: string;
    let online = false;
    let unlock: (() => void) | null = null;
    try {
      unlock = lockDataDir(dataDir);
    } catch (error) {
      if (!(error instanceof DataDirLocked)) throw error;
    }
    if (unlock) {
      process.stderr.write(`backup: no server is running; copying ${resolve(dataDir)}\n`);
      snapshot = stagingDir(dataDir, "backup");
      try {
        await snapshotDataDir(dataDir, snapshot);
      } finally {
        unlock();
      }
    } else {
      online = true;
      process.stderr.write("backup: the server is running; asking it for a snapshot\n");
      const taken = await requestSnapshot(dataDir);
      snapshot = taken.dir;
      process.stderr.write(`backup: the server copied its data in ${taken.ms} ms\n`);
    }
    process.stderr.write(
      "backup: checking the snapshot (opening it, checksumming every table) and archiving it\n",
    );
    const manifest = await writeBackup({ clock: systemClock, logger }, { file, snapshot, online });
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    process.stdout.write(
      `backup written to ${resolve(file)}: ${manifest.tables.length} tables, ${rows} rows, ` +
        `${(manifest.pgdata.bytes / 1e6).toFixed(1)} MB compressed${online ? ", taken while serving" : ""}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupFailed) return io.fail(error.message);
    throw error;
  }
}

/** `quire restore FILE [--force]`: a backup into DATA_DIR, verified before it is put in place. */
export async function restoreCommand(config: Config, args: string[], io: CommandIo) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: "boolean" } },
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) return io.usage("restore FILE [--force]");
  if (config.DATABASE_URL) return io.usage(`restore is for the embedded database. ${PG_TOOLS}`);
  let unlock: () => void;
  try {
    unlock = lockDataDir(config.DATA_DIR);
  } catch (error) {
    if (!(error instanceof DataDirLocked)) throw error;
    return io.fail(`${error.message} Stop the server before restoring.`);
  }
  try {
    process.stderr.write("restore: checking the archive and unpacking it beside DATA_DIR\n");
    const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
    const result = await restoreBackup(
      { clock: systemClock, logger },
      { file, dataDir: config.DATA_DIR, force: values.force ?? false },
    );
    const rows = result.manifest.tables.reduce((n, t) => n + t.rows, 0);
    process.stdout.write(
      `restored ${resolve(file)} (taken ${result.manifest.created_at}) into ${resolve(config.DATA_DIR)}: ` +
        `${result.manifest.tables.length} tables, ${rows} rows, every checksum verified\n`,
    );
    if (result.replacedTo) {
      process.stdout.write(
        `the previous contents of DATA_DIR were moved to ${result.replacedTo}; delete it when you no longer need it\n`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupFailed) return io.fail(error.message);
    throw error;
  } finally {
    unlock();
  }
}
