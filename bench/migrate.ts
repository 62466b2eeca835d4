/**
 * Migration and backup benchmark at scale: an embedded archive of the sample papers plus
 * BENCH_PAPERS arXiv abstracts imported with the import service (and owners, a session,
 * agents, comments, reviews, moderation, vectors from the local fake embedding model, a
 * dataset snapshot: `populateArchive`), then
 *
 *   - the migration into a scratch PostgreSQL database (`migrateToPostgres`, what `quire
 *     migrate` runs): rows copied, rows/s of the copy, time of the verification;
 *   - every public API response over both databases compared (`compareResponses`), every
 *     BENCH_SAMPLE-th paper's detail requests, and every list page, search, export and feed;
 *   - a backup: the snapshot (the file copy a serving process's requests wait for), the
 *     archive (opening the copy and checksumming every table, tar and gzip), and a restore
 *     with its verification.
 *
 *   npm run bench:migrate
 *   npm run bench:migrate -- --smoke   # 20 abstracts, every 5th paper compared (CI)
 *
 * Environment (all optional):
 *   BENCH_PAPERS      arXiv abstracts to import (default 5000)
 *   BENCH_SAMPLE      compare the detail requests of every n-th paper (default 10; 1 for all,
 *                     which takes about an hour at 5,000 on a busy 2-core machine)
 *   BENCH_BATCH       rows per copy batch (default: migrate's, 2000)
 *   BENCH_KEEP_DIR    build the embedded archive there and keep it; reused when it exists
 *   BENCH_ADMIN_URL   where to create/drop quire_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 * Exits 1 if the migration does not verify or any response differs beyond search scores.
 * The figures go to bench/results/migrate.json and .md (bench/lib/results.ts).
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { type Database, openDatabase } from "../src/db/client.ts";
import { systemClock } from "../src/services/context.ts";
import { restoreBackup, stagingDir, writeBackup } from "../src/services/operations/backup.ts";
import { migrateToPostgres } from "../src/services/operations/migrate.ts";
import { createHttpEmbedder } from "../src/services/search/embedder.ts";
import { compareResponses } from "../src/testing/api-responses.ts";
import {
  ARCHIVE_MODEL,
  archiveResponses,
  type PopulatedArchive,
  populateArchive,
} from "../src/testing/archive.ts";
import { testContext } from "../src/testing/db.ts";
import { startFakeEmbeddingServer } from "../src/testing/embeddings-server.ts";
import { withScratchDatabase } from "../src/testing/scratch.ts";
import { writeResult } from "./lib/results.ts";
import { orSmoke, samples } from "./lib/smoke.ts";

const PAPERS = Number(process.env.BENCH_PAPERS ?? orSmoke(5000, 20));
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? orSmoke(10, 5));
const BATCH = process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined;
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  log(
    `bench:migrate: ${PAPERS} abstracts + samples; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`,
  );
  const embeddings = await startFakeEmbeddingServer(64);
  const embedder = () => createHttpEmbedder({ url: embeddings.url, model: ARCHIVE_MODEL });
  const keep = process.env.BENCH_KEEP_DIR;
  const root = mkdtempSync(join(tmpdir(), "quire-bench-migrate-"));
  const dataDir = keep ?? join(root, "data");
  const factsFile = join(`${dataDir}.facts.json`);
  let failed = false;
  const figures: Record<string, unknown> = {
    settings: { papers: PAPERS, sample: SAMPLE, batch: BATCH ?? "default" },
  };
  try {
    let archive: PopulatedArchive;
    if (keep && existsSync(factsFile)) {
      archive = JSON.parse(readFileSync(factsFile, "utf8")) as PopulatedArchive;
      log(`reusing the archive in ${dataDir}`);
    } else {
      const database = await openDatabase({ dataDir });
      try {
        archive = await populateArchive(testContext(database, { embedder: embedder() }), {
          abstracts: PAPERS,
          onImported: (n) => {
            if (n % 500 === 0) process.stderr.write(`imported ${n}/${PAPERS}\n`);
          },
        });
      } finally {
        await database.close();
      }
      writeFileSync(factsFile, JSON.stringify(archive));
    }
    log(
      `import: ${archive.imported.published} abstracts in ${seconds(archive.imported.ms)} ` +
        `(${(archive.imported.ms / Math.max(1, archive.imported.published)).toFixed(0)} ms a paper, importPapers on PGlite)`,
    );
    figures.import = {
      abstracts: archive.imported.published,
      seconds: archive.imported.ms / 1000,
      msPerPaper: archive.imported.ms / Math.max(1, archive.imported.published),
    };

    await withScratchDatabase(ADMIN_URL, "quire_bench", async (url) => {
      const started = performance.now();
      const report = await migrateToPostgres(
        {
          logger: pino({ level: "silent" }),
          onEvent: (e) => {
            if (e.kind === "phase") process.stderr.write(`migrate: ${e.message}\n`);
          },
        },
        { dataDir, targetUrl: url, ...(BATCH ? { batch: BATCH } : {}) },
      );
      const total = performance.now() - started;
      const rows = report.tables.reduce((n, t) => n + t.source.rows, 0);
      samples("rows copied", report.rowsCopied);
      log(
        `migrate: ${report.tables.length} tables, ${rows} rows; copy ${report.rowsCopied} rows in ${seconds(report.copyMs)} ` +
          `= ${(report.rowsCopied / (report.copyMs / 1000)).toFixed(0)} rows/s; whole run (open, migrations, copy, ` +
          `indexes, analyze, verification) ${seconds(total)}; ${report.ok ? "verified" : "NOT VERIFIED"}`,
      );
      for (const t of [...report.tables]
        .sort((a, b) => b.source.rows - a.source.rows)
        .slice(0, 5)) {
        log(
          `  ${t.table.padEnd(18)} ${String(t.source.rows).padStart(9)} rows ${t.ok ? "ok" : "MISMATCH"}`,
        );
      }
      for (const g of report.generated) {
        log(`  generated ${g.table}: ${g.differing} of ${g.rows} rows differ between the engines`);
      }
      if (!report.ok) failed = true;
      figures.migrate = {
        tables: report.tables.length,
        rows,
        rowsCopied: report.rowsCopied,
        copySeconds: report.copyMs / 1000,
        rowsPerSecond: report.rowsCopied / (report.copyMs / 1000),
        wholeRunSeconds: total / 1000,
        verified: report.ok,
      };
      figures.largestTables = [...report.tables]
        .sort((a, b) => b.source.rows - a.source.rows)
        .slice(0, 5)
        .map((t) => ({ table: t.table, rows: t.source.rows, ok: t.ok }));
      figures.generatedColumns = report.generated.map((g) => ({
        table: g.table,
        rows: g.rows,
        differing: g.differing,
      }));

      const source = await openDatabase({ dataDir, migrate: false });
      const target = await openDatabase({ databaseUrl: url, migrate: false, poolSize: 4 });
      try {
        const collect = async (database: Database) => {
          const t0 = performance.now();
          const responses = await archiveResponses(database, archive, embedder(), {
            withAgentKeys: true,
            sample: SAMPLE,
          });
          return { responses, ms: performance.now() - t0 };
        };
        const a = await collect(source);
        const b = await collect(target);
        const comparison = compareResponses(a.responses, b.responses);
        log(
          `responses: ${a.responses.size} requests per engine (PGlite ${seconds(a.ms)}, PostgreSQL ${seconds(b.ms)}); ` +
            `${comparison.identical} byte-identical, ${comparison.scoresOnly.length} searches equal but for scores (< 1e-6), ` +
            `${comparison.different.length} different`,
        );
        figures.responses = {
          requestsPerEngine: a.responses.size,
          pgliteSeconds: a.ms / 1000,
          postgresSeconds: b.ms / 1000,
          byteIdentical: comparison.identical,
          equalButForScores: comparison.scoresOnly.length,
          different: comparison.different.length,
        };
        if (comparison.different.length > 0) {
          failed = true;
          for (const path of comparison.different.slice(0, 10)) log(`  differs: ${path}`);
        }
      } finally {
        await source.close();
        await target.close();
      }
    });

    const database = await openDatabase({ dataDir, migrate: false });
    const snapshot = stagingDir(join(root, "snapshot"), "backup");
    const t0 = performance.now();
    try {
      await (database.snapshot as (into: string) => Promise<void>)(snapshot);
    } finally {
      await database.close();
    }
    const snapshotMs = performance.now() - t0;
    const copied = directoryBytes(snapshot);
    const file = join(root, "bench.quire");
    const ctx = { clock: systemClock, logger: pino({ level: "silent" }) };
    const t1 = performance.now();
    const manifest = await writeBackup(ctx, { file, snapshot, online: false });
    const writeMs = performance.now() - t1;
    const t2 = performance.now();
    await restoreBackup(ctx, { file, dataDir: join(root, "restored"), force: false });
    const restoreMs = performance.now() - t2;
    log(
      `backup: snapshot ${seconds(snapshotMs)} (copied ${(copied / 1e6).toFixed(0)} MB of a ${(directoryBytes(dataDir) / 1e6).toFixed(0)} MB directory; ` +
        `what requests wait for while serving), archive ${(manifest.pgdata.bytes / 1e6).toFixed(1)} MB checked and written in ${seconds(writeMs)}, ` +
        `restore with verification ${seconds(restoreMs)}`,
    );
    figures.backup = {
      snapshotSeconds: snapshotMs / 1000,
      snapshotCopiedBytes: copied,
      dataDirectoryBytes: directoryBytes(dataDir),
      archiveBytes: manifest.pgdata.bytes,
      archiveSeconds: writeMs / 1000,
      restoreSeconds: restoreMs / 1000,
    };
    writeResult("migrate", figures);
  } finally {
    await embeddings.close();
    rmSync(root, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

process.exitCode = await main();
