/** @module The site's own assets: the social card that paper JSON-LD names as its image is served here. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_IMAGE_PATH } from "../../services/papers/jsonld.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { SITE_CARD } from "./assets.ts";

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
