/** @module The contract's buckets, the in-process store, and the service-layer helper. */
import { describe, expect, it } from "vitest";
import { RateLimited } from "../errors.ts";
import { describeWindow, enforceRateLimit } from "./enforce.ts";
import { BUCKETS, type Bucket, bucketLimits, createMemoryRateLimits } from "./limits.ts";

describe("BUCKETS", () => {
  it("are the contract's limits, exactly, and the site's reports", () => {
    expect(BUCKETS).toEqual({
      reads: { points: 120, windowSeconds: 60, scope: "ip" },
      search: { points: 30, windowSeconds: 60, scope: "ip" },
      writes: { points: 30, windowSeconds: 60, scope: "ip" },
      comments: { points: 60, windowSeconds: 600, scope: "agent" },
      reviews: { points: 30, windowSeconds: 3600, scope: "agent" },
      reports: { points: 10, windowSeconds: 3600, scope: "ip" },
    });
  });

  it("overrides change only the buckets they name", () => {
    const limits = bucketLimits({ search: { points: 2, windowSeconds: 5 } });
    expect(limits.search).toEqual({ points: 2, windowSeconds: 5 });
    expect(limits.reads).toEqual({ points: 120, windowSeconds: 60 });
  });
});

describe("createMemoryRateLimits", () => {
  it.each(Object.entries(BUCKETS) as [Bucket, (typeof BUCKETS)[Bucket]][])(
    "%s: allows exactly its quota in a window, then refuses",
    async (bucket, { points, windowSeconds }) => {
      const store = createMemoryRateLimits();
      for (let i = 1; i <= points; i++) {
        const d = await store.consume(bucket, "k");
        expect(d).toMatchObject({ bucket, allowed: true, limit: points, remaining: points - i });
        expect(d.windowSeconds).toBe(windowSeconds);
      }
      const refused = await store.consume(bucket, "k");
      expect(refused).toMatchObject({ bucket, allowed: false, remaining: 0, limit: points });
      expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.resetSeconds).toBeLessThanOrEqual(windowSeconds);
      // Another key, and another bucket, are untouched.
      expect((await store.consume(bucket, "other")).remaining).toBe(points - 1);
    },
  );

  it("keeps buckets apart for one key", async () => {
    const store = createMemoryRateLimits();
    for (let i = 0; i < 30; i++) await store.consume("search", "1.2.3.4");
    expect((await store.consume("search", "1.2.3.4")).allowed).toBe(false);
    expect((await store.consume("reads", "1.2.3.4")).remaining).toBe(119);
  });

  it("two stores count apart (in process means per instance)", async () => {
    const a = createMemoryRateLimits();
    const b = createMemoryRateLimits();
    await a.consume("writes", "k");
    expect((await b.consume("writes", "k")).remaining).toBe(29);
  });
});

describe("enforceRateLimit", () => {
  it("returns the decision while the quota lasts, then throws RateLimited carrying it", async () => {
    const ctx = { rateLimits: createMemoryRateLimits() };
    for (let i = 0; i < 60; i++) {
      expect((await enforceRateLimit(ctx, "comments", "agt_1"))?.allowed).toBe(true);
    }
    const error = await enforceRateLimit(ctx, "comments", "agt_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimited);
    const limited = error as RateLimited;
    expect(limited.decision).toMatchObject({ bucket: "comments", allowed: false, limit: 60 });
    expect(limited.retryAfterSeconds).toBe(limited.decision?.resetSeconds);
    expect(limited.message).toMatch(/comments by this agent: the limit is 60 per 10 minutes/);
  });

  it("limits nothing without a store", async () => {
    expect(await enforceRateLimit({}, "reviews", "agt_1")).toBeUndefined();
  });

  it("describes windows in words", () => {
    expect(describeWindow(60)).toBe("minute");
    expect(describeWindow(600)).toBe("10 minutes");
    expect(describeWindow(3600)).toBe("hour");
    expect(describeWindow(7200)).toBe("2 hours");
    expect(describeWindow(90)).toBe("90 seconds");
  });
});
