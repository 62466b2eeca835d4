/** @module Tests for the lossless chunker: worked examples and property tests (the unarXive sample: chunker.fulltext.test.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertInvariants, cpLength } from "./chunker.test-helpers.ts";
import {
  type ChunkField,
  chunkField,
  chunkPaper,
  DEFAULT_CHUNK_MAX_CHARS,
  type FieldChunk,
} from "./chunker.ts";

const graphemes = new Intl.Segmenter("und", { granularity: "grapheme" });

/**
 * Grapheme boundaries of `text` (UTF-16 offsets) and the longest cluster in code points.
 * Segmented in windows because iterating a long string's segments is quadratic in V8; clusters
 * never span a window restart because each window starts at a boundary found by the previous
 * one and boundaries near a window's end are recomputed by the next.
 */
function graphemeBoundaries(text: string): { boundaries: Set<number>; longest: number } {
  const boundaries = new Set<number>([0, text.length]);
  let longest = 0;
  for (let pos = 0; pos < text.length; ) {
    const windowEnd = Math.min(text.length, pos + 512);
    const last = windowEnd === text.length;
    let next = pos;
    for (const { index, segment } of graphemes.segment(text.slice(pos, windowEnd))) {
      if (!last && pos + index + segment.length > windowEnd - 32) break;
      longest = Math.max(longest, cpLength(segment));
      next = pos + index + segment.length;
      boundaries.add(next);
    }
    // A cluster longer than the window: take it whole from an unwindowed segmentation.
    if (next === pos) {
      const first = graphemes.segment(text.slice(pos)).containing(0)?.segment ?? "";
      longest = Math.max(longest, cpLength(first));
      next = pos + first.length;
      boundaries.add(next);
    }
    pos = last ? text.length : next;
  }
  return { boundaries, longest };
}

/** When every cluster fits in maxChars, every chunk boundary must be a grapheme boundary. */
function assertGraphemesKept(text: string, chunks: FieldChunk[], maxChars: number): void {
  const { boundaries, longest } = graphemeBoundaries(text);
  if (longest > maxChars) return;
  let unit = 0;
  for (const chunk of chunks) {
    unit += chunk.content.length;
    expect(boundaries.has(unit), `cut at UTF-16 offset ${unit} splits a grapheme`).toBe(true);
  }
}

/**
 * Whitespace between pieces ends the preceding chunk: a chunk after the first may start with
 * a whitespace cluster only when that cluster did not fit at the end of the previous chunk.
 * (Not for code blocks, whose lines keep their indentation.)
 */
function assertWhitespaceTrails(chunks: FieldChunk[], maxChars: number): void {
  chunks.forEach((chunk, i) => {
    const previous = chunks[i - 1];
    if (!previous || !/^\s/.test(chunk.content)) return;
    const first = graphemes.segment(chunk.content.slice(0, 256)).containing(0)?.segment ?? "";
    if (/\S/.test(first)) return; // e.g. a space carrying a combining mark: not whitespace
    expect(cpLength(previous.content) + cpLength(first)).toBeGreaterThan(maxChars);
  });
}

function check(field: ChunkField, text: string, maxChars: number): FieldChunk[] {
  const chunks = chunkField(field, text, { maxChars });
  assertInvariants(field, text, chunks, maxChars);
  return chunks;
}

const contents = (chunks: FieldChunk[]) => chunks.map((c) => c.content);
const sections = (chunks: FieldChunk[]) => chunks.map((c) => c.section);

describe("chunkField examples", () => {
  const paper = [
    "Preamble before any heading.",
    "",
    "# Introduction",
    "",
    "Intro paragraph.",
    "",
    "## Background ##",
    "",
    "Background text.",
    "",
    "### Prior work",
    "Prior work text.",
    "",
    "## Motivation",
    "",
    "Why.",
    "",
    "# Methods",
    "",
    "## Data collection",
    "",
    "We collected data.",
    "",
  ].join("\n");

  it("assigns nested heading paths and starts a chunk at every heading", () => {
    const chunks = check("body", paper, 2000);
    expect(contents(chunks)).toEqual([
      "Preamble before any heading.\n\n",
      "# Introduction\n\nIntro paragraph.\n\n",
      "## Background ##\n\nBackground text.\n\n",
      "### Prior work\nPrior work text.\n\n",
      "## Motivation\n\nWhy.\n\n",
      "# Methods\n\n",
      "## Data collection\n\nWe collected data.\n",
    ]);
    expect(sections(chunks)).toEqual([
      null,
      "Introduction",
      "Introduction > Background",
      "Introduction > Background > Prior work",
      "Introduction > Motivation",
      "Methods",
      "Methods > Data collection",
    ]);
  });

  it("follows CommonMark for heading text and skipped levels", () => {
    const text = "# C#\n### Deep #\n## Mid   ###   \n#NotAHeading\n    # indented code\n#\nend";
    const chunks = check("body", text, 2000);
    expect(sections(chunks)).toEqual(["C#", "C# > Deep", "C# > Mid", null]);
    expect(contents(chunks)).toEqual([
      "# C#\n",
      "### Deep #\n",
      "## Mid   ###   \n#NotAHeading\n    # indented code\n",
      "#\nend",
    ]);
  });

  it("gives empty sections a chunk of their own (heading followed by heading)", () => {
    const chunks = check("body", "# A\n## B\n## C\ntext\n", 2000);
    expect(contents(chunks)).toEqual(["# A\n", "## B\n", "## C\ntext\n"]);
    expect(sections(chunks)).toEqual(["A", "A > B", "A > C"]);
  });

  it("does not treat # lines or blank lines inside fences as headings or breaks", () => {
    const fence = ["````python", "# not a heading", "", "```", "## still code", "````"].join("\n");
    const text = `# Code\n\nIntro.\n\n${fence}\n\nAfter.\n\n~~~\n# tilde fence\n~~~~\n# Next\n`;
    const chunks = check("body", text, 2000);
    expect(sections(chunks)).toEqual(["Code", "Next"]);
    expect(chunks[0]?.content).toContain(fence);
    // Small maxChars: the fence is kept whole when it fits, even if its neighbours do not.
    const small = check("body", text, cpLength(fence) + 2);
    expect(small.some((c) => c.content.startsWith(fence))).toBe(true);
  });

  it("splits an oversized fence only at line starts", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `    value_${i} = compute(${i})`);
    const text = `\`\`\`\n${lines.join("\n")}\n\`\`\`\n`;
    const chunks = check("body", text, 80);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(1)) expect(chunk.content).toMatch(/^ {4}value_|^```/);
  });

  it("an unclosed fence runs to the end of the field", () => {
    const chunks = check("body", "# A\n```\n# B\ncode\n", 2000);
    expect(sections(chunks)).toEqual(["A"]);
  });

  it("keeps a table whole and splits an oversized one at rows", () => {
    const table = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |";
    const text = `Before the table.\n\n${table}\n\nAfter the table.\n`;
    const chunks = check("body", text, cpLength(table) + 1);
    expect(chunks.some((c) => c.content.startsWith(table))).toBe(true);
    const rows = check("body", text, 16);
    expect(rows.filter((c) => c.content.startsWith("|")).map((c) => c.content)).toEqual([
      "| a | b |\n",
      "|---|---|\n",
      "| 1 | 2 |\n",
      "| 3 | 4 |\n\n",
    ]);
  });

  it("handles CRLF line endings", () => {
    const text = "Before.\r\n\r\n# One\r\n\r\nFirst.\r\n\r\n## Two\r\nSecond.\r\n";
    const chunks = check("body", text, 2000);
    expect(contents(chunks)).toEqual([
      "Before.\r\n\r\n",
      "# One\r\n\r\nFirst.\r\n\r\n",
      "## Two\r\nSecond.\r\n",
    ]);
    expect(sections(chunks)).toEqual([null, "One", "One > Two"]);
    const small = check("body", text.repeat(5), 16);
    expect(small.every((c) => !c.content.startsWith("\n"))).toBe(true);
  });

  it("keeps trailing newlines and leading whitespace", () => {
    expect(contents(check("abstract", "\n\n  Text.\n\n\n", 2000))).toEqual(["\n\n  Text.\n\n\n"]);
    expect(contents(check("body", "# H\n\nText.\n\n\n\n", 2000))).toEqual(["# H\n\nText.\n\n\n\n"]);
  });

  it("returns one chunk for a whitespace-only field and none for an empty one", () => {
    for (const field of ["title", "abstract", "body"] as const) {
      expect(check(field, " \n\t\n \r\n ", 16)).toEqual([
        { content: " \n\t\n \r\n ", start: 0, end: 8, section: null },
      ]);
      expect(chunkField(field, "", { maxChars: DEFAULT_CHUNK_MAX_CHARS })).toEqual([]);
    }
  });

  it("treats title and abstract as plain text", () => {
    const text = "# Not a heading\n\n```\ncode\n```\n| not | table |";
    for (const field of ["title", "abstract"] as const) {
      const chunks = check(field, text, 16);
      expect(chunks.every((c) => c.section === null)).toBe(true);
    }
  });

  it("packs paragraphs greedily and splits a long paragraph at sentences", () => {
    const sentence = "This is one sentence. ";
    const text = `Short one.\n\nShort two.\n\n${sentence.repeat(6).trimEnd()}\n\nTail.\n`;
    const chunks = check("abstract", text, 50);
    expect(contents(chunks)).toEqual([
      "Short one.\n\nShort two.\n\n",
      "This is one sentence. This is one sentence. ",
      "This is one sentence. This is one sentence. ",
      "This is one sentence. This is one sentence.\n\n",
      "Tail.\n",
    ]);
  });

  it("lets a heading keep the start of an oversized paragraph", () => {
    const text = `## Results\n\n${"Values rose. ".repeat(10)}`;
    const chunks = check("body", text, 40);
    expect(chunks[0]?.content).toBe("## Results\n\nValues rose. Values rose. ");
  });

  it("splits long sentences at whitespace, then words, then graphemes", () => {
    const words = check("title", "alpha beta gamma delta epsilon zeta eta theta", 16);
    expect(contents(words)).toEqual(["alpha beta ", "gamma delta ", "epsilon zeta ", "eta theta"]);
    const cjk = "我们的研究表明这个方法在多种数据集上都非常有效而且计算成本很低";
    const cjkChunks = check("abstract", cjk, 16);
    expect(cjkChunks.length).toBeGreaterThan(1);
    const word = "x".repeat(40);
    expect(contents(check("title", word, 16))).toEqual([
      "x".repeat(16),
      "x".repeat(16),
      "x".repeat(8),
    ]);
  });

  it("never splits emoji sequences or combining accents", () => {
    const text = "👨‍👩‍👧‍👦🧑🏿‍🔬🏳️‍🌈🇪🇸👍🏽".repeat(6) + "n\u0303a\u0301".repeat(10);
    for (const maxChars of [16, 17, 20, 31]) {
      const chunks = check("body", text, maxChars);
      assertGraphemesKept(text, chunks, maxChars);
    }
  });

  it("hard-cuts a cluster longer than maxChars at code points without splitting pairs", () => {
    const text = `a${"\u0301".repeat(40)}😀${"\u{1F3FB}".repeat(20)}`;
    const chunks = check("title", text, 16);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it("reports offsets in code points", () => {
    const chunks = check("title", "😀😀😀😀😀 😀😀😀😀😀 😀😀😀😀😀 😀😀😀😀😀", 16);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 12],
      [12, 23],
    ]);
  });

  it("rejects maxChars below 16 or not an integer", () => {
    for (const maxChars of [15, 0, -1, 16.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => chunkField("body", "text", { maxChars })).toThrow(RangeError);
    }
  });
});

describe("chunkPaper", () => {
  it("numbers chunks across title, abstract and body in order", () => {
    const paper = {
      title: "A title",
      abstract: "First abstract paragraph.\n\nSecond abstract paragraph.",
      body: "# One\n\nText.\n\n# Two\n\nMore text.\n",
    };
    const chunks = chunkPaper(paper, { maxChars: 30 });
    expect(chunks.map((c) => [c.chunk_index, c.field, c.section])).toEqual([
      [0, "title", null],
      [1, "abstract", null],
      [2, "abstract", null],
      [3, "body", "One"],
      [4, "body", "Two"],
    ]);
    for (const field of ["title", "abstract", "body"] as const) {
      const own = chunks.filter((c) => c.field === field);
      expect(own.map((c) => c.content).join("")).toBe(paper[field]);
    }
  });

  it("skips empty fields without gaps in chunk_index", () => {
    const chunks = chunkPaper({ title: "", abstract: "", body: "Body." }, { maxChars: 16 });
    expect(chunks).toEqual([
      { content: "Body.", start: 0, end: 5, section: null, chunk_index: 0, field: "body" },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

const fields = fc.constantFrom<ChunkField>("title", "abstract", "body");
const maxCharsArb = fc.oneof(
  fc.integer({ min: 16, max: 40 }),
  fc.integer({ min: 16, max: 300 }),
  fc.integer({ min: 16, max: 3000 }),
);

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const whitespaceUnit = fc.constantFrom(" ", "\n", "\r\n", "\r", "\t", "\n\n", "\u00a0", "\u3000");
const markdownUnit = fc.constantFrom("# ", "## ", "```", "~~~", "| ", ". ", "? ", "\u200d");

/** Lines joined with a line ending; paragraphs, headings etc. are built from these words. */
const plainWord = fc.constantFrom(
  "the",
  "model",
  "data",
  "results",
  "señal",
  "año",
  "niño",
  "acción",
  "Pin\u0303a",
  "cafe\u0301",
  "研究",
  "数据",
  "👍🏽",
  "👨‍👩‍👧",
  "x".repeat(30),
  "{{formula:61dfc976-7f58-49bc-bc57-8612b6edd0ec}}",
);
const sentenceArb = fc
  .tuple(
    fc.array(plainWord, { minLength: 1, maxLength: 20, size: "medium" }),
    fc.constantFrom(".", "?", "!", "", "。"),
  )
  .map(([words, end]) => `${words.join(" ")}${end}`);

describe("chunkField properties", () => {
  it("holds the invariants on grapheme strings mixed with whitespace and Markdown marks", () => {
    const unit = fc.oneof(
      { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }), weight: 6 },
      { arbitrary: whitespaceUnit, weight: 3 },
      { arbitrary: markdownUnit, weight: 1 },
    );
    fc.assert(
      fc.property(
        fields,
        fc.string({ unit, maxLength: 600, size: "max" }),
        maxCharsArb,
        (field, text, max) => {
          const chunks = check(field, text, max);
          assertGraphemesKept(text, chunks, max);
          if (field !== "body") assertWhitespaceTrails(chunks, max);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("holds the invariants on plain grapheme strings", () => {
    fc.assert(
      fc.property(
        fields,
        fc.string({ unit: "grapheme", maxLength: 1500, size: "max" }),
        maxCharsArb,
        (field, text, maxChars) => {
          const chunks = check(field, text, maxChars);
          assertGraphemesKept(text, chunks, maxChars);
          if (field !== "body") assertWhitespaceTrails(chunks, maxChars);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("is lossless on arbitrary code points including lone surrogates", () => {
    const unit = fc.oneof(
      { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 6 },
      { arbitrary: loneSurrogate, weight: 2 },
      { arbitrary: whitespaceUnit, weight: 2 },
    );
    fc.assert(
      fc.property(
        fields,
        fc.string({ unit, maxLength: 800, size: "max" }),
        maxCharsArb,
        (field, text, max) => {
          const chunks = chunkField(field, text, { maxChars: max });
          expect(chunks.map((c) => c.content).join("")).toBe(text);
          assertInvariants(field, text, chunks, max);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps Spanish accents (precomposed and combining) intact", () => {
    const word = fc
      .array(
        fc.constantFrom(
          ..."abcdeghilmnoprstuvyzáéíóúñü".split(""),
          "a\u0301",
          "e\u0301",
          "i\u0301",
          "o\u0301",
          "u\u0301",
          "n\u0303",
          "u\u0308",
        ),
        { minLength: 1, maxLength: 14 },
      )
      .map((letters) => letters.join(""));
    const sentence = fc
      .tuple(
        fc.constantFrom(["¿", "?"], ["¡", "!"], ["", "."], ["", "…"]),
        fc.array(word, { minLength: 1, maxLength: 25, size: "medium" }),
      )
      .map(([[open, close], words]) => `${open}${words.join(" ")}${close}`);
    const text = fc
      .array(fc.tuple(sentence, fc.constantFrom(" ", "  ", "\n", "\n\n", "\r\n\r\n", "\n \n")), {
        maxLength: 60,
        size: "max",
      })
      .map((parts) => parts.flat().join(""));
    fc.assert(
      fc.property(fields, text, maxCharsArb, (field, t, maxChars) => {
        const chunks = check(field, t, maxChars);
        assertGraphemesKept(t, chunks, maxChars);
        assertWhitespaceTrails(chunks, maxChars);
      }),
      { numRuns: 100 },
    );
  });

  it("cuts long paragraphs only at sentence ends, packing sentences greedily", () => {
    const word = fc.constantFrom("model", "data", "año", "señal", "niño", "cafe\u0301", "研究");
    const sentence = fc
      .tuple(
        fc.constantFrom("The", "Results", "Año", "Señal", "Ñandú"),
        fc.array(word, { maxLength: 20, size: "medium" }),
        fc.constantFrom(".", "?", "!"),
      )
      .map(([first, rest, end]) => `${[first, ...rest].join(" ")}${end}`);
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 600, size: "max" }),
        fc.integer({ min: 200, max: 3000 }),
        fields,
        (sentences, maxChars, field) => {
          const text = sentences.join(" ");
          const chunks = check(field, text, maxChars);
          assertWhitespaceTrails(chunks, maxChars);
          chunks.forEach((chunk, i) => {
            const next = chunks[i + 1];
            if (!next) return;
            expect(chunk.content).toMatch(/[.?!] $/);
            // Greedy: the next chunk's first sentence would not have fitted.
            const firstSentence = /^.*?[.?!]( |$)/.exec(next.content)?.[0] ?? next.content;
            expect(cpLength(chunk.content) + cpLength(firstSentence)).toBeGreaterThan(maxChars);
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("obeys maxChars on CJK text without spaces", () => {
    const han = fc.integer({ min: 0x4e00, max: 0x9fff }).map((c) => String.fromCodePoint(c));
    const cjk = fc
      .array(
        fc.oneof({ arbitrary: han, weight: 20 }, fc.constantFrom("。", "，", "、", "𠀋", "\n")),
        {
          maxLength: 3000,
          size: "max",
        },
      )
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(fields, cjk, maxCharsArb, (field, text, maxChars) => {
        const chunks = check(field, text, maxChars);
        assertGraphemesKept(text, chunks, maxChars);
        assertWhitespaceTrails(chunks, maxChars);
      }),
      { numRuns: 100 },
    );
  });

  it("never splits emoji sequences", () => {
    const emoji = fc.constantFrom(
      "😀",
      "👍🏽",
      "👨‍👩‍👧‍👦",
      "🧑🏿‍🔬",
      "🏳️‍🌈",
      "🇪🇸",
      "🇯🇵",
      "❤️",
      "#️⃣",
      "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
      " ",
      "\n",
    );
    fc.assert(
      fc.property(
        fields,
        fc.array(emoji, { maxLength: 400, size: "max" }).map((e) => e.join("")),
        maxCharsArb,
        (field, text, maxChars) => {
          const chunks = check(field, text, maxChars);
          assertGraphemesKept(text, chunks, maxChars);
          assertWhitespaceTrails(chunks, maxChars);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Generated Markdown documents with an oracle for sections and atomic blocks
// ---------------------------------------------------------------------------------------------

type MdBlock =
  | { kind: "heading"; level: number; words: string[]; closing: boolean }
  | { kind: "paragraph"; lines: string[] }
  | { kind: "fence"; char: "`" | "~"; length: number; lines: string[]; closed: boolean }
  | { kind: "table"; rows: string[] };

interface MdDoc {
  text: string;
  /** Code point offset of each heading line and the section path it opens. */
  headings: { offset: number; path: string | null }[];
  /** Code point spans of fences and tables (without their final line ending). */
  atomics: { start: number; end: number }[];
}

const headingArb: fc.Arbitrary<MdBlock> = fc.record({
  kind: fc.constant("heading" as const),
  level: fc.integer({ min: 1, max: 6 }),
  words: fc.array(plainWord, { maxLength: 4 }),
  closing: fc.boolean(),
});
const paragraphArb: fc.Arbitrary<MdBlock> = fc.record({
  kind: fc.constant("paragraph" as const),
  lines: fc.array(
    fc.array(sentenceArb, { minLength: 1, maxLength: 4 }).map((s) => s.join(" ")),
    {
      minLength: 1,
      maxLength: 4,
    },
  ),
});
const codeLine = fc.oneof(
  fc.array(plainWord, { maxLength: 6 }).map((w) => `  ${w.join(" ")}`),
  fc.constantFrom("# comment", "## also code", "", "   ", "| not a table", "x = 1"),
);
const fenceArb: fc.Arbitrary<MdBlock> = fc
  .record({
    char: fc.constantFrom<"`" | "~">("`", "~"),
    length: fc.integer({ min: 3, max: 5 }),
    lines: fc.array(codeLine, { maxLength: 12, size: "medium" }),
    closed: fc.boolean(),
  })
  .map((f) => ({
    kind: "fence" as const,
    ...f,
    // A shorter marker of the same char inside the fence must not close it.
    lines: f.length > 3 ? [...f.lines, f.char.repeat(f.length - 1)] : f.lines,
  }));
const tableArb: fc.Arbitrary<MdBlock> = fc
  .array(fc.array(plainWord, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 })
  .map((rows) => ({
    kind: "table" as const,
    rows: rows.map((cells) => `| ${cells.join(" | ")} |`),
  }));

function renderDoc(blocks: MdBlock[], separators: string[], eol: string): MdDoc {
  let text = "";
  let offset = 0;
  const headings: MdDoc["headings"] = [];
  const atomics: MdDoc["atomics"] = [];
  const stack: { level: number; text: string }[] = [];
  const emit = (part: string) => {
    text += part;
    offset += cpLength(part);
  };
  blocks.forEach((block, i) => {
    if (i > 0) {
      // Tables must be separated by a blank line or consecutive ones would merge.
      const previous = blocks[i - 1];
      const needsBlank = block.kind === "table" && previous?.kind === "table";
      const separator = separators[i % separators.length] ?? "";
      emit(eol + (needsBlank && separator === "" ? eol : separator.replaceAll("\n", eol)));
    }
    if (block.kind === "heading") {
      const title = block.words.join(" ");
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= block.level) stack.pop();
      stack.push({ level: block.level, text: title });
      const path = stack
        .map((h) => h.text)
        .filter((t) => t !== "")
        .join(" > ");
      headings.push({ offset, path: path || null });
      const hashes = "#".repeat(block.level);
      emit(`${hashes}${title ? ` ${title}` : ""}${block.closing ? ` ${hashes}` : ""}`);
    } else if (block.kind === "paragraph") {
      emit(block.lines.join(eol));
    } else if (block.kind === "table") {
      const start = offset;
      emit(block.rows.join(eol));
      atomics.push({ start, end: offset });
    } else {
      const marker = block.char.repeat(block.length);
      const start = offset;
      emit([`${marker}${block.char === "`" ? "python" : ""}`, ...block.lines].join(eol));
      if (block.closed) emit(eol + marker);
      const trailingSpace = /\s*$/.exec(text)?.[0] ?? "";
      atomics.push({ start, end: offset - cpLength(trailingSpace) });
    }
  });
  return { text, headings, atomics };
}

const mdDocArb: fc.Arbitrary<MdDoc> = fc
  .tuple(
    fc.array(
      fc.oneof(
        { arbitrary: headingArb, weight: 3 },
        { arbitrary: paragraphArb, weight: 5 },
        { arbitrary: fenceArb, weight: 2 },
        { arbitrary: tableArb, weight: 2 },
      ),
      { maxLength: 25, size: "max" },
    ),
    fc.array(fc.constantFrom("", "\n", "\n\n", "  \n", "\n\t\n"), { minLength: 1, maxLength: 5 }),
    fc.constantFrom("\n", "\r\n"),
    fc.constantFrom("", "\n", "\n\n"),
  )
  .map(([blocks, separators, eol, trailing]) => {
    // An unclosed fence swallows everything after it, so only the last fence may be unclosed.
    const fixed = blocks.map((b, i) =>
      b.kind === "fence" && i < blocks.length - 1 ? { ...b, closed: true } : b,
    );
    const doc = renderDoc(fixed, separators, eol);
    return { ...doc, text: doc.text + trailing.replaceAll("\n", eol) };
  });

describe("Markdown body properties", () => {
  it("chunks follow sections, keep fitting fences and tables whole, and stay lossless", () => {
    fc.assert(
      fc.property(mdDocArb, maxCharsArb, (doc, maxChars) => {
        const chunks = check("body", doc.text, maxChars);
        assertGraphemesKept(doc.text, chunks, maxChars);
        const starts = new Set(chunks.map((c) => c.start));
        for (const heading of doc.headings) expect(starts.has(heading.offset)).toBe(true);
        for (const chunk of chunks) {
          const owner = doc.headings.filter((h) => h.offset <= chunk.start).at(-1);
          expect(chunk.section).toBe(owner ? owner.path : null);
        }
        for (const atomic of doc.atomics) {
          if (atomic.end - atomic.start > maxChars) continue;
          for (const start of starts) {
            const inside = start > atomic.start && start < atomic.end;
            expect(inside, `cut at ${start} inside block ${atomic.start}-${atomic.end}`).toBe(
              false,
            );
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("treats Markdown as plain text in title and abstract", () => {
    fc.assert(
      fc.property(
        mdDocArb,
        maxCharsArb,
        fc.constantFrom<ChunkField>("title", "abstract"),
        (d, m, f) => {
          check(f, d.text, m);
        },
      ),
      { numRuns: 50 },
    );
  });
});

// still partition losslessly.
describe("large and degenerate inputs", () => {
  it("partitions a 100 KB paper losslessly at every size", () => {
    const sections: string[] = [];
    let length = 0;
    for (let i = 0; length < 100_000; i++) {
      const paragraph = `Sentence ${i} about señales y niños, with 研究 and 👍🏽 emoji. `.repeat(
        1 + (i % 40),
      );
      const fence = i % 5 === 0 ? "```\n# code\n\nx = 1\n```\n\n" : "";
      const table = i % 7 === 0 ? "| a | b |\n|---|---|\n| 1 | 2 |\n\n" : "";
      const section = `## Section ${i}\n\n${paragraph}\n\n${fence}${table}${"y".repeat(i % 3000)}\n\n`;
      sections.push(section);
      length += section.length;
    }
    const body = sections.join("");
    expect(body.length).toBeGreaterThanOrEqual(100_000);
    for (const maxChars of [DEFAULT_CHUNK_MAX_CHARS, 300, 16]) {
      const chunks = chunkField("body", body, { maxChars });
      expect(chunks.map((c) => c.content).join("")).toBe(body);
    }
  });

  it("partitions degenerate 100 KB inputs losslessly", () => {
    const n = 100_000;
    const han = Array.from({ length: n }, (_, i) =>
      String.fromCharCode(0x4e00 + ((i * 7919) % 20000)),
    );
    const inputs = {
      cjkWithoutPunctuation: han.join(""),
      oneLongWord: "x".repeat(n),
      onlyNewlines: "\n".repeat(n),
      onlyCrlf: "\r\n".repeat(n / 2),
      oneGiantCluster: `a${"\u0301".repeat(n)}`,
      oneSentencePerLine: "A short sentence.\n".repeat(n / 18),
      longParagraph: "Short one. ".repeat(n / 11),
      headingsOnly: "# h\n".repeat(n / 4),
      loneSurrogates: "\ud800".repeat(n),
    };
    for (const [name, text] of Object.entries(inputs)) {
      for (const maxChars of [16, DEFAULT_CHUNK_MAX_CHARS]) {
        const chunks = chunkField("body", text, { maxChars });
        expect(chunks.map((c) => c.content).join(""), name).toBe(text);
      }
    }
  });
});
