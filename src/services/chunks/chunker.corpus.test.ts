/** @module The lossless chunker on the unarXive full-text sample (../shared/data: the full tier only, see vitest.config.ts). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type ChunkField,
  chunkField,
  chunkPaper,
  DEFAULT_CHUNK_MAX_CHARS,
  type FieldChunk,
} from "./chunker.ts";

const UNARXIVE_URL = new URL(
  "../../../../shared/data/unarxive-sample/arXiv_src_2212_086.jsonl",
  import.meta.url,
);

function cpLength(text: string): number {
  return [...text].length;
}

/** Throws unless `chunks` satisfy rules 1-3 for `text` (lossless, code point offsets, size). */
function assertInvariants(
  field: ChunkField,
  text: string,
  chunks: FieldChunk[],
  maxChars: number,
): void {
  const codePoints = [...text];
  if (text === "") expect(chunks).toEqual([]);
  expect(chunks.map((c) => c.content).join("")).toBe(text);
  let offset = 0;
  for (const chunk of chunks) {
    expect(chunk.start).toBe(offset);
    expect(chunk.end).toBeGreaterThan(chunk.start);
    expect(codePoints.slice(chunk.start, chunk.end).join("")).toBe(chunk.content);
    expect(cpLength(chunk.content)).toBeLessThanOrEqual(maxChars);
    if (field !== "body") expect(chunk.section).toBeNull();
    offset = chunk.end;
  }
  expect(offset).toBe(codePoints.length);
  // No surrogate pair is split: no chunk ends in a high or starts with a low surrogate of a pair.
  let unit = 0;
  for (const chunk of chunks.slice(0, -1)) {
    unit += chunk.content.length;
    const before = text.charCodeAt(unit - 1);
    const after = text.charCodeAt(unit);
    const splitsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
    expect(splitsPair).toBe(false);
  }
}

function check(field: ChunkField, text: string, maxChars: number): FieldChunk[] {
  const chunks = chunkField(field, text, { maxChars });
  assertInvariants(field, text, chunks, maxChars);
  return chunks;
}

// ---------------------------------------------------------------------------------------------
// Real data: the unarXive sample shipped in ../shared
// ---------------------------------------------------------------------------------------------

interface MdDoc {
  text: string;
  /** Code point offset of each heading line and the section path it opens. */
  headings: { offset: number; path: string | null }[];
  /** Code point spans of fences and tables (without their final line ending). */
  atomics: { start: number; end: number }[];
}

interface UnarxivePaper {
  paper_id: string;
  metadata: { title: string };
  abstract: { text: string } | null;
  body_text: { section: string | null; text: string }[];
}

/** Markdown body with `## section` on every section change; also returns the heading oracle. */
function unarxiveBody(paper: UnarxivePaper): { body: string; headings: MdDoc["headings"] } {
  const parts: string[] = [];
  const headings: MdDoc["headings"] = [];
  let offset = 0;
  let current: string | null | undefined;
  const push = (part: string) => {
    if (parts.length > 0) offset += 2; // "\n\n" separator
    parts.push(part);
    offset += cpLength(part);
  };
  for (const paragraph of paper.body_text) {
    if (paragraph.section !== current) {
      current = paragraph.section;
      // Section names may contain line breaks; null or empty names get no heading.
      const name = (current ?? "").replace(/\s+/g, " ").trim();
      if (name) {
        headings.push({ offset: parts.length > 0 ? offset + 2 : 0, path: name });
        push(`## ${name}`);
      }
    }
    push(paragraph.text);
  }
  return { body: parts.join("\n\n"), headings };
}

describe("unarXive sample", () => {
  const papers = readFileSync(UNARXIVE_URL, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as UnarxivePaper);

  it("reads the papers", () => {
    expect(papers.length).toBeGreaterThan(0);
  });

  for (const maxChars of [DEFAULT_CHUNK_MAX_CHARS, 300]) {
    it(`chunks every paper losslessly at maxChars ${maxChars}`, () => {
      let total = 0;
      for (const paper of papers) {
        const { body, headings } = unarxiveBody(paper);
        const title = paper.metadata.title;
        const abstract = paper.abstract?.text ?? "";
        check("title", title, maxChars);
        check("abstract", abstract, maxChars);
        const chunks = check("body", body, maxChars);
        const starts = new Set(chunks.map((c) => c.start));
        for (const heading of headings) expect(starts.has(heading.offset)).toBe(true);
        for (const chunk of chunks) {
          const owner = headings.filter((h) => h.offset <= chunk.start).at(-1);
          expect(chunk.section).toBe(owner ? owner.path : null);
        }
        const all = chunkPaper({ title, abstract, body }, { maxChars });
        expect(all.map((c) => c.chunk_index)).toEqual(all.map((_, i) => i));
        total += all.length;
      }
      expect(papers.length).toBeGreaterThan(0);
      expect(total).toBeGreaterThan(papers.length);
    });
  }
});

// Timing lives in `npm run bench:text`; these check that large and degenerate inputs
