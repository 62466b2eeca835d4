/** @module The chunks domain's public surface: splitting a version's fields into indexed chunks. */
export {
  type Chunk,
  type ChunkField,
  type ChunkOptions,
  chunkField,
  chunkPaper,
  DEFAULT_CHUNK_MAX_CHARS,
  type FieldChunk,
} from "./chunker.ts";
export { chunkRow } from "./rows.ts";
