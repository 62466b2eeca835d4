/** @module The site's own assets: the social card that paper JSON-LD names as its image is served here. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_IMAGE_PATH } from "../../services/papers/jsonld.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { FONTS, SITE_CARD, SITE_CSS } from "./assets.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("the social card", () => {
  it("is served at the path every paper's JSON-LD gives as its image", async () => {
    expect(SITE_CARD.path).toBe(SITE_IMAGE_PATH);
    const res = await t.app.request(SITE_IMAGE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await res.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="630"/);
    expect(svg).not.toMatch(/<script|\son[a-z]+=|href=/i);
  });
});

describe("the reading typeface", () => {
  it("is served by the site itself, woff2 only, cached for a year under a versioned address", async () => {
    const css = await (await t.app.request(SITE_CSS.href)).text();
    const urls = [...css.matchAll(/url\("([^"]+)"\) format\("woff2"\)/g)].map((m) => m[1]);
    expect(urls).toHaveLength(FONTS.length);
    expect(css).not.toMatch(/url\((?!"\/assets\/fonts\/)/);
    for (const url of urls) {
      expect(url).toMatch(
        /^\/assets\/fonts\/source-serif-4-latin(-ext)?-(400|700)-(normal|italic)\.woff2\?v=[0-9a-f]{12}$/,
      );
      const res = await t.app.request(url ?? "");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("font/woff2");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe("wOF2");
      expect(bytes.length).toBeLessThan(24 * 1024);
    }
  });

  it("is allowed by the pages' security policy, which still allows no other site", async () => {
    const res = await t.app.request("/");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("font-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });
});
