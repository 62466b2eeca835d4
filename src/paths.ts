/**
 * @module Where the files a process reads at run time live (migrations, samples, page assets):
 * from the repository's root, the nearest directory above this module that holds
 * package.json, so they resolve the same from the sources (`src/`) and from the start-up
 * bundle and its chunks (`dist/quire.mjs`, `dist/chunks/…`; see bin/bundle.js).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function repositoryRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const ROOT = repositoryRoot(fileURLToPath(import.meta.url));

/** The absolute path of `relative` (slash-separated) under the repository's root. */
export function fromRoot(relative: string): string {
  return join(ROOT, ...relative.split("/"));
}
