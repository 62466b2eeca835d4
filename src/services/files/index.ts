/** @module The files domain's public surface: source bundles, their conversion, stored files. */
export { bundleReader, type PreparedFile, type PreparedSource, prepareSource } from "./bundle.ts";
export { findLatexml, LATEX_HOWTO, type LatexConverter } from "./latex.ts";
export { BUNDLE_LIMITS, FIGURE_TYPES, SOURCE_TYPES, SUPPLEMENTARY_TYPES } from "./limits.ts";
export { type SourceRefusal, SourceRefused } from "./refusal.ts";
export { getFile } from "./serve.ts";
export {
  filePath,
  keepVersionFiles,
  listFilesOfVersions,
  listVersionFiles,
  storeVersionFiles,
  type VersionFile,
  VersionFileSchema,
} from "./store.ts";
