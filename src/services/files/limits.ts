/** @module What a source bundle may hold: sizes, counts and file types (docs/files.md). */

/**
 * Bounds of one bundle. The compressed size bounds the upload; the entry count and the
 * uncompressed sizes are enforced while inflating (never trusting the sizes an archive
 * declares), so a zip bomb stops at the first byte over.
 */
export const BUNDLE_LIMITS = {
  /** Bytes of the .zip or .tar.gz itself. */
  compressedMax: 20 * 1024 * 1024,
  /** Entries (files and folders). */
  entriesMax: 300,
  /** Bytes of any one file once unpacked. */
  fileMax: 10 * 1024 * 1024,
  /** Bytes of every file together once unpacked. */
  totalMax: 60 * 1024 * 1024,
  /** Files kept with a version (figures, supplementary files and sources). */
  keptMax: 60,
  /** A path inside the bundle, in characters. */
  pathMax: 200,
  /** Pixels of one raster figure (width × height) before it is decoded. */
  pixelsMax: 50_000_000,
  /** Widest a stored raster figure is; wider ones are resized. */
  figureWidthMax: 2400,
} as const;

/** Figures: shown on the page with <img>. PDF figures become PNG. */
export const FIGURE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
};

/** Supplementary data and code, offered as downloads. */
export const SUPPLEMENTARY_TYPES: Record<string, string> = {
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  jsonl: "application/jsonl",
  txt: "text/plain",
  md: "text/markdown",
  py: "text/x-python",
  r: "text/plain",
  jl: "text/plain",
  js: "text/javascript",
  ts: "text/plain",
  ipynb: "application/x-ipynb+json",
  parquet: "application/vnd.apache.parquet",
  npy: "application/octet-stream",
  pdf: "application/pdf",
  zip: "application/zip",
};

/** LaTeX sources, kept as the paper's source (as arXiv offers it). */
export const SOURCE_TYPES: Record<string, string> = {
  tex: "application/x-tex",
  bib: "application/x-bibtex",
  bbl: "application/x-tex",
  sty: "application/x-tex",
  cls: "application/x-tex",
  bst: "application/x-tex",
};

/** Build leftovers and system litter: skipped without a word. */
const IGNORED =
  /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)|\.(aux|log|out|blg|toc|lof|lot|fls|fdb_latexmk|synctex\.gz|synctex|nav|snm|vrb)$/i;

export function isIgnored(path: string): boolean {
  return IGNORED.test(path);
}

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}
