/**
 * @module LaTeX conversions saved as files, so a paper from LaTeX can be loaded where LaTeXML is
 * not installed, without converting it at every start: the sample papers' are committed in
 * samples/converted/ (docs/files.md, "The sample papers"). One folder per conversion:
 * `conversion.json` (the archive's sha256, the main file, title, abstract, figures and the
 * converter's warnings), `body.md`, and the checked figures under `files/`.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { LatexConversion, PreparedFile, SavedConversions } from "./bundle.ts";

const SavedConversionSchema = z.object({
  /** The archive the conversion was made from, relative to the samples folder (for people). */
  archive: z.string(),
  archive_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The converter and its version, as `latexmlc --VERSION` says it (for people). */
  converter: z.string(),
  main: z.string(),
  title: z.string(),
  abstract: z.string(),
  figures: z.array(
    z.object({
      name: z.string(),
      media_type: z.string(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
  warnings: z.array(z.string()),
});
type SavedConversion = z.infer<typeof SavedConversionSchema>;

const MANIFEST = "conversion.json";
const BODY = "body.md";
const FILES = "files";

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A figure's place under a conversion's folder; names are bundle paths, checked at unpacking. */
function figurePath(dir: string, name: string): string {
  if (name.split("/").some((part) => part === ".." || part === "") || name.startsWith("/")) {
    throw new Error(`a saved figure's name leaves its folder: ${name}`);
  }
  return join(dir, FILES, ...name.split("/"));
}

async function readManifest(dir: string): Promise<SavedConversion> {
  const text = await readFile(join(dir, MANIFEST), "utf8");
  return SavedConversionSchema.parse(JSON.parse(text));
}

/**
 * The conversions saved in the folders of `root` (read once, at the first lookup), found by
 * the sha256 of the archive each was made from. A figure whose bytes no longer match the
 * hash its manifest records is an error, not a miss: a saved conversion is never half-trusted.
 */
export function savedConversions(root: string): SavedConversions {
  let index: Promise<Map<string, string>> | undefined;
  const load = async () => {
    const byArchive = new Map<string, string>();
    const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const dir = join(root, entry.name);
      byArchive.set((await readManifest(dir)).archive_sha256, dir);
    }
    return byArchive;
  };
  return async (archiveSha256) => {
    index ??= load();
    const dir = (await index).get(archiveSha256);
    if (!dir) return null;
    const manifest = await readManifest(dir);
    const figures: PreparedFile[] = [];
    for (const f of manifest.figures) {
      const bytes = new Uint8Array(await readFile(figurePath(dir, f.name)));
      if (sha256Hex(bytes) !== f.sha256) {
        throw new Error(`the saved figure ${f.name} in ${dir} does not match its sha256`);
      }
      figures.push({
        name: f.name,
        role: "figure",
        mediaType: f.media_type,
        bytes,
        sha256: f.sha256,
      });
    }
    return {
      main: manifest.main,
      title: manifest.title,
      abstract: manifest.abstract,
      body: await readFile(join(dir, BODY), "utf8"),
      figures,
      warnings: manifest.warnings,
      convertMs: 0,
    };
  };
}

/** Writes one conversion into `dir`, replacing what was there. */
export async function saveConversion(
  dir: string,
  about: { archive: string; archiveSha256: string; converter: string },
  conversion: LatexConversion,
): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const f of conversion.figures) {
    const path = figurePath(dir, f.name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, f.bytes);
  }
  await writeFile(join(dir, BODY), conversion.body);
  const manifest: SavedConversion = {
    archive: about.archive,
    archive_sha256: about.archiveSha256,
    converter: about.converter,
    main: conversion.main,
    title: conversion.title,
    abstract: conversion.abstract,
    figures: conversion.figures.map((f) => ({
      name: f.name,
      media_type: f.mediaType,
      sha256: f.sha256,
    })),
    warnings: conversion.warnings,
  };
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}
