/**
 * @module Writes or checks the committed OpenAPI document (docs/openapi.json).
 * `check` fails when the routes' schemas and the committed copy have drifted.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { buildOpenApiDocument, registerV1 } from "../src/http/api/v1/index.ts";
import { createRouter } from "../src/http/env.ts";

const FILE = new URL("../docs/openapi.json", import.meta.url);

function generate(): string {
  const app = createRouter();
  registerV1(app);
  return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
}

const mode = process.argv[2];
const fresh = generate();
if (mode === "write") {
  writeFileSync(FILE, fresh);
  console.log("wrote docs/openapi.json");
} else if (mode === "check") {
  let committed = "";
  try {
    committed = readFileSync(FILE, "utf8");
  } catch {
    // Missing counts as drift.
  }
  if (committed !== fresh) {
    console.error("docs/openapi.json is out of date: run `npm run openapi:write` and commit it.");
    process.exit(1);
  }
  console.log("docs/openapi.json matches the routes");
} else {
  console.error("usage: tsx scripts/openapi.ts write|check");
  process.exit(2);
}
