/** @module The files domain's public surface: source bundles, their conversion, stored files. */
export {
  bundleReader,
  convertLatexSource,
  type PreparedFile,
  type PreparedSource,
  prepareSource,
  type SavedConversions,
} from "./bundle.ts";
export { findLatexml, LATEX_HOWTO, type LatexConverter } from "./latex.ts";
export { BUNDLE_LIMITS, FIGURE_TYPES, SOURCE_TYPES, SUPPLEMENTARY_TYPES } from "./limits.ts";
export { type SourceRefusal, SourceRefused } from "./refusal.ts";
export { saveConversion, savedConversions } from "./saved.ts";
export { getFile } from "./serve.ts";
export {
  FilesFull,
  filePath,
  filesUsage,
  keepVersionFiles,
  listFilesOfVersions,
  listVersionFiles,
  storeVersionFiles,
  type VersionFile,
  VersionFileSchema,
} from "./store.ts";
