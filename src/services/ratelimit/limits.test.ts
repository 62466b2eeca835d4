/** @module The contract's buckets, the in-process store, and the service-layer helper. */
import { describe, expect, it } from "vitest";
import { RateLimited } from "../errors.ts";
import {
  BUCKET_NAMES,
  BUCKETS,
  type Bucket,
  bucketLimits,
  createMemoryRateLimits,
} from "./limits.ts";
import {
  describeLimits,
  describeWindow,
  limitOperation,
  OPERATIONS,
  refusalText,
} from "./policy.ts";

describe("BUCKETS", () => {
  it("are the contract's limits, exactly, and the site's reports, forms and votes", () => {
    expect(BUCKETS).toEqual({
      reads: { points: 120, windowSeconds: 60, scope: "ip" },
      search: { points: 30, windowSeconds: 60, scope: "ip" },
      writes: { points: 30, windowSeconds: 60, scope: "ip" },
      comments: { points: 60, windowSeconds: 600, scope: "writer" },
      reviews: { points: 30, windowSeconds: 3600, scope: "writer" },
      reports: { points: 10, windowSeconds: 3600, scope: "ip" },
      forms: { points: 60, windowSeconds: 60, scope: "ip" },
      votes: { points: 60, windowSeconds: 3600, scope: "writer" },
      "sign-in-account": { points: 10, windowSeconds: 900, scope: "account" },
      "sign-in-ip": { points: 30, windowSeconds: 900, scope: "ip" },
      "mail-account": { points: 5, windowSeconds: 3600, scope: "account" },
      "mail-ip": { points: 20, windowSeconds: 3600, scope: "ip" },
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

  it("counts an IPv6 /64 as one client, and an account under its hash", async () => {
    const store = createMemoryRateLimits();
    await store.consume("search", "2001:db8:78::1");
    expect((await store.consume("search", "2001:db8:78::c8")).remaining).toBe(28);
    expect((await store.consume("search", "2001:db8:79::1")).remaining).toBe(29);
    const narrow = createMemoryRateLimits({ ipv6Prefix: 128 });
    await narrow.consume("search", "2001:db8:78::1");
    expect((await narrow.consume("search", "2001:db8:78::c8")).remaining).toBe(29);
    await store.penalize("mail-account", "Ada@Example.org");
    expect(await store.blockedFor("mail-account", "ada@example.org")).toBe(0);
    for (let i = 0; i < 4; i++) await store.penalize("mail-account", "ada@example.org ");
    expect(await store.blockedFor("mail-account", "ada@example.org")).toBeGreaterThan(3500);
    await store.clear("mail-account", "ADA@example.org");
    expect(await store.blockedFor("mail-account", "ada@example.org")).toBe(0);
  });

  it("two stores count apart (in process means per instance)", async () => {
    const a = createMemoryRateLimits();
    const b = createMemoryRateLimits();
    await a.consume("writes", "k");
    expect((await b.consume("writes", "k")).remaining).toBe(29);
  });
});

describe("OPERATIONS", () => {
  it("draws every bucket somewhere, and an agent's write on writes and its own quota", () => {
    const drawn = new Set(Object.values(OPERATIONS).flat());
    expect([...drawn].sort()).toEqual([...BUCKET_NAMES].sort());
    expect(OPERATIONS.comment).toEqual(["writes", "comments"]);
    expect(OPERATIONS.review).toEqual(["writes", "reviews"]);
    // A search spends only a search (the contract lists it beside reads, not inside them).
    expect(OPERATIONS.search).toEqual(["search"]);
  });
});

describe("limitOperation", () => {
  it("returns the decisions while the quota lasts, then throws RateLimited carrying it", async () => {
    const ctx = { rateLimits: createMemoryRateLimits() };
    for (let i = 0; i < 60; i++) {
      const [decision] = await limitOperation(ctx, "comment", { writer: "agt_1" });
      expect(decision).toMatchObject({ bucket: "comments", allowed: true });
    }
    const error = await limitOperation(ctx, "comment", { writer: "agt_1" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimited);
    const limited = error as RateLimited;
    expect(limited.decision).toMatchObject({ bucket: "comments", allowed: false, limit: 60 });
    expect(limited.retryAfterSeconds).toBe(limited.decision?.resetSeconds);
    expect(limited.message).toMatch(/comments by this agent: the limit is 60 per 10 minutes/);
  });

  it("draws only the buckets whose key it is given: the address, the writer, or both", async () => {
    const store = createMemoryRateLimits();
    const ctx = { rateLimits: store };
    const byAddress = await limitOperation(ctx, "review", { ip: "192.0.2.1" });
    expect(byAddress.map((d) => d.bucket)).toEqual(["writes"]);
    const byWriter = await limitOperation(ctx, "review", { writer: "agt_1" });
    expect(byWriter.map((d) => d.bucket)).toEqual(["reviews"]);
    const both = await limitOperation(ctx, "review", { ip: "192.0.2.1", writer: "agt_1" });
    expect(both.map((d) => [d.bucket, d.remaining])).toEqual([
      ["writes", 28],
      ["reviews", 28],
    ]);
  });

  it("limits nothing without a store", async () => {
    expect(await limitOperation({}, "review", { writer: "agt_1" })).toEqual([]);
  });

  it("words a refusal once, in English and in Spanish", () => {
    const decision = {
      bucket: "forms",
      allowed: false,
      limit: 60,
      windowSeconds: 60,
      remaining: 0,
      resetSeconds: 12,
    } as const;
    expect(refusalText(decision, "en")).toBe(
      "Too many form submissions from your address: the limit is 60 per minute. Retry after 12 seconds.",
    );
    expect(refusalText(decision, "es")).toBe(
      "Demasiadas peticiones (envíos de formularios desde tu dirección): el límite es 60 por minuto. Vuelve a intentarlo dentro de 12 segundos.",
    );
  });

  it("describes windows in words", () => {
    expect(describeWindow(60)).toBe("minute");
    expect(describeWindow(600)).toBe("10 minutes");
    expect(describeWindow(3600)).toBe("hour");
    expect(describeWindow(7200)).toBe("2 hours");
    expect(describeWindow(90)).toBe("90 seconds");
    expect(describeWindow(600, "es")).toBe("10 minutos");
    expect(describeWindow(3600, "es")).toBe("hora");
  });

  it("describes an operation's quotas for tool descriptions", () => {
    expect(describeLimits("read")).toBe("120 reads a minute per IP");
    expect(describeLimits("search")).toBe("30 searches a minute per IP");
    expect(describeLimits("comment")).toBe(
      "30 writes a minute per IP and 60 comments per 10 minutes per agent",
    );
    expect(describeLimits("review")).toBe(
      "30 writes a minute per IP and 30 reviews an hour per agent",
    );
  });
});
