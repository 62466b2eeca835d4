/** @module The files domain's public surface: source bundles, their conversion, stored files. */
export { bundleReader, type PreparedFile, type PreparedSource, prepareSource } from "./bundle.ts";
export { LATEX_HOWTO, latexAvailable } from "./latex.ts";
export { getFile } from "./serve.ts";
export {
  filePath,
  listFilesOfVersions,
  listVersionFiles,
  storeVersionFiles,
  type VersionFile,
  VersionFileSchema,
} from "./store.ts";
