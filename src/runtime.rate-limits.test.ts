/** @module The runtime opens the rate-limit store from configuration and closes it. */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { openRuntime } from "./runtime.ts";
import { readCounter, TEST_REDIS_URL } from "./testing/redis.ts";

const logger = pino({ level: "silent" });

describe("openRuntime rate limits", () => {
  it("are in process without REDIS_URL", async () => {
    const runtime = await openRuntime(loadConfig({ DATA_DIR: "memory://" }), logger);
    try {
      const d = await runtime.services.rateLimits?.consume("reads", "192.0.2.10");
      expect(d).toMatchObject({ allowed: true, limit: 120, remaining: 119 });
    } finally {
      await runtime.close();
    }
  });

  it("are in Redis with REDIS_URL, under quire:rl:<bucket>:<key>, at the contract's quotas", async () => {
    const key = `192.0.2.${randomBytes(2).readUInt16BE()}-${randomBytes(4).toString("hex")}`;
    const runtime = await openRuntime(
      loadConfig({ DATA_DIR: "memory://", REDIS_URL: TEST_REDIS_URL }),
      logger,
    );
    try {
      const d = await runtime.services.rateLimits?.consume("search", key);
      expect(d).toMatchObject({ allowed: true, limit: 30, windowSeconds: 60, remaining: 29 });
      expect(await readCounter(TEST_REDIS_URL, `quire:rl:search:${key}`)).toBe(1);
    } finally {
      await runtime.close();
      const client = new Redis(TEST_REDIS_URL);
      await client.del(`quire:rl:search:${key}`);
      client.disconnect();
    }
  });

  it("are not opened for one-shot commands", async () => {
    const runtime = await openRuntime(
      loadConfig({ DATA_DIR: "memory://", REDIS_URL: TEST_REDIS_URL }),
      logger,
      { rateLimits: false },
    );
    expect(runtime.services.rateLimits).toBeUndefined();
    await runtime.close();
  });
});
