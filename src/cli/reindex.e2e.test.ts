/**
 * @module `quire reindex` end to end: the real command in a child process, against a fresh
 * embedded data directory and a real local embeddings server that fails, then recovers.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// biome-ignore lint/style/noRestrictedImports: the test makes the archive look older than captions, with no server holding it.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// biome-ignore lint/style/noRestrictedImports: as above.
import { openDatabase } from "../db/client.ts";
// biome-ignore lint/style/noRestrictedImports: as above.
import { rowsOf } from "../db/sql.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../testing/embeddings-server.ts";
import { paperInput } from "../testing/factories.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin", "quire.js");
const TIMEOUT_MS = 240_000;

let dir: string;
let server: FakeEmbeddingServer;
const CAPTION = "Figure 1: Estimated gap against steps.";

/** The caption chunks in the data directory (no server may hold it meanwhile). */
async function captionChunks(remove = false): Promise<string[]> {
  const database = await openDatabase({ dataDir: join(dir, "data") });
  try {
    if (remove) await database.db.execute(sql`delete from chunks where field = 'caption'`);
    const rows = await rowsOf<{ content: string }>(
      database.db,
      sql`select content from chunks where field = 'caption' order by id`,
    );
    return rows.map((r) => r.content);
  } finally {
    await database.close();
  }
}

function quire(args: string[], extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "PORT", "HOST", "BASE_URL", "NODE_OPTIONS", "VITEST"]) {
    delete env[key];
  }
  Object.assign(
    env,
    { DATA_DIR: join(dir, "data"), SEED_SAMPLES: "false", LOG_LEVEL: "warn" },
    extra,
  );
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env, timeout: TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "quire-reindex-"));
  server = await startFakeEmbeddingServer(16);
  const file = join(dir, "papers.jsonl");
  const figure = paperInput({
    body: `## Results\n\nThe gap closes.\n\n![${CAPTION}](figures/plot.png) {#figure-1}\n`,
  });
  writeFileSync(
    file,
    [...[1, 2, 3].map(() => paperInput()), figure].map((p) => JSON.stringify(p)).join("\n"),
  );
  const imported = await quire(["import", file]);
  expect(imported.code).toBe(0);
}, TIMEOUT_MS);

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("quire reindex", () => {
  it(
    "rebuilds the lexical index and says there is no embedding backend",
    async () => {
      const result = await quire(["reindex"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/search index: 4 papers, \d+ chunks\n/);
      expect(result.stdout).toMatch(/no embedding backend configured/);
    },
    TIMEOUT_MS,
  );

  it(
    "gives papers stored before captions were chunks their caption chunks",
    async () => {
      expect(await captionChunks()).toEqual([CAPTION]);
      expect(await captionChunks(true)).toEqual([]);
      const result = await quire(["reindex"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/search index: 4 papers, \d+ chunks \(1 caption chunk added\)/);
      expect(await captionChunks()).toEqual([CAPTION]);
    },
    TIMEOUT_MS,
  );

  it(
    "stops with the work still queued when the backend fails, and a rerun finishes it",
    async () => {
      const env = { EMBEDDINGS_URL: server.url, EMBEDDINGS_MODEL: "fake-16" };
      server.behaviour = { kind: "status", status: 500 };
      const failed = await quire(["reindex", "--embeddings-only"], env);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /chunks still queued; run `quire reindex --embeddings-only` again/,
      );

      server.behaviour = { kind: "ok" };
      const resumed = await quire(["reindex", "--embeddings-only"], env);
      expect(resumed.code).toBe(0);
      const [, embedded] = /embedded (\d+) chunks with fake-16/.exec(resumed.stdout) ?? [];
      expect(Number(embedded)).toBeGreaterThan(0);

      const again = await quire(["reindex", "--embeddings-only"], env);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/embedded 0 chunks with fake-16/);
    },
    TIMEOUT_MS,
  );
});
