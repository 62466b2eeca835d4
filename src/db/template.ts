/**
 * @module The pre-initialised data directory: an embedded database with every bundled
 * migration applied and nothing else, built once by `npm ci` (bin/bundle.js) under
 * dist/pgdata/ and copied into an empty DATA_DIR at a first start instead of running initdb
 * and the migrations in WebAssembly (docs/adr/0026-start-up.md).
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fromRoot } from "../paths.ts";
import { migrationsFingerprint } from "./migrations-state.ts";

/** Where `npm ci` leaves the template (dist/ belongs to the checkout, like the bundle). */
const TEMPLATE_DIR = fromRoot("dist/pgdata");

/** Templates of any key, and the single-file ones of earlier builds. */
const OLD = /^pgdata-[0-9a-f]{64}(\.tar)?$/;

/**
 * What a template must have been built from to be used: the bundled migrations (timestamps
 * and hashes), and the versions of PGlite and pgvector that ran initdb and the migrations.
 * A template built from anything else is never used: its file is named by this key.
 */
export function templateKey(parts: TemplateParts = templateParts()): string {
  return createHash("sha256")
    .update(JSON.stringify({ format: 1, ...parts }))
    .digest("hex");
}

export interface TemplateParts {
  pglite: string;
  pgvector: string;
  /** migrationsFingerprint(): every bundled migration's timestamp and hash. */
  migrations: string;
}

/** This code's template parts: the installed engine and the bundled migrations. */
export function templateParts(): TemplateParts {
  return {
    pglite: version("@electric-sql/pglite"),
    pgvector: version("@electric-sql/pglite-pgvector"),
    migrations: migrationsFingerprint(),
  };
}

/** The installed version of a package (which may not export its package.json). */
function version(name: string): string {
  const require = createRequire(import.meta.url);
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (manifest.name === name) return String(manifest.version);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new Error(`no package.json of ${name}`);
}

/**
 * The directory of the template for this code, or undefined when there is none or only one
 * built from other migrations or another PGlite (then the first start runs initdb and the
 * migrations itself, as without a template).
 */
export function freshTemplate(dir = TEMPLATE_DIR): string | undefined {
  const path = join(dir, `pgdata-${templateKey()}`);
  return existsSync(join(path, "PG_VERSION")) ? path : undefined;
}

/** Files of a data directory that belong to a running process, not to the database. */
const PROCESS_FILES = new Set(["postmaster.pid", "postmaster.opts", "quire.pid"]);

/**
 * Copies the template `from` into the embedded data directory `into` (made if missing),
 * PG_VERSION last: a copy cut short leaves a directory without it, which the next start
 * takes for one with no database and copies into again.
 */
export function copyTemplate(from: string, into: string): void {
  mkdirSync(into, { recursive: true, mode: 0o700 });
  cpSync(from, into, {
    recursive: true,
    filter: (source) => {
      const rel = relative(from, source);
      return !PROCESS_FILES.has(rel) && rel !== "PG_VERSION";
    },
  });
  copyFileSync(join(from, "PG_VERSION"), join(into, "PG_VERSION"));
}

/**
 * Builds the template into `dir`: an in-memory database, migrated, dumped and opened (then
 * closed) as a data directory of its own, which a first start copies with the file system
 * (faster than PGlite's `loadDataDir` unpacking a dump: 0.7-1.5 s against 1.5-2.0 s at load 8).
 * It is built beside and renamed into place, so a process starting meanwhile finds a whole
 * template or none; templates of other keys are removed. Returns its path.
 */
export async function buildTemplate(dir = TEMPLATE_DIR): Promise<string> {
  const { openDatabase } = await import("./client.ts");
  const source = await openDatabase({ dataDir: "memory://", template: false });
  let dump: Blob;
  try {
    const blob = await source.dumpDataDir?.();
    if (!blob) throw new Error("the embedded engine cannot dump its data directory");
    dump = blob;
  } finally {
    await source.close();
  }
  mkdirSync(dir, { recursive: true });
  const name = `pgdata-${templateKey()}`;
  const path = join(dir, name);
  const partial = `${path}.${process.pid}.tmp`;
  rmSync(partial, { recursive: true, force: true });
  const built = await openDatabase({ dataDir: partial, loadDataDir: dump, template: false });
  await built.close();
  for (const file of PROCESS_FILES) rmSync(join(partial, file), { force: true });
  rmSync(path, { recursive: true, force: true });
  renameSync(partial, path);
  for (const entry of readdirSync(dir)) {
    if (entry !== name && OLD.test(entry))
      rmSync(join(dir, entry), { recursive: true, force: true });
  }
  return path;
}
