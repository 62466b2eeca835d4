/**
 * @module Test support: rate-limit stores per engine and the shared assertions on 429s and
 * the IETF RateLimit fields, for every route's tests to reuse.
 */
import { pino } from "pino";
import { expect } from "vitest";
import {
  type Bucket,
  type BucketOverrides,
  createMemoryRateLimits,
  type RateLimits,
} from "../services/ratelimit/limits.ts";
import { createRedisRateLimits } from "../services/ratelimit/redis.ts";
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from "./redis.ts";

export type Engine = "memory" | "redis";

/**
 * A store with the contract's exact quotas (or `overrides`), on either engine. A Redis store
 * gets a key prefix of its own; `cleanup()` deletes its keys after the test.
 */
export async function exactRateLimits(
  engine: Engine,
  options: { overrides?: BucketOverrides; keyPrefix?: string } = {},
): Promise<RateLimits & { cleanup(): Promise<void> }> {
  if (engine === "memory") {
    return { ...createMemoryRateLimits(options), cleanup: async () => {} };
  }
  const keyPrefix = options.keyPrefix ?? uniquePrefix("http");
  const store = await createRedisRateLimits({
    redisUrl: TEST_REDIS_URL,
    logger: pino({ level: "silent" }),
    overrides: options.overrides,
    keyPrefix,
    // Generous, so a loaded test machine never turns a slow answer into a memory count.
    commandTimeoutMs: 5000,
  });
  return { ...store, cleanup: () => deletePrefix(TEST_REDIS_URL, keyPrefix) };
}

/** `"reads";r=119;t=42, "comments";r=3;t=9` → { reads: { r: 119, t: 42 }, comments: … }. */
export function parseRateLimitField(value: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  if (!value) return out;
  for (const item of value.split(",")) {
    const [name, ...params] = item.trim().split(";");
    const match = /^"([a-z-]+)"$/.exec(name ?? "");
    expect(match, `not an sf-string policy name: ${item}`).not.toBeNull();
    const entry: Record<string, number> = {};
    for (const param of params) {
      const [key, raw] = param.split("=");
      expect(raw, `parameter ${param} is not an integer`).toMatch(/^\d+$/);
      entry[key as string] = Number(raw);
    }
    out[match?.[1] as string] = entry;
  }
  return out;
}

/** The response drew on `bucket`: both fields name it, with the quota and what is left. */
export function expectRateLimitFields(
  res: Response,
  bucket: Bucket,
  expected: { limit: number; windowSeconds: number; remaining?: number },
): { r: number; t: number } {
  const policy = parseRateLimitField(res.headers.get("ratelimit-policy"))[bucket];
  expect(policy, `RateLimit-Policy has no "${bucket}"`).toEqual({
    q: expected.limit,
    w: expected.windowSeconds,
  });
  const current = parseRateLimitField(res.headers.get("ratelimit"))[bucket];
  expect(current, `RateLimit has no "${bucket}"`).toBeDefined();
  const { r, t } = current as { r: number; t: number };
  if (expected.remaining !== undefined) expect(r).toBe(expected.remaining);
  expect(t).toBeGreaterThanOrEqual(1);
  expect(t).toBeLessThanOrEqual(expected.windowSeconds);
  return { r, t };
}

/**
 * A 429 for `bucket`: problem+json, not cacheable, `Retry-After` in whole seconds within the
 * window and equal to the policy's reset, `r=0`.
 */
export async function expectRateLimited(
  res: Response,
  bucket: Bucket,
  expected: { limit: number; windowSeconds: number },
): Promise<{ retryAfter: number; body: Record<string, unknown> }> {
  expect(res.status).toBe(429);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const retryAfter = res.headers.get("retry-after");
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(expected.windowSeconds);
  const { t } = expectRateLimitFields(res, bucket, { ...expected, remaining: 0 });
  expect(t).toBe(seconds);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status: 429, title: "Too many requests" });
  expect(String(body.type)).toMatch(/#rate-limited$/);
  expect(String(body.detail)).toContain(`limit is ${expected.limit} per`);
  expect(String(body.detail)).toContain(`Retry after ${seconds} seconds`);
  return { retryAfter: seconds, body };
}
