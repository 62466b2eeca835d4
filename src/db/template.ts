/**
 * @module The pre-initialised data directory: an embedded database with every bundled
 * migration applied and nothing else, built once by `npm ci` (bin/bundle.js) and copied into
 * an empty DATA_DIR at a first start instead of running initdb and the migrations in
 * WebAssembly (docs/adr/0026-start-up.md).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fromRoot } from "../paths.ts";
import { migrationsFingerprint } from "./migrations-state.ts";

/** Where `npm ci` leaves the template (dist/ belongs to the checkout, like the bundle). */
export const TEMPLATE_DIR = fromRoot("dist/pgdata");

const FILE = /^pgdata-([0-9a-f]{64})\.tar$/;

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
 * The template for this code, as PGlite's `loadDataDir` takes it, or undefined when there is
 * none or only one built from other migrations or another PGlite (then the first start runs
 * initdb and the migrations itself, as without a template).
 */
export function freshTemplate(dir = TEMPLATE_DIR): Blob | undefined {
  try {
    return new Blob([readFileSync(join(dir, `pgdata-${templateKey()}.tar`))]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Builds the template into `dir`: an in-memory database, migrated, dumped. The file is
 * written beside and renamed into place, so a process starting meanwhile reads a whole file
 * or none; templates of other keys are removed. Returns the file's path.
 */
export async function buildTemplate(dir = TEMPLATE_DIR): Promise<string> {
  const { openDatabase } = await import("./client.ts");
  const database = await openDatabase({ dataDir: "memory://", template: false });
  let tar: Buffer;
  try {
    const blob = await database.dumpDataDir?.();
    if (!blob) throw new Error("the embedded engine cannot dump its data directory");
    tar = Buffer.from(await blob.arrayBuffer());
  } finally {
    await database.close();
  }
  mkdirSync(dir, { recursive: true });
  const name = `pgdata-${templateKey()}.tar`;
  const path = join(dir, name);
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, tar);
  renameSync(partial, path);
  for (const file of readdirSync(dir)) {
    if (file !== name && FILE.test(file)) rmSync(join(dir, file), { force: true });
  }
  return path;
}
