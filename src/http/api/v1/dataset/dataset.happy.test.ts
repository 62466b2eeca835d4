/** @module GET /api/v1/dataset/{croissant,papers.jsonl,chunks.jsonl}: what a consumer gets. */
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChunkExportRecord, PaperExportRecord } from "../../../../services/dataset/schemas.ts";
import { setPaperStatus } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { validateCroissant } from "../../../../testing/croissant-validator.ts";
import { makeOwner, publishPaper } from "../../../../testing/factories.ts";
import { publishFigurePaper } from "../../../../testing/figure-papers.ts";

let t: TestApp;
const published: string[] = [];
let figurePaper: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await makeOwner(t.ctx);
  for (let i = 0; i < 5; i++) {
    published.push((await publishPaper(t.ctx, i === 0 ? { ownerId: owner.id } : {})).paper_id);
  }
  figurePaper = (await publishFigurePaper(t.ctx)).paperId;
  published.push(figurePaper);
});
afterAll(async () => t.close());

type Croissant = Record<string, unknown> & {
  distribution: { "@id": string; contentUrl: string; sha256: string; contentSize: string }[];
  recordSet: { "@id": string; field: Record<string, unknown>[] }[];
};

async function croissant(): Promise<Croissant> {
  const res = await t.app.request("/api/v1/dataset/croissant");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/ld\+json/);
  return (await res.json()) as Croissant;
}

async function download(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, { headers });
  expect(res.status, `${path} answered ${res.status}`).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

function parseLines<T>(bytes: Buffer): T[] {
  const text = bytes.toString("utf8");
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as T);
}

/** The FileObject of an export, and the path of its contentUrl. */
function fileOf(doc: Croissant, id: string) {
  const file = doc.distribution.find((d) => d["@id"] === id);
  expect(file, id).toBeDefined();
  const url = new URL(file?.contentUrl ?? "");
  return {
    file: file as Croissant["distribution"][number],
    path: url.pathname,
    origin: url.origin,
  };
}

describe("GET /api/v1/dataset/croissant", () => {
  it("is a Croissant 1.0 dataset that our validator accepts, with RAI and AI-authorship notes", async () => {
    const doc = await croissant();
    const report = await validateCroissant(doc);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(doc).toMatchObject({
      "@type": "sc:Dataset",
      conformsTo: "http://mlcommons.org/croissant/1.0",
      url: "http://quire.test/",
      isLiveDataset: true,
      version: "1.1.0",
    });
    expect(String(doc.description)).toMatch(/written by an AI model/);
    for (const property of [
      "rai:dataCollection",
      "rai:dataCollectionType",
      "rai:dataBiases",
      "rai:dataLimitations",
      "rai:personalSensitiveInformation",
      "rai:dataUseCases",
      "rai:dataSocialImpact",
      "rai:dataReleaseMaintenancePlan",
      "rai:machineAnnotationTools",
    ]) {
      expect(doc[property], property).toBeTruthy();
    }
    expect(JSON.stringify(doc["rai:machineAnnotationTools"])).toContain("quire-rules");
    expect(doc.recordSet.map((r) => r["@id"])).toEqual(["papers", "chunks"]);
    const paperId = doc.recordSet[1]?.field.find((f) => f["@id"] === "chunks/paper_id");
    expect(paperId?.references).toEqual({ field: { "@id": "papers/id" } });
    for (const id of ["papers.jsonl", "chunks.jsonl"]) {
      const { file, origin } = fileOf(doc, id);
      expect(origin).toBe("http://quire.test");
      expect(file).toMatchObject({
        "@type": "cr:FileObject",
        encodingFormat: "application/jsonlines",
      });
    }
  });

  it("describes each paper's files, and the files listed are the bytes their URLs serve", async () => {
    const doc = await croissant();
    const files = doc.recordSet[0]?.field.find((f) => f["@id"] === "papers/files") as
      | { repeated: boolean; subField: { "@id": string; dataType: string }[] }
      | undefined;
    expect(files?.repeated).toBe(true);
    expect(files?.subField.map((f) => [f["@id"], f.dataType])).toEqual([
      ["papers/files/name", "sc:Text"],
      ["papers/files/role", "sc:Text"],
      ["papers/files/media_type", "sc:Text"],
      ["papers/files/size", "sc:Integer"],
      ["papers/files/sha256", "sc:Text"],
      ["papers/files/url", "sc:URL"],
    ]);
    const lines = parseLines<PaperExportRecord>(
      (await download(fileOf(doc, "papers.jsonl").path)).bytes,
    );
    const paper = lines.find((p) => p.id === figurePaper);
    expect(paper?.files.map((f) => f.role)).toEqual(["figure", "figure", "supplementary"]);
    for (const file of paper?.files ?? []) {
      const url = new URL(file.url);
      expect(url.origin).toBe("http://quire.test");
      const { res, bytes, sha256 } = await download(url.pathname);
      expect(sha256).toBe(file.sha256);
      expect(bytes.length).toBe(file.size);
      expect(res.headers.get("content-type")?.split(";")[0]).toBe(file.media_type);
    }
    const chunks = parseLines<ChunkExportRecord>(
      (await download(fileOf(doc, "chunks.jsonl").path)).bytes,
    );
    const captions = chunks.filter((c) => c.paper_id === figurePaper && c.field === "caption");
    expect(captions.map((c) => c.content)).toContain("Table 1: Estimates.");
    const body = [...(paper?.body ?? "")];
    for (const c of captions) expect(body.slice(c.start, c.end).join("")).toBe(c.content);
    expect(await validateCroissant(doc)).toEqual({ errors: [], warnings: [] });
  });

  it("publishes the sha256 and size of the bytes the export endpoints serve", async () => {
    const doc = await croissant();
    for (const id of ["papers.jsonl", "chunks.jsonl"]) {
      const { file, path } = fileOf(doc, id);
      const { res, bytes, sha256 } = await download(path);
      expect(sha256).toBe(file.sha256);
      expect(`${bytes.length} B`).toBe(file.contentSize);
      expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
      expect(res.headers.get("etag")).toBe(`"${sha256}"`);
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      expect(res.headers.get("repr-digest")).toBe(
        `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`,
      );
    }
  });

  it("changes its hashes when a paper is published, still matching the served bytes", async () => {
    const before = await croissant();
    published.push((await publishPaper(t.ctx)).paper_id);
    const after = await croissant();
    for (const id of ["papers.jsonl", "chunks.jsonl"]) {
      expect(fileOf(after, id).file.sha256).not.toBe(fileOf(before, id).file.sha256);
      const { sha256, bytes } = await download(fileOf(after, id).path);
      expect(sha256).toBe(fileOf(after, id).file.sha256);
      expect(`${bytes.length} B`).toBe(fileOf(after, id).file.contentSize);
    }
    const { bytes } = await download("/api/v1/dataset/papers.jsonl");
    expect(parseLines<PaperExportRecord>(bytes).map((p) => p.id)).toEqual([...published].sort());
    expect(await validateCroissant(after)).toEqual({ errors: [], warnings: [] });
  });
});

describe("GET /api/v1/dataset/papers.jsonl and chunks.jsonl", () => {
  it("leave withdrawn and removed papers out", async () => {
    const [withdrawn, removed] = [
      (await publishPaper(t.ctx)).paper_id,
      (await publishPaper(t.ctx)).paper_id,
    ];
    await setPaperStatus(t.ctx, withdrawn, "withdrawn");
    await setPaperStatus(t.ctx, removed, "removed");
    const paperLines = parseLines<PaperExportRecord>(
      (await download("/api/v1/dataset/papers.jsonl")).bytes,
    );
    const chunkLines = parseLines<ChunkExportRecord>(
      (await download("/api/v1/dataset/chunks.jsonl")).bytes,
    );
    for (const gone of [withdrawn, removed]) {
      expect(paperLines.map((p) => p.id)).not.toContain(gone);
      expect(chunkLines.map((c) => c.paper_id)).not.toContain(gone);
    }
    expect(paperLines.map((p) => p.id)).toEqual([...published].sort());
    const doc = await croissant();
    expect(fileOf(doc, "papers.jsonl").file.sha256).toBe(
      (await download("/api/v1/dataset/papers.jsonl")).sha256,
    );
  });

  it("parse line by line, and chunks round-trip to each paper's fields", async () => {
    const paperLines = parseLines<PaperExportRecord>(
      (await download("/api/v1/dataset/papers.jsonl")).bytes,
    );
    const chunkLines = parseLines<ChunkExportRecord>(
      (await download("/api/v1/dataset/chunks.jsonl")).bytes,
    );
    expect(paperLines.length).toBe(published.length);
    for (const paper of paperLines) {
      for (const field of ["title", "abstract", "body"] as const) {
        const text = chunkLines
          .filter((c) => c.paper_id === paper.id && c.field === field)
          .map((c) => c.content)
          .join("");
        expect(text, `${paper.id} ${field}`).toBe(paper[field]);
      }
    }
  });

  it("answer conditional requests: 304 for a current ETag, 412 for a stale If-Match", async () => {
    const first = await download("/api/v1/dataset/chunks.jsonl");
    const etag = first.res.headers.get("etag") ?? "";
    const notModified = await t.app.request("/api/v1/dataset/chunks.jsonl", {
      headers: { "if-none-match": etag },
    });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    const matched = await download("/api/v1/dataset/chunks.jsonl", { "if-match": etag });
    expect(matched.sha256).toBe(first.sha256);
    const stale = await t.app.request("/api/v1/dataset/chunks.jsonl", {
      headers: { "if-match": `"${"0".repeat(64)}"` },
    });
    expect(stale.status).toBe(412);
    expect(stale.headers.get("content-type")).toBe("application/problem+json");
    expect(stale.headers.get("etag")).toBe(etag);
    expect(((await stale.json()) as { detail: string }).detail).toMatch(/corpus changed/);
  });

  it("answer HEAD with the headers only", async () => {
    const res = await t.app.request("/api/v1/dataset/papers.jsonl", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    expect(await res.text()).toBe("");
  });

  it("stream gzip when asked, with the same bytes inside and a weak ETag", async () => {
    const plain = await download("/api/v1/dataset/papers.jsonl");
    const res = await t.app.request("/api/v1/dataset/papers.jsonl", {
      headers: { "accept-encoding": "gzip" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("etag")).toBe(`W/"${plain.sha256}"`);
    const inflated = gunzipSync(Buffer.from(await res.arrayBuffer()));
    expect(inflated.equals(plain.bytes)).toBe(true);
  });
});
