/**
 * @module A fresh database for one benchmark run: an embedded PGlite directory in the system's
 * temporary folder, or a scratch PostgreSQL database created under the admin URL; either is
 * removed afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withScratchDatabase } from "../../src/testing/scratch.ts";

/** Runs `run` with the environment (DATA_DIR or DATABASE_URL) that points at a fresh database. */
export async function withBenchDatabase<T>(
  engine: "pglite" | "postgres",
  options: { prefix: string; adminUrl: string },
  run: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (engine === "pglite") {
    const dir = mkdtempSync(join(tmpdir(), `${options.prefix}-`));
    try {
      return await run({ DATA_DIR: dir });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return withScratchDatabase(options.adminUrl, "quire_bench", (url) => run({ DATABASE_URL: url }));
}
