/** @module The dataset endpoints over 5,000 generated papers (test/fixtures/synthetic-papers.ts). */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BulkPaper, bulkLoadPapers } from "../../../../../bench/lib/bulk-load.ts";
import { syntheticPapers } from "../../../../../test/fixtures/synthetic-papers.ts";
import type { ChunkExportRecord, PaperExportRecord } from "../../../../services/dataset/schemas.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { validateCroissant } from "../../../../testing/croissant-validator.ts";

const COUNT = 5_000;

/** Papers we generate (test/fixtures/synthetic-papers.ts), one minute apart. */
function* generated(count: number): Iterable<BulkPaper> {
  const start = Date.parse("2026-06-01T00:00:00Z");
  for (const [i, p] of syntheticPapers(count, 11).entries()) {
    yield {
      id: p.id,
      title: p.title,
      abstract: p.abstract,
      keywords: p.keywords,
      publishedAt: new Date(start + i * 60_000),
    };
  }
}

let t: TestApp;
let loadedIds: string[];

// importPapers runs at ~12 papers/s on PGlite (about 400 s for 5,000, measured), so the
// abstracts are loaded in bulk: the same screening, fingerprints and chunks, multi-row inserts.
beforeAll(async () => {
  t = await createTestApp();
  const result = await bulkLoadPapers(t.ctx, generated(COUNT), { count: COUNT });
  loadedIds = result.ids;
}, 300_000);
afterAll(async () => t.close());

async function download(path: string) {
  const res = await t.app.request(path, { headers: { "accept-encoding": "identity" } });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

function lines<T>(bytes: Buffer): T[] {
  const text = bytes.toString("utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as T);
}

describe(`the dataset over ${COUNT} papers`, () => {
  it("loaded them all", () => {
    expect(loadedIds.length).toBe(COUNT);
  });

  it("has a valid Croissant whose hashes and sizes match exports of 5,000 lines", async () => {
    const res = await t.app.request("/api/v1/dataset/croissant");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      distribution: { "@id": string; contentUrl: string; sha256: string; contentSize: string }[];
      "rai:dataCollection": string;
    };
    expect(await validateCroissant(doc)).toEqual({ errors: [], warnings: [] });
    expect(doc["rai:dataCollection"]).toContain(`${COUNT} papers`);

    const papers = doc.distribution.find((d) => d["@id"] === "papers.jsonl");
    const chunks = doc.distribution.find((d) => d["@id"] === "chunks.jsonl");
    const paperFile = await download(new URL(papers?.contentUrl ?? "").pathname);
    const chunkFile = await download(new URL(chunks?.contentUrl ?? "").pathname);
    expect(paperFile.sha256).toBe(papers?.sha256);
    expect(`${paperFile.bytes.length} B`).toBe(papers?.contentSize);
    expect(chunkFile.sha256).toBe(chunks?.sha256);
    expect(`${chunkFile.bytes.length} B`).toBe(chunks?.contentSize);

    const paperLines = lines<PaperExportRecord>(paperFile.bytes);
    expect(paperLines.length).toBe(COUNT);
    expect(paperLines.map((p) => p.id)).toEqual([...loadedIds].sort());
    const chunkLines = lines<ChunkExportRecord>(chunkFile.bytes);
    const byPaper = new Map<string, ChunkExportRecord[]>();
    for (const c of chunkLines) {
      const own = byPaper.get(c.paper_id) ?? [];
      own.push(c);
      byPaper.set(c.paper_id, own);
    }
    expect(byPaper.size).toBe(COUNT);
    for (const paper of paperLines) {
      const own = byPaper.get(paper.id) ?? [];
      for (const field of ["title", "abstract"] as const) {
        const text = own
          .filter((c) => c.field === field)
          .map((c) => c.content)
          .join("");
        expect(text).toBe(paper[field]);
      }
    }
  }, 300_000);
});
