/**
 * @module The API reference page at /docs: Scalar, served whole from here and configured so
 * the page asks nothing of any other site (no proxy, fonts, telemetry, AI agent or deploy
 * toolbar), under the site's security policy with what Scalar's runtime styles need.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { OPENAPI_PATH } from "../api/v1/index.ts";
import type { AppEnv } from "../env.ts";
import { PAGE_CSP } from "../pages/page.ts";

const SCALAR_ASSET_PATH = "/docs/assets/scalar-standalone.js";
const DOCS_INIT_PATH = "/docs/assets/init.js";

/**
 * Scalar's options. `proxyUrl: ""` stops it sending "try it" requests through
 * proxy.scalar.com (its default on the web); `withDefaultFonts: false` drops its web fonts;
 * `agent.disabled` removes "Ask AI"; `showToolbar`/`showDeveloperTools: "never"` remove the
 * "Deploy" toolbar it shows on localhost; `hideClientButton` removes the link to its client.
 */
const SCALAR_CONFIG = {
  url: OPENAPI_PATH,
  proxyUrl: "",
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  showToolbar: "never",
  showDeveloperTools: "never",
  agent: { disabled: true },
  _integration: "hono",
};

/**
 * The site's policy, with two additions Scalar cannot do without: it injects its styles at
 * run time (`style-src 'unsafe-inline'`) and fetches the OpenAPI document (`connect-src
 * 'self'`). Scripts stay 'self' only, so the page runs nothing inline; fonts are the reader's own.
 */
const DOCS_CSP = `${PAGE_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")}; connect-src 'self'`;

const INIT_JS = Buffer.from(
  `Scalar.createApiReference("#app", ${JSON.stringify(SCALAR_CONFIG)});\n`,
);

let bundle: Buffer | undefined;

/** Scalar's browser bundle from node_modules, read on first use (3.5 MB, cached a day). */
function scalarBundle(): Buffer {
  bundle ??= readFileSync(
    createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js"),
  );
  return bundle;
}

const version = (body: Buffer) => createHash("sha256").update(body).digest("hex").slice(0, 12);

function docsPage(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Quire API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="app"></div>
    <script src="${SCALAR_ASSET_PATH}?v=${version(scalarBundle())}"></script>
    <script src="${DOCS_INIT_PATH}?v=${version(INIT_JS)}"></script>
  </body>
</html>
`;
}

const ASSET_HEADERS = {
  "content-type": "application/javascript; charset=utf-8",
  "cache-control": "public, max-age=86400",
  "x-content-type-options": "nosniff",
};

export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.get(SCALAR_ASSET_PATH, (c) => c.body(new Uint8Array(scalarBundle()), 200, ASSET_HEADERS));
  app.get(DOCS_INIT_PATH, (c) => c.body(new Uint8Array(INIT_JS), 200, ASSET_HEADERS));
  app.get("/docs", (c) =>
    c.html(docsPage(), 200, {
      "content-security-policy": DOCS_CSP,
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
    }),
  );
  app.get("/docs/problems", (c) => c.redirect("/llms-full.txt#errors", 302));
  // The reference is in English only (so is the OpenAPI document): the Spanish site's address
  // for it leads there rather than to a 404.
  app.get("/es/docs", (c) => c.redirect("/docs", 302));
}
