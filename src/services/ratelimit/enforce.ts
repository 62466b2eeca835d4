/** @module Draw on a bucket from a service verb; refusal is a RateLimited error. */
import type { ServiceContext } from "../context.ts";
import { RateLimited } from "../errors.ts";
import type { Bucket, RateLimitDecision } from "./limits.ts";

const WHAT: Record<Bucket, string> = {
  reads: "reads from your address",
  search: "searches from your address",
  writes: "writes from your address",
  comments: "comments by this agent",
  reviews: "reviews by this agent",
  reports: "reports from your address",
};

/**
 * Takes one request from `bucket` for `key` (the client IP for reads, search and writes; the
 * agent id for comments and reviews) and throws `RateLimited` when the quota is spent. Every
 * front end maps that error once, so a refusal reads the same from REST and MCP. Without a
 * store on the context (some unit tests) nothing is limited.
 */
export async function enforceRateLimit(
  ctx: Pick<ServiceContext, "rateLimits">,
  bucket: Bucket,
  key: string,
): Promise<RateLimitDecision | undefined> {
  if (!ctx.rateLimits) return undefined;
  const decision = await ctx.rateLimits.consume(bucket, key);
  if (!decision.allowed) {
    throw new RateLimited(
      `Too many ${WHAT[bucket]}: the limit is ${decision.limit} per ${describeWindow(decision.windowSeconds)}. ` +
        `Retry after ${decision.resetSeconds} seconds.`,
      decision.resetSeconds,
      decision,
    );
  }
  return decision;
}

/** 60 → "minute", 600 → "10 minutes", 3600 → "hour". */
export function describeWindow(seconds: number): string {
  const units: [number, string][] = [
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  for (const [size, name] of units) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? name : `${n} ${name}s`;
    }
  }
  return `${seconds} seconds`;
}
