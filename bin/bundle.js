// The start-up bundle: src/cli/main.ts and everything it imports from src/, compiled by
// esbuild into one module, dist/quire.mjs (packages stay in node_modules). Loading it is
// what lets `quire serve` answer within a second of a warm start: tsx's loader compiles and
// resolves each of some 300 source files on every start (docs/adr/0026-start-up.md).
//
// `npm ci` builds it (the `prepare` script runs this file); bin/quire.js rebuilds it when a
// source changed since (a `git pull`, an edit), and runs the sources through tsx when it
// cannot (no esbuild, a read-only checkout). `npm ci` also builds the pre-initialised data
// directory, dist/pgdata/ (src/db/template.ts), which bin/quire.js never rebuilds: one built
// from other migrations is not used.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const BUNDLE = `${ROOT}dist/quire.mjs`;
/** The module that builds the pre-initialised data directory (src/db/template.ts). */
const TEMPLATE = `${ROOT}dist/template.mjs`;
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
 * Builds dist/quire.mjs from the sources, split where the sources import a module dynamically
 * (`await import("./…")`): what only some requests need (the MCP server, the OAuth handlers,
 * Redis) is a chunk under dist/chunks/, loaded on first use, so a start loads neither it nor
 * the packages it imports. Chunks are named by their content's hash and written before the
 * entry, which is written beside and renamed into place: processes starting together never
 * load half a file, and one still running an older entry finds its chunks (`fresh` removes
 * the old ones: `npm ci`). Throws when esbuild is missing or fails.
 */
export async function buildBundle({ fresh = false } = {}) {
  const stamp = sourcesStamp();
  const { build } = await import("esbuild");
  if (fresh) rmSync(`${ROOT}dist/chunks`, { recursive: true, force: true });
  mkdirSync(`${ROOT}dist/chunks`, { recursive: true });
  const { outputFiles } = await build({
    entryPoints: { quire: `${ROOT}src/cli/main.ts`, template: `${ROOT}src/db/template.ts` },
    outdir: `${ROOT}dist`,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    write: false,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: `${ROOT}tsconfig.json`,
    logLevel: "error",
  });
  const place = (path, contents) => {
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, contents);
    renameSync(partial, path);
  };
  // The entry last: a process that finds it fresh finds its chunks.
  for (const file of outputFiles) if (file.path !== BUNDLE) place(file.path, file.contents);
  const entry = outputFiles.find((file) => file.path === BUNDLE);
  if (!entry) throw new Error(`esbuild wrote no ${BUNDLE}`);
  place(BUNDLE, entry.contents);
  place(STAMP, JSON.stringify(stamp));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // npm ci's `prepare`: a failed build must not fail the install (bin/quire.js then runs the
  // sources through tsx and says so), but it is reported.
  try {
    await buildBundle({ fresh: true });
  } catch (error) {
    process.stderr.write(`quire: could not build the start-up bundle: ${error}\n`);
    process.exit(0);
  }
  // The pre-initialised data directory a first start copies instead of running initdb and
  // the migrations (src/db/template.ts). Without it a first start only takes longer.
  try {
    const { buildTemplate } = await import(TEMPLATE);
    await buildTemplate();
  } catch (error) {
    process.stderr.write(`quire: could not build the pre-initialised data directory: ${error}\n`);
  }
}
