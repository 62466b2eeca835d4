/**
 * @module The site's stylesheet, script, reading typeface and social card, served from this app
 * (no CDN), versioned by hash. The typeface's `@font-face` rules are written here, with each
 * file's hashed address, and put before the stylesheet (docs/adr/0048-reading-typography-and-print.md).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { fromRoot } from "../../paths.ts";
import type { AppEnv } from "../env.ts";

interface Asset {
  path: string;
  href: string;
  body: Buffer;
  type: string;
  cacheControl: string;
}

/** A day for what names no version in its path; a year, immutable, for fonts (a new file is a new `?v=`). */
const DAY = "public, max-age=86400";
const YEAR = "public, max-age=31536000, immutable";

function asset(file: string, type: string, body?: Buffer, cacheControl = DAY): Asset {
  const content = body ?? readFileSync(fromRoot(`src/http/pages/assets/${file}`));
  const version = createHash("sha256").update(content).digest("hex").slice(0, 12);
  return {
    path: `/assets/${file}`,
    href: `/assets/${file}?v=${version}`,
    body: content,
    type,
    cacheControl,
  };
}

/**
 * Source Serif 4 (SIL Open Font License 1.1, from the npm package @fontsource/source-serif-4;
 * the licence is assets/fonts/OFL.txt), regular, italic and bold, each in two subsets: Latin
 * (ASCII, Latin-1 — all of Spanish — and punctuation) and Latin Extended. A browser fetches a
 * file only when a page uses a character of its `unicode-range` in that style.
 */
const UNICODE_RANGES = {
  latin:
    "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD",
  "latin-ext":
    "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C4,U+2113,U+2C60-2C7F,U+A720-A7FF",
} as const;
const STYLES = [
  { weight: 400, style: "normal" },
  { weight: 400, style: "italic" },
  { weight: 700, style: "normal" },
  { weight: 700, style: "italic" },
] as const;

export const FONTS: readonly Asset[] = Object.keys(UNICODE_RANGES).flatMap((subset) =>
  STYLES.map(({ weight, style }) =>
    asset(`fonts/source-serif-4-${subset}-${weight}-${style}.woff2`, "font/woff2", undefined, YEAR),
  ),
);

function fontFaces(): string {
  return Object.entries(UNICODE_RANGES)
    .flatMap(([subset, range]) =>
      STYLES.map(({ weight, style }) => {
        const file = FONTS.find(
          (f) => f.path === `/assets/fonts/source-serif-4-${subset}-${weight}-${style}.woff2`,
        );
        return `@font-face{font-family:"Source Serif 4";font-style:${style};font-weight:${weight};font-display:swap;src:url("${file?.href}") format("woff2");unicode-range:${range}}`;
      }),
    )
    .join("\n");
}

export const SITE_CSS = asset(
  "site.css",
  "text/css; charset=utf-8",
  Buffer.concat([
    Buffer.from(`${fontFaces()}\n`),
    readFileSync(fromRoot("src/http/pages/assets/site.css")),
  ]),
);
export const SITE_JS = asset("site.js", "text/javascript; charset=utf-8");
/** The site's social card (1200 × 630), the `image` of every paper's JSON-LD (SITE_IMAGE_PATH). */
export const SITE_CARD = asset("quire-card.svg", "image/svg+xml");

export function registerAssets(app: OpenAPIHono<AppEnv>): void {
  for (const a of [SITE_CSS, SITE_JS, SITE_CARD, ...FONTS]) {
    app.get(a.path, (c) =>
      c.body(new Uint8Array(a.body), 200, {
        "content-type": a.type,
        "cache-control": a.cacheControl,
        "x-content-type-options": "nosniff",
      }),
    );
  }
}
