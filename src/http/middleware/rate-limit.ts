/** @module Per-IP rate limits on HTTP requests, and the RateLimit headers of every draw. */
import type { MiddlewareHandler } from "hono";
import { RateLimited } from "../../services/errors.ts";
import {
  type Bucket,
  limitOperation,
  type Operation,
  type RateLimitDecision,
  type RateLimits,
} from "../../services/ratelimit/index.ts";
import type { AppEnv } from "../env.ts";
import { problemFromDomainError } from "../problem.ts";
import { rateLimitHeaders } from "../ratelimit-headers.ts";
import { setResponseHeaders } from "../set-headers.ts";

/** Public machine-readable paths outside /api/v1 that draw on `reads`. */
const PUBLIC_READ_PATHS = new Set(["/llms.txt", "/llms-full.txt", "/feed.atom", "/oai", "/docs"]);

/** Operational probes are never limited: an orchestrator must always get its answer. */
const UNLIMITED_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** A paper's discussion feed, a public machine-readable read like /feed.atom. */
const DISCUSSION_FEED = /^\/papers\/[^/]+\/discussion\.atom$/;

/** An agent's writes under /api/v1: comments and reviews (their per-agent quotas follow). */
const CONTRIBUTION = /^\/api\/v1\/papers\/[^/]+\/(comments|reviews)$/;

/**
 * The operation of the rate-limit policy (`OPERATIONS` in services/ratelimit) a request is,
 * or null; the policy says which buckets it costs. This is REST's routing knowledge only:
 * - `search`: GET /api/v1/search/semantic, and the Atom feed of a search (`/feed.atom?q=…`:
 *   `search` is the query's query string).
 * - `read`: every other GET or HEAD under /api/v1 (including /api/v1/me, the OpenAPI
 *   document and unknown paths) and the public machine-readable paths (llms.txt, the Atom
 *   feed, OAI-PMH, whose POST form is a read too, the API reference under /docs, and a
 *   paper's discussion feed).
 * - `comment`, `review`: POST …/comments and …/reviews; `write`: any other POST under /api/v1.
 * Preflights (OPTIONS), probes and everything else are not limited here.
 */
export function operationFor(method: string, path: string, search = ""): Operation | null {
  if (method === "OPTIONS" || UNLIMITED_PATHS.has(path)) return null;
  const read = method === "GET" || method === "HEAD";
  if (path === "/api/v1" || path.startsWith("/api/v1/")) {
    if (read) return path === "/api/v1/search/semantic" ? "search" : "read";
    if (method !== "POST") return null;
    const contribution = CONTRIBUTION.exec(path)?.[1];
    return contribution === "comments"
      ? "comment"
      : contribution === "reviews"
        ? "review"
        : "write";
  }
  if (DISCUSSION_FEED.test(path)) return read ? "read" : null;
  if (PUBLIC_READ_PATHS.has(path) || path.startsWith("/docs/")) {
    if (read && path === "/feed.atom" && new URLSearchParams(search).has("q")) return "search";
    if (read || (method === "POST" && path === "/oai")) return "read";
  }
  return null;
}

/**
 * Draws on the per-IP buckets of the request's operation (answering 429 problem+json with Retry-After when it
 * is spent) and writes `RateLimit-Policy` and `RateLimit` on the response for every bucket
 * the request drew on, 2xx and 429 alike. The request's context gets a recording view of the
 * store, so per-agent draws made by services (`limitOperation(ctx, "comment", { writer })`)
 * land in the same headers, and their refusals, thrown as `RateLimited`, become the same
 * 429 through the app's error handler. `onRefused` hears of every refused draw (metrics).
 */
export function rateLimit(
  options: { onRefused?: (bucket: Bucket) => void } = {},
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ctx = c.get("ctx");
    const store = ctx.rateLimits;
    if (!store) return next();
    const drawn: RateLimitDecision[] = [];
    const recording: RateLimits = {
      consume: async (bucket, key) => {
        const decision = await store.consume(bucket, key);
        drawn.push(decision);
        if (!decision.allowed) options.onRefused?.(decision.bucket);
        return decision;
      },
      // Account throttles are checked and counted by services; they write no RateLimit fields.
      penalize: (bucket, key) => store.penalize(bucket, key),
      blockedFor: (bucket, key) => store.blockedFor(bucket, key),
      clear: (bucket, key) => store.clear(bucket, key),
      ...(store.probe ? { probe: () => store.probe!() } : {}),
      // The store belongs to the process; a request's view never closes it.
      close: async () => {},
    };
    c.set("ctx", { ...ctx, rateLimits: recording });

    const operation = operationFor(c.req.method, c.req.path, new URL(c.req.url).search);
    if (operation) {
      try {
        await limitOperation(c.get("ctx"), operation, { ip: c.get("clientIp") });
      } catch (error) {
        if (!(error instanceof RateLimited)) throw error;
        c.res = problemFromDomainError(c, error);
        setResponseHeaders(c, rateLimitHeaders(drawn));
        return c.res;
      }
    }
    await next();
    setResponseHeaders(c, rateLimitHeaders(drawn));
    return undefined;
  };
}
