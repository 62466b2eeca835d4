// The start-up bundle: src/cli/main.ts and everything it imports from src/, compiled by
// esbuild into one module, dist/quire.mjs (packages stay in node_modules). Loading it is
// what lets `quire serve` answer within a second of a warm start: tsx's loader compiles and
// resolves each of some 300 source files on every start (docs/adr/0026-start-up.md).
//
// `npm ci` builds it (the `prepare` script runs this file); bin/quire.js rebuilds it when a
// source changed since (a `git pull`, an edit), and runs the sources through tsx when it
// cannot (no esbuild, a read-only checkout).
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const BUNDLE = `${ROOT}dist/quire.mjs`;
const STAMP = `${ROOT}dist/quire.stamp.json`;

/** What the bundle was built from: the newest modification time and the number of sources. */
function sourcesStamp() {
  let newest = 0;
  let files = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else {
        files++;
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  visit(`${ROOT}src`);
  for (const file of ["package.json", "tsconfig.json", "bin/bundle.js"]) {
    newest = Math.max(newest, statSync(`${ROOT}${file}`).mtimeMs);
  }
  return { newest, files };
}

/** Whether dist/quire.mjs was built from the sources as they are now. */
export function bundleIsFresh() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, "utf8"));
    const now = sourcesStamp();
    return stamp.newest === now.newest && stamp.files === now.files;
  } catch {
    return false;
  }
}

/**
 * Builds dist/quire.mjs from the sources. Written beside and renamed into place, so processes
 * starting together never load half a file. Throws when esbuild is missing or fails.
 */
export async function buildBundle() {
  const stamp = sourcesStamp();
  const { build } = await import("esbuild");
  mkdirSync(`${ROOT}dist`, { recursive: true });
  const partial = `${BUNDLE}.${process.pid}.tmp`;
  await build({
    entryPoints: [`${ROOT}src/cli/main.ts`],
    outfile: partial,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: `${ROOT}tsconfig.json`,
    logLevel: "error",
  });
  renameSync(partial, BUNDLE);
  writeFileSync(`${STAMP}.${process.pid}.tmp`, JSON.stringify(stamp));
  renameSync(`${STAMP}.${process.pid}.tmp`, STAMP);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // npm ci's `prepare`: a failed build must not fail the install (bin/quire.js then runs the
  // sources through tsx and says so), but it is reported.
  try {
    await buildBundle();
  } catch (error) {
    process.stderr.write(`quire: could not build the start-up bundle: ${error}\n`);
  }
}
