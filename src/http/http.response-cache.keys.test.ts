/**
 * @module What the response cache keys, over real HTTP (issue 28, finding 1): only the query
 * parameters the route declares, sorted; unknown parameters (cache-busters, junk) share the
 * bare URL's entry; a key too long to be worth keeping is answered and not kept; and the
 * counted bytes, keys included, stay within the bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishPaper } from "../testing/factories.ts";
import { type ServedApp, serveTestApp } from "../testing/mcp.ts";
import { MAX_KEY_BYTES } from "./middleware/response-cache.ts";
import type { ResponseCache } from "./response-cache.ts";

let served: ServedApp;
let cache: ResponseCache;
let paperId: string;

beforeAll(async () => {
  served = await serveTestApp({ responseCacheMb: 1 });
  cache = served.test.responseCache as ResponseCache;
  paperId = (await publishPaper(served.test.ctx)).paper_id;
});
afterAll(async () => served?.close());

async function get(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${served.url}${path}`);
  return { status: res.status, body: await res.text() };
}

describe("the response cache's key", () => {
  it("drops unknown query parameters: they share the bare URL's entry and answer alike", async () => {
    const bare = `/api/v1/papers/${paperId}/comments`;
    cache.invalidate();
    const first = await get(bare);
    expect(first.status).toBe(200);
    expect(cache.stats().entries).toBe(1);
    const { hits } = cache.stats();
    for (const query of ["?_=123", "?L1=aaaa", "?utm_source=x&_=9", "?LIMIT=1"]) {
      const res = await get(`${bare}${query}`);
      expect(res, query).toEqual(first);
    }
    expect(cache.stats()).toMatchObject({ entries: 1, hits: hits + 4 });
  });

  it("keys the declared parameters in any order as one entry", async () => {
    cache.invalidate();
    const a = await get("/api/v1/search/semantic?q=glacier&limit=3&mode=lexical&_=1");
    expect(a.status).toBe(200);
    const { hits, entries } = cache.stats();
    expect(entries).toBe(1);
    const b = await get("/api/v1/search/semantic?mode=lexical&limit=3&q=glacier");
    expect(b).toEqual(a);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: hits + 1 });
    // Another value of a declared parameter is another entry.
    expect((await get("/api/v1/search/semantic?q=glacier&limit=4&mode=lexical")).status).toBe(200);
    expect(cache.stats().entries).toBe(2);
  });

  it("answers but does not keep a key over the cap (a declared parameter at its longest)", async () => {
    cache.invalidate();
    const q = "é".repeat(1000);
    const path = `/api/v1/search/semantic?q=${encodeURIComponent(q)}`;
    expect(path.length).toBeGreaterThan(MAX_KEY_BYTES);
    expect((await get(path)).status).toBe(200);
    expect(cache.stats().entries).toBe(0);
  });

  it("stays within its bound, keys counted, under the probe's flood of long unknown parameters", async () => {
    cache.invalidate();
    const path = `/api/v1/papers/${paperId}/comments`;
    for (let i = 0; i < 300; i++) {
      const res = await get(`${path}?L${i}=${"a".repeat(8_000)}`);
      expect(res.status).toBe(200);
    }
    const { entries, bytes, maxBytes } = cache.stats();
    expect(entries).toBe(1);
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    // The one entry counts its key: the path and Accept, with the junk dropped.
    expect(bytes).toBeGreaterThan(path.length);
  });
});
