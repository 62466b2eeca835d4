/** importPapers with `"source"`: a Markdown bundle with figures, read beside the JSONL file. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { makeZip } from "../../testing/bundles.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { paperInput } from "../../testing/factories.ts";
import { figureBundle } from "../../testing/figure-papers.ts";
import type { ServiceContext } from "../context.ts";
import { bundleReader } from "../files/index.ts";
import { getPaper } from "./get.ts";
import { type ImportLineResult, importPapers } from "./import.ts";

let database: Database;
let ctx: ServiceContext;
let folder: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database);
  folder = await mkdtemp(join(tmpdir(), "quire-import-source-"));
  await writeFile(join(folder, "paper.zip"), await figureBundle(77));
  await writeFile(join(folder, "not-an-archive.zip"), "hello");
  await writeFile(join(folder, "stray.zip"), makeZip({ "paper.md": "Hi", "run.exe": "MZ" }));
});
afterAll(async () => {
  await database.close();
  await rm(folder, { recursive: true, force: true });
});

function record(overrides: Record<string, unknown>) {
  const p = paperInput();
  const { body: _body, ...rest } = {
    title: p.title,
    abstract: p.abstract,
    body: p.body,
    ai_model: p.ai_model,
    license: p.license,
    keywords: p.keywords,
  };
  return JSON.stringify({ ...rest, ...overrides });
}

describe("importPapers with a source bundle", () => {
  it("imports the bundle's text and files, idempotently, and reports bad bundles by line", async () => {
    const lines = [
      record({ source: "paper.zip" }),
      record({ source: "not-an-archive.zip" }),
      record({ source: "../outside.zip" }),
      record({ source: "stray.zip" }),
      record({ source: "paper.zip", body: "both" }),
      record({}),
    ];
    const seen: ImportLineResult[] = [];
    const summary = await importPapers(ctx, lines, (r) => seen.push(r), {
      readSource: bundleReader(folder),
    });
    expect(summary).toMatchObject({ published: 1, invalid: 5 });
    const by = (line: number) => seen.find((r) => r.line === line)?.messages.join(" ") ?? "";
    expect(by(2)).toMatch(/neither a \.zip nor a \.tar\.gz/);
    expect(by(3)).toMatch(/no file "\.\.\/outside\.zip"|outside the import file's folder/);
    expect(by(4)).toMatch(/run\.exe/);
    expect(by(5)).toMatch(/either a body or a source/);
    expect(by(6)).toMatch(/body: required without a source/);

    const id = seen.find((r) => r.line === 1)?.paper_id ?? "";
    const detail = await getPaper(ctx, { id });
    expect(detail.version.body).toContain("![Figure 1: Estimated gap against steps");
    expect(detail.version.files.map((f) => [f.name, f.role, f.media_type])).toEqual([
      ["figures/plot.png", "figure", "image/png"],
      ["figures/diagram.svg", "figure", "image/svg+xml"],
      ["data/estimates.csv", "supplementary", "text/csv"],
    ]);

    const again = await importPapers(ctx, [lines[0] as string], () => {}, {
      readSource: bundleReader(folder),
    });
    expect(again).toMatchObject({ already_imported: 1, published: 0 });
  });

  it("refuses a line whose files would pass FILES_MAX_MB with the reason, and imports the lines after it", async () => {
    await writeFile(join(folder, "other.zip"), await figureBundle(91));
    const full = { ...ctx, settings: { ...ctx.settings, filesMaxBytes: 1 } };
    const seen: ImportLineResult[] = [];
    const summary = await importPapers(
      full,
      [record({ source: "other.zip" }), record({ body: paperInput().body })],
      (r) => seen.push(r),
      {
        readSource: bundleReader(folder),
      },
    );
    expect(summary).toMatchObject({ invalid: 1, published: 1 });
    expect(seen[0]?.messages.join()).toMatch(/^source: The archive's file store is full/);
    expect(seen[1]?.outcome).toBe("published");
  });

  it("refuses a record with a source when the import cannot read files", async () => {
    const seen: ImportLineResult[] = [];
    await importPapers(ctx, [record({ source: "paper.zip" })], (r) => seen.push(r));
    expect(seen[0]?.messages.join()).toMatch(/cannot read files/);
  });
});
