/**
 * @module The account throttles as operations of the one policy: counted on failure, checked
 * before any password, cleared per account, on whichever store the context carries.
 */
import { describe, expect, it } from "vitest";
import {
  clearLimit,
  countOperation,
  createMemoryRateLimits,
  operationBlockedFor,
} from "../ratelimit/index.ts";
import { throttleKeys } from "./throttle.ts";

const overrides = {
  "sign-in-account": { points: 3, windowSeconds: 60 },
  "sign-in-ip": { points: 5, windowSeconds: 120 },
};

describe("account throttles", () => {
  it("block an account after its limit of failures, and only that account", async () => {
    const ctx = { rateLimits: createMemoryRateLimits({ overrides }) };
    const keys = throttleKeys("Ada@Example.org ", "192.0.2.1");
    expect(keys).toEqual({ account: "ada@example.org", ip: "192.0.2.1" });
    for (let i = 0; i < 3; i++) {
      expect(await operationBlockedFor(ctx, "sign-in-failure", keys)).toBe(0);
      await countOperation(ctx, "sign-in-failure", keys);
    }
    const wait = await operationBlockedFor(ctx, "sign-in-failure", keys);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    const other = throttleKeys("other@example.org", "192.0.2.2");
    expect(await operationBlockedFor(ctx, "sign-in-failure", other)).toBe(0);
  });

  it("block an address across accounts, and clearing an account leaves the address counted", async () => {
    const ctx = { rateLimits: createMemoryRateLimits({ overrides }) };
    for (let i = 0; i < 5; i++) {
      await countOperation(ctx, "sign-in-failure", throttleKeys(`u${i}@example.org`, "192.0.2.9"));
    }
    const fresh = throttleKeys("new@example.org", "192.0.2.9");
    expect(await operationBlockedFor(ctx, "sign-in-failure", fresh)).toBeGreaterThan(60);
    await clearLimit(ctx, "sign-in-account", "u1@example.org");
    const u1 = (ip: string) => throttleKeys("u1@example.org", ip);
    expect(await operationBlockedFor(ctx, "sign-in-failure", u1("192.0.2.9"))).toBeGreaterThan(0);
    expect(await operationBlockedFor(ctx, "sign-in-failure", u1("192.0.2.10"))).toBe(0);
  });

  it("keep today's quotas: sign-in 10 per account and 30 per address in 15 minutes; mail 5 and 20 an hour", async () => {
    const ctx = { rateLimits: createMemoryRateLimits() };
    const keys = throttleKeys("quota@example.org", "192.0.2.20");
    for (let i = 0; i < 10; i++) await countOperation(ctx, "sign-in-failure", keys);
    expect(await operationBlockedFor(ctx, "sign-in-failure", keys)).toBeGreaterThan(14 * 60);
    for (let i = 0; i < 4; i++) await countOperation(ctx, "mail", keys);
    expect(await operationBlockedFor(ctx, "mail", keys)).toBe(0);
    await countOperation(ctx, "mail", keys);
    expect(await operationBlockedFor(ctx, "mail", keys)).toBeGreaterThan(59 * 60);
  });

  it("limit nothing without a store (explicitly, as every bucket)", async () => {
    const keys = throttleKeys("a@example.org", "192.0.2.1");
    await countOperation({}, "sign-in-failure", keys);
    expect(await operationBlockedFor({}, "sign-in-failure", keys)).toBe(0);
  });
});
