/** @module chunkRow: a chunk as the row that stores it, one mapping for publishing and bulk loads. */
import type { chunks } from "../../db/schema/index.ts";
import type { Chunk } from "./chunker.ts";

/** The `chunks` row for one chunk of a version (offsets in code points, section for body and captions). */
export function chunkRow(paperId: string, version: number, c: Chunk): typeof chunks.$inferInsert {
  return {
    paperId,
    version,
    chunkIndex: c.chunk_index,
    field: c.field,
    section: c.section,
    start: c.start,
    end: c.end,
    content: c.content,
  };
}
