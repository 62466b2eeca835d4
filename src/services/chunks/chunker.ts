/** @module Lossless, Markdown-aware splitting of a paper's title, abstract and body into chunks. */

/**
 * What a chunk is a span of: one of the version's three fields, which its chunks partition,
 * or a figure or table caption inside the body (chunk-version.ts), chunked as plain text.
 */
export type ChunkField = "title" | "abstract" | "body" | "caption";

export interface FieldChunk {
  content: string;
  start: number;
  end: number;
  section: string | null;
}

export interface Chunk extends FieldChunk {
  chunk_index: number;
  field: ChunkField;
}

export interface ChunkOptions {
  /** Maximum chunk length in Unicode code points; must be an integer >= 16. */
  maxChars: number;
}

export const DEFAULT_CHUNK_MAX_CHARS = 2000;

const MIN_CHUNK_MAX_CHARS = 16;

/**
 * How an oversized span is split, strongest boundary first. Each level's pieces, if still too
 * long, are split by the next level; a code point always fits because maxChars >= 16.
 */
const Level = { Sentence: 0, Line: 1, Space: 2, Word: 3, Grapheme: 4, CodePoint: 5 } as const;
type Level = (typeof Level)[keyof typeof Level];

/** A block inside a section: prose (paragraph, heading) or atomic (code fence, table). */
interface Block {
  start: number;
  end: number;
  atomic: boolean;
  heading: boolean;
}

interface Section {
  start: number;
  end: number;
  path: string | null;
  blocks: Block[];
}

// Fixed root locale so results do not depend on the host's default locale.
const sentenceSegmenter = new Intl.Segmenter("und", { granularity: "sentence" });
const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });
const graphemeSegmenter = new Intl.Segmenter("und", { granularity: "grapheme" });

/** UTF-16 units segmented past a cut candidate so that ICU sees what follows it. */
const SEGMENT_MARGIN = 32;
/** UTF-16 units per sentence segmentation window. */
const SENTENCE_WINDOW = 1024;
const WHITESPACE_RUN = /\s+/g;
const WHITESPACE_CHAR = /\s/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/s;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const TABLE_ROW = /^ {0,3}\|/;
/** Code points a grapheme cluster does not start with (GB9/GB9a): extenders, ZWJ, spacing marks. */
const CLUSTER_CONTINUATION = /^(?:[\p{Grapheme_Extend}\p{Mc}\p{Emoji_Modifier}]|\u200D)/u;
/** Grapheme_Cluster_Break=Prepend (Unicode 15): a cluster never ends right after one of these. */
const PREPEND =
  /[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u0D4E\u{110BD}\u{110CD}\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}]$/u;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Prefix sums mapping a UTF-16 index to a code point offset, counting lone surrogates as one. */
function codePointPrefix(text: string): Int32Array {
  const prefix = new Int32Array(text.length + 1);
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const pairTail =
      i > 0 && isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1));
    if (!pairTail) count++;
    prefix[i + 1] = count;
  }
  return prefix;
}

function isSpace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  return code >= 0x80 && WHITESPACE_CHAR.test(text[index] ?? "");
}

/** Index of the first CR or LF in [from, end), or `end`. */
function lineContentEnd(text: string, from: number, end = text.length): number {
  for (let i = from; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) return i;
  }
  return end;
}

/** Start of the next line given where a line's content ends (CRLF, LF or CR), capped at `end`. */
function lineEndAfter(text: string, contentEnd: number, end: number): number {
  if (contentEnd >= end) return end;
  const crlf = text.charCodeAt(contentEnd) === 0x0d && text.charCodeAt(contentEnd + 1) === 0x0a;
  return Math.min(contentEnd + (crlf ? 2 : 1), end);
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(text, i)) return false;
  return true;
}

/** Code units that form a grapheme cluster on their own whatever surrounds them (CR aside). */
function isSimpleUnit(code: number): boolean {
  return (code < 0x300 && code !== 0x0d) || (code >= 0x4e00 && code <= 0x9fff);
}

/**
 * Whether a cut at `index` is a grapheme cluster boundary, conservatively: false before an
 * extending mark, ZWJ or spacing mark (unless after a control character, GB4) and after a
 * prepended concatenation mark.
 */
function isClusterBoundary(text: string, index: number): boolean {
  const simple = isSimpleUnit(text.charCodeAt(index - 1)) && isSimpleUnit(text.charCodeAt(index));
  if (simple) return true;
  if (splitsSurrogatePair(text, index)) return false;
  if (PREPEND.test(text.slice(Math.max(index - 2, 0), index))) return false;
  const before = text.charCodeAt(index - 1);
  const control = before <= 0x1f || (before >= 0x7f && before <= 0x9f);
  if (control || before === 0x2028 || before === 0x2029) return true;
  return !CLUSTER_CONTINUATION.test(text.slice(index, index + 2));
}

/**
 * `index`, the first non-space character after some whitespace, moved back onto a space that
 * carries a combining mark, ZWJ etc. so the cut does not split that cluster; -1 if impossible.
 */
function contentCut(text: string, index: number): number {
  if (isClusterBoundary(text, index)) return index;
  if (index > 0 && isSpace(text, index - 1) && isClusterBoundary(text, index - 1)) return index - 1;
  return -1;
}

function splitsSurrogatePair(text: string, index: number): boolean {
  return (
    index > 0 &&
    index < text.length &&
    isHighSurrogate(text.charCodeAt(index - 1)) &&
    isLowSurrogate(text.charCodeAt(index))
  );
}

/** Heading text per CommonMark: trimmed, closing `#` run removed only when space-separated. */
function headingText(raw: string): string {
  const text = raw.trim();
  if (/^#+$/.test(text)) return "";
  return text.replace(/[ \t]+#+$/, "").trim();
}

/**
 * Splits a field into sections and blocks. Blank lines, and the indentation of a paragraph's
 * first line, are attached to the end of the preceding block (or to the following one when
 * nothing precedes them), so every block except possibly a section's first starts with
 * non-blank content. Without `markdown`, the whole text is one section of paragraphs.
 */
function parseSections(text: string, markdown: boolean): Section[] {
  const sections: Section[] = [];
  const headings: { level: number; text: string }[] = [];
  let section: Section = { start: 0, end: text.length, path: null, blocks: [] };
  let open: "para" | "table" | "fence" | null = null;
  let fenceChar = "";
  let fenceLength = 0;
  let pendingBlankStart = -1;

  const addBlock = (start: number, end: number, atomic: boolean, heading: boolean): void => {
    const blockStart = pendingBlankStart >= 0 ? pendingBlankStart : start;
    pendingBlankStart = -1;
    section.blocks.push({ start: blockStart, end, atomic, heading });
  };
  const closeSection = (end: number): void => {
    section.end = end;
    if (pendingBlankStart >= 0) {
      section.blocks.push({ start: pendingBlankStart, end, atomic: false, heading: false });
      pendingBlankStart = -1;
    }
    if (section.end > section.start) sections.push(section);
  };

  let lineStart = 0;
  while (lineStart < text.length) {
    const contentEnd = lineContentEnd(text, lineStart);
    const lineEnd = lineEndAfter(text, contentEnd, text.length);
    const blank = isBlank(text, lineStart, contentEnd);
    const line = blank ? "" : text.slice(lineStart, contentEnd);
    const last = section.blocks[section.blocks.length - 1];

    if (open === "fence" && last) {
      last.end = lineEnd;
      const close = FENCE_CLOSE.exec(line);
      if (close?.[1] && close[1][0] === fenceChar && close[1].length >= fenceLength) open = null;
    } else if (blank) {
      if (last) last.end = lineEnd;
      else if (pendingBlankStart < 0) pendingBlankStart = lineStart;
      open = null;
    } else {
      const heading = markdown ? ATX_HEADING.exec(line) : null;
      const fence = markdown && !heading ? FENCE_OPEN.exec(line) : null;
      const fenceMarker = fence?.[1];
      if (heading) {
        closeSection(lineStart);
        const level = heading[1]?.length ?? 1;
        while (headings.length > 0 && (headings[headings.length - 1]?.level ?? 0) >= level) {
          headings.pop();
        }
        headings.push({ level, text: headingText(heading[2] ?? "") });
        const path = headings
          .map((h) => h.text)
          .filter((t) => t.length > 0)
          .join(" > ");
        section = { start: lineStart, end: text.length, path: path || null, blocks: [] };
        addBlock(lineStart, lineEnd, false, true);
        open = null;
      } else if (fenceMarker && !(fenceMarker[0] === "`" && fence[2]?.includes("`"))) {
        addBlock(lineStart, lineEnd, true, false);
        open = "fence";
        fenceChar = fenceMarker[0] ?? "`";
        fenceLength = fenceMarker.length;
      } else {
        const kind = markdown && TABLE_ROW.test(line) ? "table" : "para";
        if (open === kind && last) {
          last.end = lineEnd;
        } else if (kind === "para" && last) {
          // Indentation before a paragraph is whitespace between blocks: it ends the last one.
          let contentStart = lineStart;
          while (isSpace(text, contentStart)) contentStart++;
          contentStart = Math.max(contentCut(text, contentStart), lineStart);
          last.end = contentStart;
          addBlock(contentStart, lineEnd, false, false);
        } else {
          addBlock(lineStart, lineEnd, kind === "table", false);
        }
        open = kind;
      }
    }
    lineStart = lineEnd;
  }
  closeSection(text.length);
  return sections;
}

/** Greedy packer of contiguous spans into chunks of at most `maxChars` code points. */
class Packer {
  readonly spans: [number, number][] = [];
  private curStart = -1;
  private curEnd = -1;
  /** True while the open chunk holds only a heading, which should not be left on its own. */
  private sticky = false;
  /** True while the open chunk holds only whitespace, which should not be left on its own. */
  private blank = false;

  constructor(
    private readonly text: string,
    private readonly codePoints: Int32Array,
    private readonly maxChars: number,
  ) {}

  private length(start: number, end: number): number {
    return (this.codePoints[end] ?? 0) - (this.codePoints[start] ?? 0);
  }

  flush(): void {
    if (this.curStart >= 0) this.spans.push([this.curStart, this.curEnd]);
    this.curStart = -1;
    this.curEnd = -1;
    this.sticky = false;
    this.blank = false;
  }

  addHeading(start: number, end: number, level: Level): void {
    this.add(start, end, level);
    this.sticky = this.curStart === start && this.curEnd === end;
  }

  /**
   * Appends a span; if it does not fit, the open chunk is closed first, unless the span is too
   * long anyway and the open chunk holds only a heading or only whitespace (then the span's
   * first pieces join it). A span too long on its own is split: surrounding whitespace alone is
   * never a reason to cut its content; otherwise it is cut at `level` and its pieces are added
   * recursively with the next level (word level and finer go through {@link Packer.fill}).
   */
  add(start: number, end: number, level: Level, code = false): void {
    if (this.curStart >= 0 && this.length(this.curStart, end) <= this.maxChars) {
      if (this.blank) this.blank = isBlank(this.text, this.curEnd, end);
      this.curEnd = end;
      this.sticky = false;
      return;
    }
    const fitsAlone = this.length(start, end) <= this.maxChars;
    // A lone heading may take the first sentences, lines or words of an oversized span, and
    // leftover whitespace any of its pieces.
    const keep = this.blank || (this.sticky && level < Level.Word);
    if (fitsAlone || !keep) this.flush();
    if (fitsAlone) {
      this.curStart = start;
      this.curEnd = end;
      this.blank = isBlank(this.text, start, end);
      return;
    }
    if (level < Level.Grapheme) {
      const text = this.text;
      let contentStart = start;
      while (contentStart < end && isSpace(text, contentStart)) contentStart++;
      let contentEnd = end;
      while (contentEnd > contentStart && isSpace(text, contentEnd - 1)) contentEnd--;
      if (contentStart > start && contentStart < end) {
        contentStart = Math.max(contentCut(text, contentStart), start);
      }
      if (
        contentEnd > contentStart &&
        this.length(contentStart, contentEnd) <= this.maxChars &&
        isClusterBoundary(text, contentEnd)
      ) {
        if (contentStart > start) this.add(start, contentStart, Level.Grapheme);
        this.add(contentStart, contentEnd, level, code);
        // Trailing whitespace fills the chunk up before spilling over into the next one.
        if (contentEnd < end) this.fill(contentEnd, end, Level.Grapheme);
        return;
      }
    }
    if (level >= Level.Word) {
      this.fill(start, end, level);
      return;
    }
    const cuts = this.cuts(start, end, level, code);
    const next = (level + 1) as Level;
    let pieceStart = start;
    for (const cut of cuts) {
      this.add(pieceStart, cut, next, code);
      pieceStart = cut;
    }
    this.add(pieceStart, end, next, code);
  }

  /**
   * Greedy packing of [start, end) at word, grapheme or code point level without enumerating
   * every unit (ICU iteration costs microseconds per segment): each step cuts at the last
   * boundary that still fits, falling back to finer levels only when no boundary fits.
   */
  private fill(start: number, end: number, level: Level): void {
    let pos = start;
    while (pos < end) {
      if (this.curStart >= 0 && this.length(this.curStart, end) <= this.maxChars) {
        if (this.blank) this.blank = isBlank(this.text, this.curEnd, end);
        this.curEnd = end;
        this.sticky = false;
        return;
      }
      if (this.curStart < 0 && this.length(pos, end) <= this.maxChars) {
        this.curStart = pos;
        this.curEnd = end;
        this.blank = isBlank(this.text, pos, end);
        return;
      }
      const open = this.curStart >= 0;
      const limit = this.limit(open ? this.curStart : pos, end);
      let cut = limit > pos ? this.lastBoundary(level, pos, end, limit) : -1;
      if (cut < 0 && open && (!this.blank || limit <= pos)) {
        // The unit at `pos` does not fit behind the open chunk: start a fresh one.
        this.flush();
        continue;
      }
      for (let finer = level + 1; cut < 0 && finer <= Level.CodePoint; finer++) {
        cut = this.lastBoundary(finer as Level, pos, end, limit);
      }
      if (!open) this.curStart = pos;
      this.curEnd = cut;
      this.flush();
      pos = cut;
    }
  }

  /** Largest UTF-16 index in [start, end] at most maxChars code points after `start`. */
  private limit(start: number, end: number): number {
    const target = (this.codePoints[start] ?? 0) + this.maxChars;
    let low = start;
    let high = Math.min(end, start + 2 * this.maxChars);
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.codePoints[middle] ?? 0) <= target) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /**
   * Last boundary of `level` in (pos, limit], or -1; `pos` is a boundary and limit < end.
   * Only a window just past `limit` is segmented: a boundary's start depends on what precedes
   * it and on little that follows, so a margin suffices.
   */
  private lastBoundary(level: Level, pos: number, end: number, limit: number): number {
    const text = this.text;
    if (level === Level.CodePoint) return limit > pos ? limit : -1;
    if (
      level === Level.Grapheme &&
      isSimpleUnit(text.charCodeAt(limit - 1)) &&
      isSimpleUnit(text.charCodeAt(limit))
    ) {
      return limit; // Fast path: ICU costs microseconds per call.
    }
    const segmenter = level === Level.Word ? wordSegmenter : graphemeSegmenter;
    const segments = segmenter.segment(text.slice(pos, Math.min(end, limit + SEGMENT_MARGIN)));
    let offset = limit - pos;
    while (offset > 0) {
      // A word-level cut must start a non-space character (whitespace ends a piece).
      if (level === Level.Word) while (offset > 0 && isSpace(text, pos + offset)) offset--;
      if (offset <= 0) return -1;
      const cut = pos + (segments.containing(offset)?.index ?? 0);
      if (cut <= pos) return -1;
      const valid =
        level === Level.Grapheme
          ? !splitsSurrogatePair(text, cut)
          : !isSpace(text, cut) && isClusterBoundary(text, cut);
      if (valid) return cut;
      offset = cut - pos - 1;
    }
    return -1;
  }

  /**
   * Internal cut points of [start, end) at sentence, line or space level, increasing. Lines of
   * `code` keep their indentation; elsewhere a cut moves past whitespace.
   */
  private cuts(start: number, end: number, level: Level, code: boolean): number[] {
    const text = this.text;
    let raw: number[] = [];
    if (level === Level.Space) {
      const slice = text.slice(start, end);
      WHITESPACE_RUN.lastIndex = 0;
      for (let m = WHITESPACE_RUN.exec(slice); m; m = WHITESPACE_RUN.exec(slice)) {
        const cut = m.index + m[0].length;
        if (m.index > 0 && cut < slice.length) raw.push(start + cut);
      }
    } else if (level === Level.Line) {
      raw = this.lineCuts(start, end, code);
    } else {
      // Segmented window by window: iterating one long string's segments is quadratic in V8.
      // Only cuts a margin before a window's end are kept, and the next window starts at the
      // last kept cut, so ICU always sees the context that follows a cut.
      for (let pos = start; pos < end; ) {
        const windowEnd = Math.min(end, pos + SENTENCE_WINDOW);
        const accept = windowEnd === end ? end : windowEnd - SEGMENT_MARGIN;
        // Soft line breaks inside a paragraph are not sentence ends; same-length substitution.
        const slice = text.slice(pos, windowEnd).replace(/[\r\n]/g, " ");
        let next = accept;
        for (const { index } of sentenceSegmenter.segment(slice)) {
          if (pos + index > accept) break;
          if (index === 0) continue;
          raw.push(pos + index);
          next = pos + index;
        }
        pos = windowEnd === end ? end : next;
      }
    }

    // Cuts are normalised so that whitespace ends the preceding piece and no piece is
    // whitespace only or starts inside a grapheme cluster.
    let firstContent = start;
    while (firstContent < end && isSpace(text, firstContent)) firstContent++;
    const cuts: number[] = [];
    let previous = start;
    let skippedTo = start; // end of the last whitespace run skipped (keeps this linear)
    for (let cut of raw) {
      if (!code && cut < skippedTo) cut = skippedTo;
      else if (!code) {
        while (cut < end && isSpace(text, cut)) cut++;
        skippedTo = cut;
      }
      if (cut >= end || cut <= firstContent) continue;
      cut = contentCut(text, cut);
      if (cut <= previous || cut <= firstContent) continue;
      cuts.push(cut);
      previous = cut;
    }
    return cuts;
  }

  /** Starts of lines (with `code`, of non-blank lines: blank ones stay with the line before). */
  private lineCuts(start: number, end: number, code: boolean): number[] {
    const text = this.text;
    const cuts: number[] = [];
    let lineStart = lineEndAfter(text, lineContentEnd(text, start, end), end);
    while (lineStart < end) {
      const contentEnd = lineContentEnd(text, lineStart, end);
      if (!code || !isBlank(text, lineStart, contentEnd)) cuts.push(lineStart);
      lineStart = lineEndAfter(text, contentEnd, end);
    }
    return cuts;
  }
}

/**
 * Splits one field's text into spans.
 *
 * Invariants: the contents concatenate to exactly `text` (an empty text gives no chunks); each
 * chunk is `[...text].slice(start, end)` in code points, chunks are contiguous from 0 to the
 * code point length, and each holds at most `maxChars` code points. Cuts prefer, in order:
 * section headings (body only; a chunk never spans two sections), blank lines, sentence ends,
 * line breaks, whitespace, word boundaries, grapheme clusters, and code points only inside a
 * single cluster longer than `maxChars`; surrogate pairs are never split. Whitespace between
 * pieces ends the preceding chunk, so a chunk starts with whitespace only where the text does
 * or where that whitespace did not fit into the chunk before it.
 * In the body, fenced code blocks and `|` tables are kept whole when they fit and are otherwise
 * cut at line starts first. `section` is the " > "-joined ATX heading path in the body and
 * always null otherwise (title, abstract and a caption's text are plain text). Throws
 * RangeError when maxChars is not an integer >= 16.
 */
export function chunkField(field: ChunkField, text: string, options: ChunkOptions): FieldChunk[] {
  const { maxChars } = options;
  if (!Number.isInteger(maxChars) || maxChars < MIN_CHUNK_MAX_CHARS) {
    throw new RangeError(
      `maxChars must be an integer >= ${MIN_CHUNK_MAX_CHARS}, got ${String(maxChars)}`,
    );
  }
  if (text.length === 0) return [];

  const codePoints = codePointPrefix(text);
  const chunks: FieldChunk[] = [];
  for (const section of parseSections(text, field === "body")) {
    const packer = new Packer(text, codePoints, maxChars);
    for (const block of section.blocks) {
      if (block.heading) packer.addHeading(block.start, block.end, Level.Sentence);
      else if (block.atomic) packer.add(block.start, block.end, Level.Line, true);
      else packer.add(block.start, block.end, Level.Sentence);
    }
    packer.flush();
    for (const [start, end] of packer.spans) {
      chunks.push({
        content: text.slice(start, end),
        start: codePoints[start] ?? 0,
        end: codePoints[end] ?? 0,
        section: section.path,
      });
    }
  }
  return chunks;
}

/**
 * Chunks title, then abstract, then body; chunk_index runs 0..n-1 across all fields in that
 * order. Each field is chunked independently by {@link chunkField}, so offsets are relative to
 * that field's own text and no chunk mixes fields.
 */
export function chunkPaper(
  paper: { title: string; abstract: string; body: string },
  options: ChunkOptions,
): Chunk[] {
  const chunks: Chunk[] = [];
  for (const field of ["title", "abstract", "body"] as const) {
    for (const chunk of chunkField(field, paper[field], options)) {
      chunks.push({ ...chunk, chunk_index: chunks.length, field });
    }
  }
  return chunks;
}
