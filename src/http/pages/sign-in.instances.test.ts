/**
 * @module The sign-in throttle is one budget however many instances serve: two apps on one
 * Redis store (two "instances") count one account's failures together, and the store holds
 * the account only as a hash.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOwner, hashPassword } from "../../services/owners/index.ts";
import { accountKeyOf } from "../../services/ratelimit/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { PageClient } from "../../testing/page-client.ts";
import { exactRateLimits } from "../../testing/rate-limit.ts";
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from "../../testing/redis.ts";
import { PASSWORD } from "./pages.test-helpers.ts";

const keyPrefix = uniquePrefix("sign-in-instances");
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp({
    services: { rateLimits: await exactRateLimits("redis", { keyPrefix }) },
  });
  b = await createTestApp({
    database: a.database,
    services: { rateLimits: await exactRateLimits("redis", { keyPrefix }) },
  });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await deletePrefix(TEST_REDIS_URL, keyPrefix);
});

async function redisEntries(): Promise<string[]> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const keys = await client.keys(`${keyPrefix}:*`);
    const values = await Promise.all(keys.map((k) => client.get(k)));
    return [...keys, ...values.map(String)];
  } finally {
    client.disconnect();
  }
}

describe("the sign-in throttle across instances on one Redis", () => {
  it("refuses the 11th failure for an account however the 10 were spread, and keeps no email", async () => {
    const email = `Shared.Budget.${process.pid}@Example.org`;
    await createOwner(
      { ...a.ctx, caller: { kind: "operator" } },
      {
        handle: `shared_${process.pid}`,
        email,
        verified: true,
        passwordHash: await hashPassword(PASSWORD),
      },
    );
    const clients = [new PageClient(a), new PageClient(b)];
    for (let i = 0; i < 10; i++) {
      const res = await clients[i % 2]!.submit("/sign-in", "/sign-in", {
        email,
        password: `wrong pass ${i}`,
      });
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    // Each instance saw five failures; one budget of ten is spent on both.
    for (const client of clients) {
      const refused = await client.submit("/sign-in", "/sign-in", { email, password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.setCookies.some((c) => c.startsWith("quire_session="))).toBe(false);
    }
    const stored = await redisEntries();
    expect(stored.some((k) => k.includes(`sign-in-account:${accountKeyOf(email)}`))).toBe(true);
    const lower = email.toLowerCase();
    for (const entry of stored) {
      expect(entry.toLowerCase()).not.toContain(lower);
      expect(entry.toLowerCase()).not.toContain("shared.budget");
    }
  });
});
