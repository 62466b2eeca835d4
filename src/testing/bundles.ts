/** @module Source bundles for tests: zip and tar.gz archives built in memory, and fixture papers. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { zipSync } from "fflate";
import { pack } from "tar-stream";
import { fromRoot } from "../paths.ts";

export type Entries = Record<string, string | Uint8Array>;

function bytes(content: string | Uint8Array): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

export function makeZip(entries: Entries): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, bytes(v)])));
}

export interface TarEntry {
  name: string;
  content?: string | Uint8Array;
  type?: "file" | "directory" | "symlink" | "link";
  linkname?: string;
}

export async function makeTarGz(entries: Entries | TarEntry[]): Promise<Uint8Array> {
  const list: TarEntry[] = Array.isArray(entries)
    ? entries
    : Object.entries(entries).map(([name, content]) => ({ name, content }));
  const p = pack();
  const chunks: Buffer[] = [];
  p.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((resolve) => p.on("end", () => resolve()));
  for (const e of list) {
    const header = {
      name: e.name,
      type: e.type ?? "file",
      ...(e.linkname ? { linkname: e.linkname } : {}),
    };
    if (e.content === undefined) p.entry(header);
    else p.entry(header, Buffer.from(bytes(e.content)));
  }
  p.finalize();
  await done;
  return new Uint8Array(gzipSync(Buffer.concat(chunks)));
}

/**
 * A zip whose bytes depend only on its entries: sorted by path, with one fixed timestamp, so a
 * committed archive can be rebuilt and compared byte for byte (the sample papers' bundles).
 */
export function stableZip(entries: Entries): Uint8Array {
  const sorted = Object.keys(entries).sort();
  return zipSync(
    Object.fromEntries(sorted.map((k) => [k, bytes(entries[k] as string | Uint8Array)])),
    // A zip stores local time: built from local fields, the stored date is the same in every zone.
    { level: 9, mtime: new Date(2026, 0, 1) },
  );
}

/** The files under a folder as bundle entries, by slash-separated relative path. */
export function folderEntries(root: string): Entries {
  const out: Entries = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path).split(sep).join("/")] = new Uint8Array(readFileSync(path));
    }
  };
  walk(root);
  return out;
}

/** A fixture folder of `test/fixtures/latex/` as bundle entries. */
export function fixtureEntries(name: string): Entries {
  return folderEntries(fromRoot(`test/fixtures/latex/${name}`));
}
