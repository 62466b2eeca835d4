/**
 * @module `npm run config:doc`: rewrites the generated table of docs/configuration.md from
 * src/config.ts. test/config-doc.test.ts fails when the committed table has drifted.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { withReference } from "./lib/config-reference.ts";

const FILE = new URL("../docs/configuration.md", import.meta.url);
writeFileSync(FILE, withReference(readFileSync(FILE, "utf8")));
console.log("wrote docs/configuration.md");
