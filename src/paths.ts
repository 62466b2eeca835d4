/**
 * @module Where the files a process reads at run time live (migrations, samples, page assets):
 * from the repository's root, so they resolve the same from the sources (`src/`, one level
 * down) and from the start-up bundle (`dist/quire.mjs`, one level down too; see bin/bundle.js).
 */
import { fileURLToPath } from "node:url";

const ROOT = new URL("../", import.meta.url);

/** The absolute path of `relative` (slash-separated) under the repository's root. */
export function fromRoot(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}
