import { describe, expect, it } from "vitest";
import { createMemoryThrottle, throttleKeys } from "./throttle.ts";

describe("throttle", () => {
  const limits = {
    account: { points: 3, windowSeconds: 60 },
    ip: { points: 5, windowSeconds: 120 },
  };

  it("blocks an account after its limit of hits, and only that account", async () => {
    const throttle = createMemoryThrottle("t1", limits);
    const keys = throttleKeys("Ada@Example.org ", "192.0.2.1");
    expect(keys[0]).toEqual({ scope: "account", id: "ada@example.org" });
    for (let i = 0; i < 3; i++) {
      expect(await throttle.blockedFor(keys)).toBe(0);
      await throttle.hit(keys);
    }
    const wait = await throttle.blockedFor(keys);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await throttle.blockedFor(throttleKeys("other@example.org", "192.0.2.2"))).toBe(0);
  });

  it("blocks an IP across accounts, and clearing an account leaves the IP counted", async () => {
    const throttle = createMemoryThrottle("t2", limits);
    for (let i = 0; i < 5; i++) await throttle.hit(throttleKeys(`u${i}@example.org`, "192.0.2.9"));
    expect(await throttle.blockedFor(throttleKeys("new@example.org", "192.0.2.9"))).toBeGreaterThan(
      60,
    );
    await throttle.clear({ scope: "account", id: "u1@example.org" });
    expect(await throttle.blockedFor(throttleKeys("u1@example.org", "192.0.2.9"))).toBeGreaterThan(
      0,
    );
    expect(await throttle.blockedFor(throttleKeys("u1@example.org", "192.0.2.10"))).toBe(0);
  });
});
