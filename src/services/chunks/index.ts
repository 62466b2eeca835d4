/** @module The chunks domain's public surface: splitting a version's fields into indexed chunks. */
export { addMissingCaptionChunks } from "./backfill.ts";
export { chunkVersion } from "./chunk-version.ts";
export { chunkPaper } from "./chunker.ts";
export {
  isFigure,
  isTableCaption,
  safeLinkTarget,
  stripAnchor,
  TABLE_CAPTION,
} from "./markdown-rules.ts";
export { chunkRow } from "./rows.ts";
