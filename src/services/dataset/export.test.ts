/** @module The JSONL exports: what they contain, their order, their bytes, the chunk partition, the files. */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { papers } from "../../db/schema/index.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import { publishFigurePaper } from "../../testing/figure-papers.ts";
import type { ServiceContext } from "../context.ts";
import type { PreparedSource } from "../files/index.ts";
import { publishVersion } from "../papers/index.ts";
import { type ExportBatch, type ExportKind, exportBatches } from "./export.ts";
import {
  type ChunkExportRecord,
  ChunkExportRecordSchema,
  type PaperExportRecord,
  PaperExportRecordSchema,
} from "./schemas.ts";

let database: Database;
let ctx: ServiceContext;
const visible: string[] = [];
let withdrawn: string;
let revised: string;
let ownerHandle: string;
let figures: { paperId: string; source: PreparedSource };

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database);
  const owner = await makeOwner(ctx);
  ownerHandle = owner.handle;
  const operator = { ...ctx, caller: { kind: "operator" as const } };
  for (let i = 0; i < 7; i++) {
    const overrides =
      i === 0
        ? {
            ownerId: owner.id,
            // Line and paragraph separators, quotes, tabs, astral code points, a table.
            body: `## Intro\n\nText with "quotes", a tab\tand \u2028 \u2029 separators, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## End\n\n${"Long sentence number one. ".repeat(200)}\n`,
          }
        : {};
    visible.push((await publishPaper(ctx, overrides)).paper_id);
  }
  figures = await publishFigurePaper(ctx);
  visible.push(figures.paperId);
  revised = visible[2] as string;
  const second = await publishVersion(operator, {
    ...paperInput(),
    paperId: revised,
    changelog: "second version",
  });
  expect(second.outcome).toBe("published");
  withdrawn = (await publishPaper(ctx)).paper_id;
  await database.db.update(papers).set({ status: "withdrawn" }).where(eq(papers.id, withdrawn));
});
afterAll(async () => database.close());

async function collect<R>(
  kind: ExportKind,
  batchRows?: number,
): Promise<{ records: R[]; bytes: Buffer; batches: number }> {
  const records: R[] = [];
  const parts: Uint8Array[] = [];
  let batches = 0;
  const options = { baseUrl: ctx.settings.baseUrl, ...(batchRows ? { batchRows } : {}) };
  for await (const batch of exportBatches(database.db, kind, options)) {
    batches++;
    records.push(...((batch as ExportBatch<R>).records as R[]));
    parts.push(batch.bytes);
  }
  return { records, bytes: Buffer.concat(parts), batches };
}

function lines(bytes: Buffer): unknown[] {
  const text = bytes.toString("utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("papers.jsonl", () => {
  it("has one line per visible paper, by id, current version, withdrawn papers left out", async () => {
    const { bytes } = await collect<PaperExportRecord>("papers");
    const records = lines(bytes).map((l) => PaperExportRecordSchema.strict().parse(l));
    expect(records.map((r) => r.id)).toEqual([...visible].sort());
    expect(records.map((r) => r.id)).not.toContain(withdrawn);
    expect(records.find((r) => r.id === revised)?.version).toBe(2);
    const first = records.find((r) => r.id === visible[0]);
    expect(first).toMatchObject({
      ai_label: "AI-generated",
      owner_handle: ownerHandle,
      url: `http://quire.test/api/v1/papers/${visible[0]}`,
      verification: { screened_by: expect.stringContaining("quire-rules") },
    });
    expect(first?.body).toContain("\u2028 \u2029");
    expect(records.find((r) => r.id === visible[1])?.owner_handle).toBeNull();
  });

  it("carries each version's files: name, role, media type, size, sha256 and URL", async () => {
    const { records } = await collect<PaperExportRecord>("papers", 2);
    const paper = records.find((r) => r.id === figures.paperId);
    expect(paper?.files.map((f) => [f.name, f.role])).toEqual([
      ["figures/plot.png", "figure"],
      ["figures/diagram.svg", "figure"],
      ["data/estimates.csv", "supplementary"],
    ]);
    for (const file of paper?.files ?? []) {
      const prepared = figures.source.files.find((f) => f.name === file.name);
      expect(prepared).toBeDefined();
      expect(file).toEqual({
        name: prepared?.name,
        role: prepared?.role,
        media_type: prepared?.mediaType,
        size: prepared?.bytes.byteLength,
        sha256: createHash("sha256")
          .update(prepared?.bytes ?? new Uint8Array())
          .digest("hex"),
        url: `http://quire.test/files/${file.sha256}`,
      });
    }
    for (const other of records.filter((r) => r.id !== figures.paperId)) {
      expect(other.files).toEqual([]);
    }
  });

  it("gives the same bytes whatever the batch size", async () => {
    const whole = await collect("papers");
    const tiny = await collect("papers", 2);
    const single = await collect("papers", 1);
    expect(tiny.batches).toBe(Math.ceil(visible.length / 2));
    expect(tiny.bytes.equals(whole.bytes)).toBe(true);
    expect(single.bytes.equals(whole.bytes)).toBe(true);
  });
});

describe("chunks.jsonl", () => {
  it("partitions every field of every visible paper losslessly, in order", async () => {
    const paperRecords = (await collect<PaperExportRecord>("papers")).records;
    const { bytes, records } = await collect<ChunkExportRecord>("chunks", 3);
    const parsed = lines(bytes).map((l) => ChunkExportRecordSchema.strict().parse(l));
    expect(parsed).toEqual(records);
    expect(new Set(parsed.map((c) => c.paper_id))).toEqual(new Set(visible));
    for (const paper of paperRecords) {
      const own = parsed.filter((c) => c.paper_id === paper.id);
      expect(own.map((c) => c.chunk_index)).toEqual(own.map((_, i) => i));
      expect(new Set(own.map((c) => c.version))).toEqual(new Set([paper.version]));
      for (const field of ["title", "abstract", "body"] as const) {
        const spans = own.filter((c) => c.field === field);
        expect(spans.map((c) => c.content).join(""), `${paper.id} ${field}`).toBe(paper[field]);
        let offset = 0;
        for (const span of spans) {
          expect(span.start).toBe(offset);
          expect(span.end - span.start).toBe([...span.content].length);
          offset = span.end;
          if (field !== "body") expect(span.section).toBeNull();
        }
      }
    }
    expect(parsed.some((c) => c.field === "body" && c.section !== null)).toBe(true);
  });

  it("lists a paper's captions after its body, each its span of the body", async () => {
    const { records } = await collect<ChunkExportRecord>("chunks", 4);
    const own = records.filter((c) => c.paper_id === figures.paperId);
    const body = [...figures.source.body];
    const captions = own.filter((c) => c.field === "caption");
    expect(captions.map((c) => c.content)).toEqual([
      "Figure 1: Estimated gap against steps, with $d=3$.",
      "Figure 2: A diagram.",
      "Table 1: Estimates.",
    ]);
    for (const c of captions) {
      expect(body.slice(c.start, c.end).join("")).toBe(c.content);
      expect(c.section).toBe("Results");
    }
    const lastBody = Math.max(...own.filter((c) => c.field === "body").map((c) => c.chunk_index));
    expect(Math.min(...captions.map((c) => c.chunk_index))).toBe(lastBody + 1);
  });

  it("orders by paper id then chunk index, the same at any batch size", async () => {
    const whole = await collect<ChunkExportRecord>("chunks");
    const keys = whole.records.map((c) => [c.paper_id, c.chunk_index] as const);
    const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
    expect(keys).toEqual(sorted);
    expect((await collect("chunks", 1)).bytes.equals(whole.bytes)).toBe(true);
  });
});
