/** @module What the chunker's tests share: the invariants every chunking must keep. */
import { expect } from "vitest";
import type { ChunkField, FieldChunk } from "./chunker.ts";

export function cpLength(text: string): number {
  return [...text].length;
}

/** Throws unless `chunks` satisfy rules 1-3 for `text` (lossless, code point offsets, size). */
export function assertInvariants(
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
