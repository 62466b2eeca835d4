/**
 * @module prepareSource: a source bundle (LaTeX or Markdown, with figures and supplementary
 * files) turned into what a version stores — a Markdown body, its title and abstract when
 * the source has them, and its files, checked and hashed — before anything is written.
 */
import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import { resolve, sep } from "node:path";
import type { FileRole } from "../../db/schema/index.ts";
import { Invalid } from "../errors.ts";
import { checkImage } from "./images.ts";
import { findMainTex, LATEX_HOWTO, type LatexConverter } from "./latex.ts";
import {
  BUNDLE_LIMITS,
  extensionOf,
  FIGURE_TYPES,
  SOURCE_TYPES,
  SUPPLEMENTARY_TYPES,
} from "./limits.ts";
import { refuseSource as refuse } from "./refusal.ts";
import { type Bundle, unpackBundle } from "./unpack.ts";

/** One file of a version, ready to store. */
export interface PreparedFile {
  name: string;
  role: FileRole;
  mediaType: string;
  bytes: Uint8Array;
  sha256: string;
}

export interface PreparedSource {
  kind: "latex" | "markdown";
  /** From `\title` and the abstract environment (LaTeX); empty when the source has none. */
  title: string;
  abstract: string;
  body: string;
  files: PreparedFile[];
  /** The converter's complaints that did not stop it (undefined macros and the like). */
  warnings: string[];
  /** Milliseconds the LaTeX conversion took (0 for Markdown, and for a saved conversion). */
  convertMs: number;
}

/**
 * What the LaTeX converter makes of a bundle: the text (Markdown, with the title and abstract
 * apart) and the figures the text shows, checked. The rest of a version's files (the sources,
 * data and code) come from the bundle itself.
 */
export interface LatexConversion {
  main: string;
  title: string;
  abstract: string;
  body: string;
  figures: PreparedFile[];
  warnings: string[];
  convertMs: number;
}

/**
 * Conversions made earlier, by the sha256 of the archive they were made from (the sample
 * papers' are committed beside them, so a machine without LaTeXML seeds them): a hit stands
 * in for running the converter; a miss (null) runs it.
 */
export type SavedConversions = (archiveSha256: string) => Promise<LatexConversion | null>;

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function file(name: string, role: FileRole, mediaType: string, bytes: Uint8Array): PreparedFile {
  return { name, role, mediaType, bytes, sha256: sha256Hex(bytes) };
}

/**
 * Unpacks a .zip or .tar.gz (bounded: docs/files.md) and converts it. A bundle with a
 * `\documentclass` file is LaTeX (its main file found, or `main` named), otherwise it must
 * hold a Markdown file (`main`, else `paper.md`, `main.md` or the only `.md`). Files of a
 * type not listed in limits.ts are refused by name, so nothing unexpected is served later.
 * LaTeX needs `latex`, the converter the server found (ServiceContext.latex), unless `saved`
 * has a conversion of this very archive: then it is not converted again (a machine without
 * LaTeXML seeds the LaTeX samples), the bundle is still unpacked and checked, and its
 * sources, data and code are kept as a converted one's are. A LaTeX bundle neither can
 * convert is refused, as is any bundle Quire cannot use (SourceRefused, saying why).
 */
export async function prepareSource(
  archive: Uint8Array,
  options: {
    main?: string | undefined;
    latex?: LatexConverter | undefined;
    saved?: SavedConversions | undefined;
  } = {},
): Promise<PreparedSource> {
  const bundle = await checkedBundle(archive);
  const named = options.main;
  let prepared: PreparedSource;
  if (isLatex(bundle, named)) {
    const saved = options.saved ? await options.saved(sha256Hex(archive)) : null;
    let conversion = saved && (named === undefined || saved.main === named) ? saved : null;
    if (!conversion) {
      if (!options.latex) {
        refuse(
          { code: "latex_unavailable" },
          `it is LaTeX, and this server cannot convert LaTeX (to accept it, ${LATEX_HOWTO}); a Markdown bundle works`,
        );
      }
      conversion = await convertBundle(bundle, named, options.latex);
    }
    prepared = withBundleFiles(conversion, bundle);
  } else {
    prepared = await fromMarkdown(bundle, named);
  }
  if (prepared.files.length > BUNDLE_LIMITS.keptMax) {
    refuse(
      { code: "too_many_files", max: BUNDLE_LIMITS.keptMax },
      `it has more than ${BUNDLE_LIMITS.keptMax} files to keep`,
    );
  }
  return prepared;
}

/**
 * The converter's part of prepareSource for a LaTeX archive, run for real (what
 * `npm run samples:convert` saves, and what samples.latex.test.ts compares with what it saved).
 */
export async function convertLatexSource(
  archive: Uint8Array,
  options: { main?: string | undefined; latex: LatexConverter },
): Promise<LatexConversion> {
  const bundle = await checkedBundle(archive);
  if (!isLatex(bundle, options.main)) {
    refuse({ code: "not_latex" }, "it holds no LaTeX file with \\documentclass");
  }
  return convertBundle(bundle, options.main, options.latex);
}

async function checkedBundle(archive: Uint8Array): Promise<Bundle> {
  const bundle = await unpackBundle(archive);
  if (bundle.size === 0) refuse({ code: "empty" }, "it is empty");
  const unknown = [...bundle.keys()].filter((p) => {
    const ext = extensionOf(p);
    return !FIGURE_TYPES[ext] && !SUPPLEMENTARY_TYPES[ext] && !SOURCE_TYPES[ext];
  });
  if (unknown.length > 0) {
    const paths = unknown.slice(0, 10);
    refuse(
      { code: "unknown_types", paths },
      `these files are of a type Quire does not keep: ${paths.join(", ")} (see the list of accepted types)`,
    );
  }
  return bundle;
}

function isLatex(bundle: Bundle, named: string | undefined): boolean {
  return named
    ? named.toLowerCase().endsWith(".tex")
    : [...bundle].some(
        ([p, b]) =>
          p.toLowerCase().endsWith(".tex") && /\\documentclass/.test(new TextDecoder().decode(b)),
      );
}

async function convertBundle(
  bundle: Bundle,
  named: string | undefined,
  latex: LatexConverter,
): Promise<LatexConversion> {
  const main = findMainTex(bundle, named);
  const output = await latex.convert(bundle, main);
  // The HTML parser loads with the first LaTeX bundle, not at start-up.
  const { latexmlToMarkdown } = await import("./latexml-markdown.ts");
  const doc = latexmlToMarkdown(output.html);
  if (!doc.body.trim()) {
    refuse({ code: "no_text", path: main }, `the converter produced no text from "${main}"`);
  }
  const figures: PreparedFile[] = [];
  for (const path of new Set(doc.images)) {
    const bytes = output.files.get(path);
    if (!bytes) {
      refuse({ code: "figure_missing", path }, `the converter's figure "${path}" is missing`);
    }
    const checked = await checkImage(path, bytes, { trim: !bundle.has(path) });
    figures.push(file(path, "figure", checked.mediaType, checked.bytes));
  }
  return {
    main,
    title: doc.title,
    abstract: doc.abstract,
    body: doc.body,
    figures,
    warnings: output.warnings,
    convertMs: output.ms,
  };
}

/** A conversion's figures, then the bundle's data and code, then its LaTeX sources. */
function withBundleFiles(conversion: LatexConversion, bundle: Bundle): PreparedSource {
  const files: PreparedFile[] = [...conversion.figures];
  const figures = new Set(conversion.figures.map((f) => f.name));
  for (const [path, bytes] of bundle) {
    if (figures.has(path)) continue;
    const ext = extensionOf(path);
    if (SUPPLEMENTARY_TYPES[ext] && !FIGURE_TYPES[ext] && ext !== "pdf") {
      files.push(file(path, "supplementary", SUPPLEMENTARY_TYPES[ext], bytes));
    } else if (SOURCE_TYPES[ext]) {
      files.push(file(path, "source", SOURCE_TYPES[ext], bytes));
    }
  }
  return {
    kind: "latex",
    title: conversion.title,
    abstract: conversion.abstract,
    body: conversion.body,
    files,
    warnings: conversion.warnings,
    convertMs: conversion.convertMs,
  };
}

/** Image targets of Markdown (`![…](path)`), relative ones only. */
function markdownImages(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/!\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?/g)) {
    const target = m[1] ?? "";
    if (!/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(target)) {
      out.push(decodeURIComponent(target).replace(/^\.\//, ""));
    }
  }
  return out;
}

async function fromMarkdown(bundle: Bundle, named: string | undefined): Promise<PreparedSource> {
  const mds = [...bundle.keys()].filter((p) => p.toLowerCase().endsWith(".md"));
  const main =
    named ?? (mds.length === 1 ? mds[0] : ["paper.md", "main.md"].find((n) => bundle.has(n)));
  if (!main) {
    if (mds.length === 0) {
      refuse(
        { code: "no_main" },
        "it has neither a LaTeX file with \\documentclass nor a Markdown (.md) file",
      );
    }
    refuse(
      { code: "several_main", paths: mds },
      `it has several Markdown files (${mds.join(", ")}); name the main one`,
    );
  }
  const source = bundle.get(main);
  if (!source) {
    refuse({ code: "main_missing", path: main }, `the main file "${main}" is not in the bundle`);
  }
  const body = new TextDecoder("utf-8", { fatal: false }).decode(source);
  const files: PreparedFile[] = [];
  const figures = new Set<string>();
  for (const path of new Set(markdownImages(body))) {
    const bytes = bundle.get(path);
    if (!bytes) {
      refuse(
        { code: "figure_missing", path },
        `the figure "${path}" the text shows is not in the bundle`,
      );
    }
    const checked = await checkImage(path, bytes);
    files.push(file(path, "figure", checked.mediaType, checked.bytes));
    figures.add(path);
  }
  for (const [path, bytes] of bundle) {
    if (path === main || figures.has(path)) continue;
    const ext = extensionOf(path);
    const type = SUPPLEMENTARY_TYPES[ext] ?? SOURCE_TYPES[ext];
    if (type) files.push(file(path, "supplementary", type, bytes));
    else if (FIGURE_TYPES[ext]) {
      const checked = await checkImage(path, bytes);
      files.push(file(path, "supplementary", checked.mediaType, checked.bytes));
    }
  }
  return { kind: "markdown", title: "", abstract: "", body, files, warnings: [], convertMs: 0 };
}

/** A bundle path an import file names that cannot be read (the CLI's own mistake, not the bundle's). */
function unreadable(message: string): never {
  throw new Invalid(`The source bundle was refused: ${message}`, [
    { in: "body", name: "source", message },
  ]);
}

/**
 * Reads bundles named relative to `folder` (a JSONL file's), refusing a path that leaves it
 * (`..`, absolute, or a symlink out) and a file over the compressed bound before reading it.
 */
export function bundleReader(folder: string): (path: string) => Promise<Uint8Array> {
  return async (path) => {
    const root = await realpath(folder);
    const target = await realpath(resolve(root, path)).catch(() => {
      unreadable(`no file "${path}" next to the import file`);
    });
    if (target !== root && !target.startsWith(`${root}${sep}`)) {
      unreadable(`"${path}" is outside the import file's folder`);
    }
    const info = await stat(target);
    if (!info.isFile()) unreadable(`"${path}" is not a file`);
    if (info.size > BUNDLE_LIMITS.compressedMax) {
      refuse(
        { code: "too_large", max: BUNDLE_LIMITS.compressedMax },
        `it is larger than ${BUNDLE_LIMITS.compressedMax} bytes`,
      );
    }
    return new Uint8Array(await readFile(target));
  };
}
