/** @module Caption chunks: which paragraphs are captions, verbatim offsets into the body, and properties. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCaptions } from "./captions.ts";
import { chunkVersion } from "./chunk-version.ts";
import { assertInvariants, cpLength } from "./chunker.test-helpers.ts";
import { type Chunk, chunkPaper } from "./chunker.ts";

/** The captions of a body as their text, read back from the body by the found offsets. */
function captionTexts(body: string): [string, string][] {
  return findCaptions(body).map((c) => [c.kind, body.slice(c.start, c.end)]);
}

/** Every caption chunk is the code point span start..end of the body, exactly. */
function assertCaptionsVerbatim(body: string, chunks: readonly Chunk[]): void {
  const points = [...body];
  for (const chunk of chunks.filter((c) => c.field === "caption")) {
    expect(chunk.end).toBeGreaterThan(chunk.start);
    expect(points.slice(chunk.start, chunk.end).join("")).toBe(chunk.content);
  }
}

describe("findCaptions", () => {
  it("takes an image-only paragraph's alt text and a Table: paragraph's text, anchors left out", () => {
    const body = [
      "## Results",
      "![Figure 1: Estimated gap, with $d=3$.](figures/plot.png) {#figure-1}",
      "Table: Table 1: Estimates. {#table-1}",
      "| d | estimate |\n| --- | --- |\n| 3 | 2.831 |",
      "  ![ Figure 2: spaced. ](b.png)",
      "![Figure 3: nested [brackets] and an escaped \\] stay.](c.png)",
    ].join("\n\n");
    expect(captionTexts(body)).toEqual([
      ["figure", "Figure 1: Estimated gap, with $d=3$."],
      ["table", "Table 1: Estimates."],
      ["figure", "Figure 2: spaced."],
      ["figure", "Figure 3: nested [brackets] and an escaped \\] stay."],
    ]);
  });

  it("finds only what the page shows as a figcaption", () => {
    const none = [
      "An image ![inside a sentence](x.png) is no figure.",
      "![a](p.png) ![b](q.png)",
      "```\n![in a code fence](p.png)\n```",
      "    ![in indented code](p.png)",
      "- ![in a tight list](p.png)\n- b",
      "$$\n![in display math](p.png)\n$$",
      "![](empty-alt.png)",
      "![unsafe](javascript:alert(1))",
      "![data URL](data:image/png;base64,AAAA)",
      "Table: not followed by a table.\n\nText.",
      "Table:\n\n| a |\n| --- |\n| 1 |",
      "[![a linked image](p.png)](https://example.org)",
    ];
    for (const body of none) expect(captionTexts(body), body).toEqual([]);
    expect(captionTexts("> ![in a quote](p.png)")).toEqual([["figure", "in a quote"]]);
    expect(captionTexts("- ![in a loose list](p.png)\n\n- b")).toEqual([
      ["figure", "in a loose list"],
    ]);
  });

  it("keeps CRLF and multi-line captions verbatim, and leaves out one split by quote marks", () => {
    expect(captionTexts("Text.\r\n\r\n![two\r\nlines](p.png)\r\n")).toEqual([
      ["figure", "two\r\nlines"],
    ]);
    expect(captionTexts("Table: T1.\r\n| a |\r\n| --- |\r\n| 1 |\r\n")).toEqual([["table", "T1."]]);
    expect(captionTexts("> ![quoted\n> over two lines](p.png)")).toEqual([]);
  });
});

describe("chunkVersion", () => {
  const paper = {
    title: "Gaps",
    abstract: "We estimate gaps.",
    body: "# Results\n\nThe gap closes.\n\n![Figure 1: Gap against steps 🎉.](p.png) {#figure-1}\n",
  };

  it("is chunkPaper's chunks, then the captions as spans of the body", async () => {
    const chunks = await chunkVersion(paper, { maxChars: 2000 });
    const fields = chunkPaper(paper, { maxChars: 2000 });
    expect(chunks.slice(0, fields.length)).toEqual(fields);
    expect(chunks.slice(fields.length)).toEqual([
      {
        content: "Figure 1: Gap against steps 🎉.",
        start: 30,
        end: 60,
        section: "Results",
        chunk_index: fields.length,
        field: "caption",
      },
    ]);
    assertCaptionsVerbatim(paper.body, chunks);
  });

  it("splits a caption longer than maxChars into contiguous pieces of it", async () => {
    const caption = `Figure 1: ${"a long description of the plot, ".repeat(6)}end.`;
    const body = `Intro.\n\n![${caption}](p.png)\n`;
    const chunks = await chunkVersion({ ...paper, body }, { maxChars: 40 });
    const pieces = chunks.filter((c) => c.field === "caption");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((c) => c.content).join("")).toBe(caption);
    for (const piece of pieces) expect(cpLength(piece.content)).toBeLessThanOrEqual(40);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]?.start).toBe(pieces[i - 1]?.end);
    expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
    assertCaptionsVerbatim(body, chunks);
  });

  it("parses nothing for a body without an image or a Table: line", async () => {
    const plain = { ...paper, body: "# Results\n\nNo figures here.\n" };
    expect(await chunkVersion(plain, { maxChars: 100 })).toEqual(
      chunkPaper(plain, { maxChars: 100 }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

/** Caption text: words with accents, CJK, emoji (surrogate pairs), math and inner spaces. */
const captionWord = fc.constantFrom(
  "Figure",
  "1:",
  "gap",
  "señal",
  "cafe\u0301",
  "研究",
  "👍🏽",
  "👨‍👩‍👧",
  "$d=3$",
  "(a)",
  "x".repeat(25),
);
const captionArb = fc
  .array(captionWord, { minLength: 1, maxLength: 30 })
  .map((words) => words.join(" "));
const proseArb = fc
  .array(fc.constantFrom("The", "model", "data", "año", "数据", "🎉", "results."), {
    minLength: 1,
    maxLength: 40,
  })
  .map((words) => words.join(" "));

type Block =
  | { kind: "prose"; text: string }
  | { kind: "heading"; text: string }
  | { kind: "figure"; caption: string; anchor: boolean }
  | { kind: "table"; caption: string };

const blockArb: fc.Arbitrary<Block> = fc.oneof(
  { arbitrary: proseArb.map((text) => ({ kind: "prose" as const, text })), weight: 4 },
  { arbitrary: proseArb.map((text) => ({ kind: "heading" as const, text })), weight: 1 },
  {
    arbitrary: fc
      .tuple(captionArb, fc.boolean())
      .map(([caption, anchor]) => ({ kind: "figure" as const, caption, anchor })),
    weight: 2,
  },
  {
    arbitrary: captionArb.map((caption) => ({ kind: "table" as const, caption })),
    weight: 1,
  },
);

function render(block: Block, i: number, eol: string): string {
  switch (block.kind) {
    case "prose":
      return block.text;
    case "heading":
      return `## ${block.text}`;
    case "figure":
      return `![${block.caption}](figures/f${i}.png)${block.anchor ? ` {#figure-${i}}` : ""}`;
    case "table":
      return [
        `Table: ${block.caption} {#table-${i}}`,
        "| a | b |",
        "| --- | --- |",
        "| 1 | 2 |",
      ].join(eol);
  }
}

describe("caption chunk properties", () => {
  it("finds every generated caption, verbatim, and leaves the fields' partition as it was", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(blockArb, { minLength: 1, maxLength: 12 }),
        fc.constantFrom("\n", "\r\n"),
        fc.integer({ min: 16, max: 400 }),
        async (blocks, eol, maxChars) => {
          const body = blocks.map((b, i) => render(b, i, eol)).join(eol + eol) + eol;
          const paper = { title: "T", abstract: "A.", body };
          const chunks = await chunkVersion(paper, { maxChars });
          const fields = chunkPaper(paper, { maxChars });
          expect(chunks.slice(0, fields.length)).toEqual(fields);
          assertInvariants(
            "body",
            body,
            chunks.filter((c) => c.field === "body"),
            maxChars,
          );
          const captions = chunks.slice(fields.length);
          expect(captions.every((c) => c.field === "caption")).toBe(true);
          expect(captions.map((c) => c.chunk_index)).toEqual(
            captions.map((_, i) => fields.length + i),
          );
          assertCaptionsVerbatim(body, captions);
          for (const c of captions) expect(cpLength(c.content)).toBeLessThanOrEqual(maxChars);
          // Pieces of one caption are contiguous; joined, they are the generated captions.
          const joined: string[] = [];
          let lastEnd = -1;
          for (const c of captions) {
            if (c.start === lastEnd) joined[joined.length - 1] += c.content;
            else joined.push(c.content);
            lastEnd = c.end;
          }
          const expected = blocks.flatMap((b) =>
            b.kind === "figure" || b.kind === "table" ? [b.caption] : [],
          );
          expect(joined).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
