#!/usr/bin/env node
// The `quire` command. It runs the start-up bundle, dist/quire.mjs (see bundle.js), rebuilt
// first when a source changed since it was built; without esbuild, or where dist/ cannot be
// written, the TypeScript sources run through tsx's loader. Either way `npm ci` is the whole
// build step.
import { BUNDLE, buildBundle, bundleIsFresh } from "./bundle.js";

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
