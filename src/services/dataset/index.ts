/** @module The dataset domain's public surface: what the front ends call. */
export { CROISSANT_MEDIA_TYPE, getCroissant } from "./croissant.ts";
export { EXPORT_FILE_NAMES, EXPORT_MEDIA_TYPE, type ExportKind, exportPath } from "./export.ts";
export { ChunkExportRecordSchema, PaperExportRecordSchema } from "./schemas.ts";
export { openExport } from "./snapshot.ts";
