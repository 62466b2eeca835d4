/**
 * @module Once per `vitest run`: a migrated database every test file's fresh database is
 * copied from, instead of running all migrations again for each (seconds each on a loaded
 * machine, hundreds of times a run).
 *
 * - Embedded engine: an in-memory PGlite is migrated and dumped (`dumpDataDir`) to a file;
 *   `createTestDatabase` loads it (`loadDataDir`) into each new in-memory PGlite.
 * - PostgreSQL (TEST_DATABASE_URL): a migrated database `quire_test_template_<random>`;
 *   `createTestDatabase` creates each scratch database `TEMPLATE` it, then runs the
 *   migrator anyway (a no-op that proves the copy is current).
 *
 * Both are handed to the workers in the environment (QUIRE_TEST_PGLITE_TEMPLATE,
 * QUIRE_TEST_PG_TEMPLATE) and removed at the end of the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/client.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = await createScratchDatabase(url, "quire_test_template");
    const database = await openDatabase({ databaseUrl: template.url, poolSize: 1 });
    await database.close();
    process.env.QUIRE_TEST_PG_TEMPLATE = new URL(template.url).pathname.slice(1);
    return async () => {
      delete process.env.QUIRE_TEST_PG_TEMPLATE;
      await template.drop();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "quire-test-template-"));
  const file = join(dir, "pglite.tar");
  const database = await openDatabase({ dataDir: "memory://" });
  try {
    const blob = await database.dumpDataDir?.();
    if (!blob) throw new Error("the embedded engine cannot dump its data directory");
    writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  } finally {
    await database.close();
  }
  process.env.QUIRE_TEST_PGLITE_TEMPLATE = file;
  return async () => {
    delete process.env.QUIRE_TEST_PGLITE_TEMPLATE;
    rmSync(dir, { recursive: true, force: true });
  };
}
