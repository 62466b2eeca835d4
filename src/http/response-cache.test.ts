/** @module The response cache's bookkeeping: the byte bound, LRU order, generations, TTL. */
import { describe, expect, it } from "vitest";
import { ENTRY_OVERHEAD, entryBytes, ResponseCache } from "./response-cache.ts";

const body = (n: number) => "x".repeat(n);
const entry = (n: number) => ({ body: body(n), headers: [] as [string, string][], etag: null });

describe("ResponseCache", () => {
  it("keeps its bytes within the bound under a long mixed load, evicting the least recently used", () => {
    const cache = new ResponseCache({ maxBytes: 64 * 1024 });
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 20_000; i++) {
      const key = `k${Math.floor(random() * 400)}`;
      const hit = cache.get(key);
      if (hit) {
        if (random() < 0.3)
          cache.setEncoded(hit, random() < 0.5 ? "br" : "gzip", new Uint8Array(900));
      } else {
        cache.set(key, cache.generation, entry(Math.floor(random() * 6000)));
      }
      if (i % 5000 === 4999) cache.invalidate();
      expect(cache.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(cache.stats().hits).toBeGreaterThan(0);
    const lru = new ResponseCache({ maxBytes: 8 * 1024 * 8 });
    lru.set("a", 0, entry(7000));
    lru.set("b", 0, entry(7000));
    expect(lru.get("a")).toBeDefined(); // a is now the most recently used
    for (let i = 0; i < 8; i++) lru.set(`c${i}`, 0, entry(7000));
    expect(lru.get("b")).toBeUndefined();
    expect(lru.stats().bytes).toBeLessThanOrEqual(8 * 1024 * 8);
  });

  it("counts what an entry keeps (key, headers, ETag, bodies), so long keys cannot outgrow the bound", () => {
    const one = new ResponseCache({ maxBytes: 1024 * 1024 });
    const key = `/api/v1/papers/2611.00001/comments?cursor=${"é".repeat(500)}\n*/*`;
    const headers: [string, string][] = [["content-type", "application/json"]];
    const kept = one.set(key, one.generation, { body: "[]", headers, etag: '"abc"' });
    const expected =
      ENTRY_OVERHEAD + Buffer.byteLength(key) + 2 + "content-type".length + 16 + '"abc"'.length;
    expect(kept?.bytes).toBe(expected);
    expect(one.stats().bytes).toBe(expected);
    one.setEncoded(kept!, "gzip", new Uint8Array(40));
    expect(one.stats().bytes).toBe(expected + 40);

    // The attack of issue 28: a new key each time (3,000 bytes of query), a small body.
    const maxBytes = 64 * 1024;
    const cache = new ResponseCache({ maxBytes });
    for (let i = 0; i < 5_000; i++) {
      const longKey = `/api/v1/papers/x/comments?cursor=${i}${"a".repeat(3_000)}\n*/*`;
      cache.set(longKey, cache.generation, entry(20));
      const { bytes, entries } = cache.stats();
      expect(bytes).toBeLessThanOrEqual(maxBytes);
      // Every entry's key is in the count: entries × key bytes fit in the bound too.
      expect(entries * 3_000).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.stats().entries).toBeGreaterThan(0);
    expect(entryBytes("k", entry(0))).toBe(ENTRY_OVERHEAD + 1);
  });

  it("sweeps expired entries out on later use, without anyone asking for them again", () => {
    let now = 0;
    const cache = new ResponseCache({ maxBytes: 1024 * 1024, ttlMs: 1_000, now: () => now });
    for (let i = 0; i < 50; i++) cache.set(`old${i}`, cache.generation, entry(100));
    expect(cache.stats().entries).toBe(50);
    now = 1_500;
    const fresh = cache.set("fresh", cache.generation, entry(100));
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: fresh?.bytes });
    // A get sweeps too (here, the fresh entry once it has expired).
    now = 3_000;
    expect(cache.get("other")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("never keeps a response read before an invalidation, nor one over an eighth of the bound", () => {
    const cache = new ResponseCache({ maxBytes: 80_000 });
    const started = cache.generation;
    cache.invalidate();
    expect(cache.set("late", started, entry(10))).toBeUndefined();
    expect(cache.set("big", cache.generation, entry(20_000))).toBeUndefined();
    expect(cache.set("ok", cache.generation, entry(10))).toBeDefined();
    expect(cache.stats().entries).toBe(1);
  });

  it("serves nothing past its TTL, and nothing while suspended; resumes empty", () => {
    let now = 0;
    const cache = new ResponseCache({ maxBytes: 80_000, ttlMs: 1_000, now: () => now });
    cache.set("a", cache.generation, entry(10));
    now = 999;
    expect(cache.get("a")?.body).toBe(body(10));
    now = 1_000;
    expect(cache.get("a")).toBeUndefined();
    cache.set("b", cache.generation, entry(10));
    cache.suspend();
    expect(cache.set("c", cache.generation, entry(10))).toBeUndefined();
    expect(cache.get("b")).toBeUndefined();
    cache.resume();
    expect(cache.stats().entries).toBe(0);
    expect(cache.set("c", cache.generation, entry(10))).toBeDefined();
  });

  it("lets concurrent misses of one key wait for the fill under way, never across an invalidation", async () => {
    const cache = new ResponseCache({ maxBytes: 80_000 });
    expect(cache.waitForFill("a")).toBeUndefined();
    const done = cache.beginFill("a");
    const waiting = cache.waitForFill("a");
    const kept = cache.set("a", cache.generation, entry(10));
    done(kept);
    expect(await waiting).toBe(kept);
    expect(cache.waitForFill("a")).toBeUndefined();
    expect(cache.stats().coalesced).toBe(1);

    // A fill that kept nothing (not cacheable, failed): the waiter reads for itself.
    const failed = cache.beginFill("b");
    const waitingForB = cache.waitForFill("b");
    failed(undefined);
    expect(await waitingForB).toBeUndefined();

    // After a change, new misses do not wait for a fill begun before it, and it keeps nothing.
    const stale = cache.beginFill("c");
    const started = cache.generation;
    cache.invalidate();
    expect(cache.waitForFill("c")).toBeUndefined();
    const again = cache.beginFill("c");
    stale(cache.set("c", started, entry(10)));
    // The stale fill's end does not take the newer fill's place.
    const waitingForNew = cache.waitForFill("c");
    expect(waitingForNew).toBeDefined();
    const fresh = cache.set("c", cache.generation, entry(12));
    again(fresh);
    expect(await waitingForNew).toBe(fresh);
    expect(cache.stats().coalesced).toBe(2);
  });
});
