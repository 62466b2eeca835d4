/**
 * Papers with files end to end, with the real `quire` commands on an embedded DATA_DIR:
 * `quire import` of a JSONL line naming a LaTeX bundle (`"source"`, converted by LaTeXML in
 * its sandbox: needs the Debian packages latexml and bubblewrap), then `quire backup` →
 * `quire restore` and `quire migrate` to PostgreSQL, each copy holding the same files, byte
 * for byte, served at the same immutable URLs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/db/client.ts";
import { rowsOf } from "../src/db/sql.ts";
import { fixtureEntries, makeTarGz } from "../src/testing/bundles.ts";
import { testContext } from "../src/testing/db.ts";
import { runQuire } from "../src/testing/quire-cli.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let root: string;
let dataDir: string;
const drops: (() => Promise<void>)[] = [];

interface FileRow {
  sha256: string;
  media_type: string;
  size: number;
  digest: string;
}

async function fileRows(database: Database): Promise<{ files: FileRow[]; names: unknown[] }> {
  const files = await rowsOf<FileRow>(
    database.db,
    sql`select sha256, media_type, size, encode(sha256(content), 'hex') as digest
        from files order by sha256`,
  );
  const names = await rowsOf(
    database.db,
    sql`select paper_id, version, name, role, sha256 from version_files order by paper_id, name`,
  );
  return { files, names };
}

/** Every figure of every version, fetched from the app over `database`. */
async function servedFigures(database: Database): Promise<Map<string, number>> {
  const app = buildApp({
    services: testContext(database),
    logger: pino({ level: "silent" }),
    baseUrl: "http://quire.test",
    trustProxy: [],
  });
  const out = new Map<string, number>();
  for (const { sha256 } of (await fileRows(database)).files) {
    const res = await app.request(`/files/${sha256}`);
    out.set(sha256, res.status);
    if (res.status === 200) {
      const bytes = new Uint8Array(await res.arrayBuffer());
      const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
      expect(digest).toBe(sha256);
    }
  }
  return out;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "quire-files-e2e-"));
  dataDir = join(root, "data");
  writeFileSync(join(root, "spectral.tar.gz"), await makeTarGz(fixtureEntries("spectral")));
  writeFileSync(
    join(root, "papers.jsonl"),
    `${JSON.stringify({
      source: "spectral.tar.gz",
      ai_model: "test-model",
      license: "CC-BY-4.0",
      keywords: ["spectral graph theory"],
    })}\n`,
  );
}, 60_000);

afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(root, { recursive: true, force: true });
});

describe("a LaTeX paper's files through import, backup, restore and migrate", () => {
  let original: { files: FileRow[]; names: unknown[] };

  it("imports the LaTeX bundle with its figures and source", async () => {
    const run = await runQuire(["import", join(root, "papers.jsonl")], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("published 1,");
    const database = await openDatabase({ dataDir });
    try {
      original = await fileRows(database);
      expect(original.names.map((r) => (r as { name: string; role: string }).name)).toEqual([
        "figures/convergence.png",
        "figures/histogram.png",
        "main.tex",
      ]);
      for (const f of original.files) expect(f.digest).toBe(f.sha256);
      const [paper] = await rowsOf<{ title: string; body: string }>(
        database.db,
        sql`select title, body from paper_versions`,
      );
      expect(paper?.title).toBe(
        "Spectral Gaps of Sparse Random Graphs Estimated by Power Iteration",
      );
      expect(paper?.body).toContain("{#figure-2}");
      expect([...(await servedFigures(database)).values()]).toEqual([200, 200, 200]);
    } finally {
      await database.close();
    }
  }, 300_000);

  it("carries the files through quire backup and quire restore", async () => {
    const file = join(root, "files.quire");
    const backup = await runQuire(["backup", file], { DATA_DIR: dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    const target = join(root, "restored");
    const restore = await runQuire(["restore", file], { DATA_DIR: target });
    expect(restore.code, restore.stderr).toBe(0);
    const database = await openDatabase({ dataDir: target });
    try {
      expect(await fileRows(database)).toEqual(original);
      expect([...(await servedFigures(database)).values()]).toEqual([200, 200, 200]);
    } finally {
      await database.close();
    }
  }, 300_000);

  it("carries the files through quire migrate to PostgreSQL", async () => {
    const scratch = await createScratchDatabase(ADMIN_URL, "quire_files");
    drops.push(scratch.drop);
    const run = await runQuire(["migrate", "--to", scratch.url], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("verified: every table matches");
    const database = await openDatabase({ databaseUrl: scratch.url });
    try {
      expect(await fileRows(database)).toEqual(original);
      expect([...(await servedFigures(database)).values()]).toEqual([200, 200, 200]);
    } finally {
      await database.close();
    }
  }, 300_000);
});
