/** @module The files domain's public surface: source bundles, their conversion, stored files. */
export {
  bundleReader,
  convertLatexSource,
  type PreparedFile,
  type PreparedSource,
  prepareSource,
  type SavedConversions,
} from "./bundle.ts";
export { LATEX_HOWTO, latexAvailable } from "./latex.ts";
export { saveConversion, savedConversions } from "./saved.ts";
export { getFile } from "./serve.ts";
export {
  FilesFull,
  filePath,
  filesUsage,
  listVersionFiles,
  storeVersionFiles,
  type VersionFile,
  VersionFileSchema,
} from "./store.ts";
