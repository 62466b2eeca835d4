/** @module The lossless chunker on 60 generated full texts with sections (test/fixtures/synthetic-papers.ts). */
import { describe, expect, it } from "vitest";
import { syntheticPapers } from "../../../test/fixtures/synthetic-papers.ts";
import { assertInvariants, cpLength } from "./chunker.test-helpers.ts";
import {
  type ChunkField,
  chunkField,
  chunkPaper,
  DEFAULT_CHUNK_MAX_CHARS,
  type FieldChunk,
} from "./chunker.ts";

function check(field: ChunkField, text: string, maxChars: number): FieldChunk[] {
  const chunks = chunkField(field, text, { maxChars });
  assertInvariants(field, text, chunks, maxChars);
  return chunks;
}

// ---------------------------------------------------------------------------------------------
// Full texts shaped as unarXive's (paragraphs tagged with their section)
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

describe("full texts", () => {
  // Papers we generate, shaped as unarXive's full texts are: paragraphs tagged with their
  // section, some before the first heading.
  const papers: UnarxivePaper[] = syntheticPapers(60, 3).map((p) => ({
    paper_id: p.id,
    metadata: { title: p.title },
    abstract: { text: p.abstract },
    body_text: p.sections.flatMap(({ section, text }) =>
      text.split("\n\n").map((paragraph) => ({ section, text: paragraph })),
    ),
  }));

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
