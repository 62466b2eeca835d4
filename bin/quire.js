#!/usr/bin/env node
// The `quire` command. It runs the start-up bundle, dist/quire.mjs (see bundle.js), rebuilt
// first when a source changed since it was built; without esbuild, or where dist/ cannot be
// written, the TypeScript sources run through tsx's loader. Either way `npm ci` is the whole
// build step.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BUNDLE, buildBundle, bundleIsFresh } from "./bundle.js";

// The embedded database's WebAssembly (PGlite, 9 MB) is compiled on V8's background threads
// while the modules load on the main thread, instead of after them; src/db/client.ts picks the
// compiled module up under this key (docs/adr/0026-start-up.md). A failure here only means
// PGlite compiles it itself.
if (!process.env.DATABASE_URL) {
  const pglite = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  const compiled = readFile(join(pglite, "pglite.wasm")).then((bytes) =>
    WebAssembly.compile(bytes),
  );
  compiled.catch(() => {});
  globalThis[Symbol.for("quire.pglite.wasm")] = compiled;
}

async function loadMain() {
  try {
    if (!bundleIsFresh()) await buildBundle();
    return await import(BUNDLE);
  } catch (error) {
    process.stderr.write(
      `quire: running the TypeScript sources through tsx (no start-up bundle: ${error instanceof Error ? error.message.split("\n")[0] : error})\n`,
    );
    const { register } = await import("tsx/esm/api");
    register();
    return await import("../src/cli/main.ts");
  }
}

const { main } = await loadMain();
process.exitCode = await main(process.argv.slice(2));
