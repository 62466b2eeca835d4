#!/usr/bin/env node
// The `quire` command. TypeScript sources run through tsx's loader, so `npm ci` is the
// whole build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
