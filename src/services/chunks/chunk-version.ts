/** @module chunkVersion: a version's chunks, its fields' partitions followed by its captions. */
import { once } from "../../lazy.ts";
import type { CaptionSpan } from "./captions.ts";
import {
  type Chunk,
  type ChunkOptions,
  chunkField,
  chunkPaper,
  type FieldChunk,
} from "./chunker.ts";

/** markdown-it loads with the first body that may hold a caption, not at start-up. */
const captionFinder = once(async () => (await import("./captions.ts")).findCaptions);

/** Bodies without an image or a `Table:` line have no caption: they skip the parse. */
const MAY_HOLD_CAPTION = /!\[|Table:/;

/** The captions of a body, in order (none without parsing when it cannot hold one). */
export async function bodyCaptions(body: string): Promise<CaptionSpan[]> {
  if (!MAY_HOLD_CAPTION.test(body)) return [];
  return (await captionFinder())(body);
}

/** Code point offset of each UTF-16 index of `text` (lone surrogates count as one). */
function codePointOffsets(text: string): Int32Array {
  const offsets = new Int32Array(text.length + 1);
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pairTail =
      code >= 0xdc00 && code <= 0xdfff && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800;
    if (!pairTail) count++;
    offsets[i + 1] = count;
  }
  return offsets;
}

/**
 * The `caption` chunks of a body whose `body` chunks are `bodyChunks`, numbered from
 * `firstIndex`. Each caption is chunked as plain text (a caption longer than `maxChars` is
 * several chunks) and its offsets are moved into the body, so `start`/`end` are code point
 * offsets into the body and `content` is exactly that span of it. `section` is the heading
 * path of the body chunk the caption starts in.
 */
export function captionChunks(
  body: string,
  captions: readonly CaptionSpan[],
  bodyChunks: readonly Pick<FieldChunk, "start" | "end" | "section">[],
  firstIndex: number,
  options: ChunkOptions,
): Chunk[] {
  if (captions.length === 0) return [];
  const offsets = codePointOffsets(body);
  const out: Chunk[] = [];
  for (const caption of captions) {
    const start = offsets[caption.start] ?? 0;
    const section = bodyChunks.find((c) => c.start <= start && start < c.end)?.section ?? null;
    for (const piece of chunkField("caption", body.slice(caption.start, caption.end), options)) {
      out.push({
        content: piece.content,
        start: start + piece.start,
        end: start + piece.end,
        section,
        chunk_index: firstIndex + out.length,
        field: "caption",
      });
    }
  }
  return out;
}

/**
 * Every chunk of a version, in `chunk_index` order: title, abstract and body partitioned as
 * `chunkPaper` does (unchanged: the indices of those chunks are what they always were), then
 * the body's figure and table captions as `caption` chunks. A caption's text is therefore in
 * two chunks, its body chunk and its caption chunk; search indexes it once, as the caption
 * (the body chunk is analysed with it blanked out, search/indexing.ts).
 */
export async function chunkVersion(
  paper: { title: string; abstract: string; body: string },
  options: ChunkOptions,
): Promise<Chunk[]> {
  const chunks = chunkPaper(paper, options);
  const captions = await bodyCaptions(paper.body);
  const body = chunks.filter((c) => c.field === "body");
  return [...chunks, ...captionChunks(paper.body, captions, body, chunks.length, options)];
}
