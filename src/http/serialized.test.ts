import { Hono } from "hono";
import { etag } from "hono/etag";
import { describe, expect, it } from "vitest";
import { compress } from "./middleware/compress.ts";
import { publicCache } from "./middleware/public-cache.ts";
import { bodyEtag, keepSerializedJson, serializedBody } from "./serialized.ts";

/** The tag Hono's own etag middleware gives a body: what clients held before. */
async function honoTag(body: string): Promise<string | null> {
  const app = new Hono();
  app.use(etag());
  app.get("/", (c) => c.body(body, 200, { "content-type": "application/json" }));
  return (await app.request("/")).headers.get("etag");
}

describe("bodyEtag", () => {
  it.each([
    ["a small JSON body", JSON.stringify({ a: 1, b: "ü→✓" })],
    ["a body of exactly 256 KiB", "x".repeat(256 * 1024)],
    ["a multi-byte body near 256 KiB", "é".repeat(128 * 1024 + 7)],
    ["a body over 256 KiB (hashed in chained steps)", "y".repeat(600_000)],
  ])("equals Hono's etag() for %s", async (_, body) => {
    expect(bodyEtag(body)).toBe(await honoTag(body));
    expect(bodyEtag(Buffer.from(body))).toBe(await honoTag(body));
  });

  it("gives no tag to an empty body, as Hono does", async () => {
    expect(bodyEtag("")).toBeNull();
    expect(await honoTag("")).toBeNull();
  });
});

describe("serializedBody", () => {
  it("is the string c.json made while the response is still the handler's", async () => {
    const app = new Hono();
    const seen: (string | undefined)[] = [];
    app.use(async (c, next) => {
      keepSerializedJson(c);
      await next();
      seen.push(serializedBody(c));
    });
    app.get("/json", (c) => c.json({ ok: true }, 201, { "x-extra": "1" }));
    app.get("/text", (c) => c.text("plain"));
    const res = await app.request("/json");
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-extra")).toBe("1");
    expect(await res.text()).toBe('{"ok":true}');
    await app.request("/text");
    expect(seen).toEqual(['{"ok":true}', undefined]);
  });
});

describe("publicCache and compress", () => {
  const app = new Hono();
  app.use(compress());
  app.use(publicCache());
  const big = { items: Array.from({ length: 200 }, (_, i) => `item number ${i}`) };
  app.get("/big", (c) => c.json(big));
  app.get("/small", (c) => c.json({ ok: true }));
  app.get("/page", (c) => c.text("a page of text"));

  it("tags JSON and text alike with Hono's SHA-1, and answers a matching If-None-Match with 304", async () => {
    for (const [path, body] of [
      ["/big", JSON.stringify(big)],
      ["/small", '{"ok":true}'],
      ["/page", "a page of text"],
    ] as const) {
      const res = await app.request(path);
      expect(await res.text()).toBe(body);
      const tag = res.headers.get("etag");
      expect(tag).toBe(await honoTag(body));
      expect(res.headers.get("cache-control")).toBe(
        "public, max-age=60, stale-while-revalidate=300",
      );
      const again = await app.request(path, { headers: { "if-none-match": `W/${tag}` } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(tag);
      expect(again.headers.get("content-type")).toBeNull();
      expect(again.headers.get("cache-control")).toBe(
        "public, max-age=60, stale-while-revalidate=300",
      );
      expect(await again.text()).toBe("");
    }
  });

  it("compresses a negotiated body from the serialized string and weakens its tag", async () => {
    const res = await app.request("/big", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(res.headers.get("etag")).toBe(`W/${await honoTag(JSON.stringify(big))}`);
    const { gunzipSync } = await import("node:zlib");
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(JSON.stringify(big));
  });

  it("adds only Vary when nothing is negotiated or the body is small", async () => {
    for (const [path, accept] of [
      ["/big", ""],
      ["/small", "br"],
    ] as const) {
      const res = await app.request(path, { headers: { "accept-encoding": accept } });
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{40}"$/);
    }
  });
});
