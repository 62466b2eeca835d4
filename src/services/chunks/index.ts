/** @module The chunks domain's public surface: splitting a version's fields into indexed chunks. */
export { chunkPaper } from "./chunker.ts";
export { chunkRow } from "./rows.ts";
