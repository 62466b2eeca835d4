/** @module The API reference page at /docs: Scalar, with its assets served from here (no CDN). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { OPENAPI_PATH } from "../api/v1/index.ts";
import type { AppEnv } from "../env.ts";

export const SCALAR_ASSET_PATH = "/docs/assets/scalar-standalone.js";

let bundle: Buffer | undefined;

/** Scalar's browser bundle from node_modules, read on first use (3.5 MB, cached a day). */
function scalarBundle(): Buffer {
  bundle ??= readFileSync(
    createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js"),
  );
  return bundle;
}

export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.get(SCALAR_ASSET_PATH, (c) =>
    c.body(new Uint8Array(scalarBundle()), 200, {
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
    }),
  );
  app.get(
    "/docs",
    Scalar<AppEnv>({
      url: OPENAPI_PATH,
      cdn: SCALAR_ASSET_PATH,
      pageTitle: "Quire API reference",
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
    } as never),
  );
  app.get("/docs/problems", (c) => c.redirect("/llms-full.txt#errors", 302));
}
