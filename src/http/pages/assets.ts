/** @module The site's stylesheet, script and social card, served from this app (no CDN), versioned by hash. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { fromRoot } from "../../paths.ts";
import type { AppEnv } from "../env.ts";

function asset(file: string, type: string) {
  const body = readFileSync(fromRoot(`src/http/pages/assets/${file}`));
  const version = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { path: `/assets/${file}`, href: `/assets/${file}?v=${version}`, body, type };
}

export const SITE_CSS = asset("site.css", "text/css; charset=utf-8");
export const SITE_JS = asset("site.js", "text/javascript; charset=utf-8");
/** The site's social card (1200 × 630), the `image` of every paper's JSON-LD (SITE_IMAGE_PATH). */
export const SITE_CARD = asset("quire-card.svg", "image/svg+xml");

export function registerAssets(app: OpenAPIHono<AppEnv>): void {
  for (const a of [SITE_CSS, SITE_JS, SITE_CARD]) {
    app.get(a.path, (c) =>
      c.body(new Uint8Array(a.body), 200, {
        "content-type": a.type,
        "cache-control": "public, max-age=86400",
        "x-content-type-options": "nosniff",
      }),
    );
  }
}
