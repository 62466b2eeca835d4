/** @module App-wide HTTP behaviour of public reads: ETags, Cache-Control, CORS, compression, HEAD. */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/app.ts";
import { publishPaper } from "../testing/factories.ts";

let t: TestApp;
let paperId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 6; i++) paperId = (await publishPaper(t.ctx)).paper_id;
});
afterAll(async () => t.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers });

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

const varies = (res: Response) =>
  (res.headers.get("vary") ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

const readRoutes = () => [
  "/api/v1/papers?limit=5",
  `/api/v1/papers/${paperId}`,
  `/api/v1/papers/${paperId}/context`,
];

describe("ETag and conditional GET", () => {
  it("gives list, detail and context a strong ETag and answers If-None-Match with 304", async () => {
    for (const path of readRoutes()) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const etag = res.headers.get("etag");
      expect(etag, path).toMatch(/^"[0-9a-f]{40}"$/);

      const again = await get(path, { "if-none-match": etag as string });
      expect(again.status, path).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect((await bytes(again)).length).toBe(0);
      expect(again.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    }
  });

  it("matches If-None-Match lists and *, and ignores other tags", async () => {
    const path = readRoutes()[0] as string;
    const etag = (await get(path)).headers.get("etag") as string;
    expect((await get(path, { "if-none-match": `"nope", ${etag}` })).status).toBe(304);
    expect((await get(path, { "if-none-match": "*" })).status).toBe(304);
    const other = await get(path, {
      "if-none-match": '"0000000000000000000000000000000000000000"',
    });
    expect(other.status).toBe(200);
    expect(((await other.json()) as { papers: unknown[] }).papers).toHaveLength(5);
  });

  it("changes the ETag when the content changes", async () => {
    const path = "/api/v1/papers?limit=2";
    const before = (await get(path)).headers.get("etag") as string;
    await publishPaper(t.ctx, { publishedAt: new Date("2098-01-01T00:00:00Z") });
    const after = await get(path, { "if-none-match": before });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
  });

  it("puts no ETag on problems", async () => {
    const res = await get("/api/v1/papers/2611.99999");
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
  });
});

describe("Cache-Control", () => {
  it("lets shared caches keep public 200s for a while", async () => {
    for (const path of [...readRoutes(), "/api/v1/openapi.json"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const cacheControl = res.headers.get("cache-control") ?? "";
      expect(cacheControl, path).toMatch(/^public\b/);
      const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
      expect(maxAge, path).toBeGreaterThan(0);
    }
  });

  it.each([
    ["404", "/api/v1/papers/2611.99999", 404],
    ["400", "/api/v1/papers?limit=0", 400],
    ["405", "/api/v1/papers", 405, "DELETE"],
    ["401", "/api/v1/me", 401],
    ["unknown route", "/api/v1/nope", 404],
  ])("marks a %s problem no-store", async (_name, path, status, method = "GET") => {
    const res = await t.app.request(path, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("CORS", () => {
  const origin = { origin: "https://example.org" };

  it("lets any origin read public GETs, their errors and the headers clients need", async () => {
    for (const path of [...readRoutes(), "/api/v1/papers/2611.99999"]) {
      const res = await get(path, origin);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
      expect(exposed).toContain("etag");
      expect(exposed).toContain("x-request-id");
    }
  });

  it("labels a 304 for other origins too (a page revalidating with If-None-Match reads it), with its request id", async () => {
    for (const path of readRoutes()) {
      const etag = (await get(path)).headers.get("etag") as string;
      const again = await get(path, { ...origin, "if-none-match": etag });
      expect(again.status, path).toBe(304);
      expect(again.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(again.headers.get("x-request-id"), path).toMatch(/\S/);
    }
  });

  it("labels a response its handler built itself (a streamed export) as any other", async () => {
    const res = await get("/api/v1/dataset/chunks.jsonl", {
      ...origin,
      "x-request-id": "export-1",
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-request-id")).toBe("export-1");
  });

  it("answers a preflight for GET", async () => {
    const res = await t.app.request("/api/v1/papers", {
      method: "OPTIONS",
      headers: {
        ...origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization, if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")?.split(",")).toContain("GET");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    expect(allowed).toContain("authorization");
    expect(allowed).toContain("if-none-match");
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect((await bytes(res)).length).toBe(0);
  });

  it("answers a preflight for an agent's POST with a key and an Idempotency-Key, without credentials", async () => {
    const res = await t.app.request("/api/v1/papers/2611.00001/comments", {
      method: "OPTIONS",
      headers: {
        ...origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")?.split(",")).toContain("POST");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (const h of ["authorization", "content-type", "idempotency-key"])
      expect(allowed).toContain(h);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("compression", () => {
  const large = "/api/v1/papers?limit=5";

  it.each([
    ["br", (b: Buffer) => brotliDecompressSync(b)],
    ["gzip", (b: Buffer) => gunzipSync(b)],
  ])("compresses a large response with %s to the same JSON", async (encoding, decode) => {
    const plain = await get(large);
    const plainText = (await bytes(plain)).toString("utf8");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.byteLength(plainText)).toBeGreaterThan(1024);

    const packed = await get(large, { "accept-encoding": encoding });
    expect(packed.status).toBe(200);
    expect(packed.headers.get("content-encoding")).toBe(encoding);
    expect(packed.headers.get("content-type")).toMatch(/^application\/json/);
    const raw = await bytes(packed);
    expect(Number(packed.headers.get("content-length"))).toBe(raw.length);
    expect(raw.length).toBeLessThan(Buffer.byteLength(plainText));
    const text = decode(raw).toString("utf8");
    expect(text).toBe(plainText);
    expect(JSON.parse(text)).toEqual(JSON.parse(plainText));
  });

  it("prefers br, falls back to gzip, and sends identity otherwise", async () => {
    const encodingFor = async (accept: string) =>
      (await get(large, { "accept-encoding": accept })).headers.get("content-encoding");
    expect(await encodingFor("gzip, deflate, br")).toBe("br");
    expect(await encodingFor("gzip, deflate")).toBe("gzip");
    expect(await encodingFor("deflate")).toBeNull();
    expect(await encodingFor("identity")).toBeNull();
  });

  it("leaves responses under 1 KB uncompressed", async () => {
    const small = "/api/v1/papers?limit=1";
    const plain = await bytes(await get(small));
    expect(plain.length).toBeLessThan(1024);
    const res = await get(small, { "accept-encoding": "br, gzip" });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("etag")).toMatch(/^"/);
    expect(varies(res)).toContain("accept-encoding");
    expect((await bytes(res)).equals(plain)).toBe(true);

    const problem = await get("/api/v1/papers/2611.99999", { "accept-encoding": "br, gzip" });
    expect(problem.headers.get("content-encoding")).toBeNull();
    expect(((await problem.json()) as { status: number }).status).toBe(404);
  });

  it("weakens the ETag of a compressed response, and the weak tag still revalidates", async () => {
    for (const path of readRoutes()) {
      const strong = (await get(path)).headers.get("etag") as string;
      for (const encoding of ["br", "gzip"]) {
        const res = await get(path, { "accept-encoding": encoding });
        expect(res.headers.get("content-encoding"), `${encoding} ${path}`).toBe(encoding);
        const weak = res.headers.get("etag");
        expect(weak, `${encoding} ${path}`).toBe(`W/${strong}`);
        const again = await get(path, {
          "accept-encoding": encoding,
          "if-none-match": weak as string,
        });
        expect(again.status).toBe(304);
      }
    }
  });

  it("says Vary: Accept-Encoding on every compressible read, keeping other Vary members", async () => {
    for (const path of readRoutes()) {
      for (const accept of [undefined, "br"]) {
        const res = await get(path, accept ? { "accept-encoding": accept } : {});
        expect(varies(res), `${path} ${accept ?? "identity"}`).toContain("accept-encoding");
      }
    }
    // Once, however the body's size routes it through compression.
    for (const limit of [1, 2, 3, 5]) {
      const res = await get(`/api/v1/papers?limit=${limit}`, { "accept-encoding": "br" });
      expect(
        varies(res).filter((v) => v === "accept-encoding"),
        `limit ${limit}`,
      ).toHaveLength(1);
    }
    const detail = await get(`/api/v1/papers/${paperId}`, { "accept-encoding": "br" });
    expect(varies(detail)).toEqual(expect.arrayContaining(["accept", "accept-encoding"]));
  });
});

describe("HEAD", () => {
  it("answers HEAD on GET routes with the GET's headers and no body", async () => {
    for (const path of readRoutes()) {
      const full = await get(path);
      const head = await t.app.request(path, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type")).toBe(full.headers.get("content-type"));
      expect(head.headers.get("etag")).toBe(full.headers.get("etag"));
      expect(head.headers.get("cache-control")).toBe(full.headers.get("cache-control"));
      expect((await bytes(head)).length).toBe(0);
    }
  });

  it("answers HEAD on a missing paper with 404 and no body", async () => {
    const head = await t.app.request("/api/v1/papers/2611.99999", { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.headers.get("content-type")).toBe("application/problem+json");
    expect((await bytes(head)).length).toBe(0);
  });
});
