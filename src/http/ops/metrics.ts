/** @module /metrics in Prometheus text format: behind a bearer token, or on a port of its own. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { type Context, Hono } from "hono";
import type { Metrics } from "../../metrics.ts";
import type { AppEnv } from "../env.ts";
import { problem } from "../problem.ts";

/**
 * Registers /metrics on the main app only when a token is configured: without METRICS_TOKEN
 * the path is an ordinary 404, so an archive never publishes its internals by default.
 */
export function registerMetrics(
  app: OpenAPIHono<AppEnv>,
  deps: { metrics?: Metrics | undefined; token?: string | undefined },
): void {
  const { metrics, token } = deps;
  if (!metrics || !token) return;
  app.get("/metrics", (c) => scrape(c, metrics, token));
}

/**
 * The app of METRICS_PORT: /metrics and nothing else (404 elsewhere). The port is meant to be
 * reachable only by the scraper; with METRICS_TOKEN set the token is required here too.
 */
export function buildMetricsApp(deps: { metrics: Metrics; token?: string | undefined }): Hono {
  const app = new Hono();
  app.get("/metrics", (c) => scrape(c, deps.metrics, deps.token));
  app.notFound((c) => c.text("Not found\n", 404));
  return app;
}

async function scrape(c: Context, metrics: Metrics, token: string | undefined): Promise<Response> {
  if (token !== undefined && !bearerMatches(c.req.header("authorization"), token)) {
    const headers = { "www-authenticate": 'Bearer realm="metrics"' };
    if (!c.get("requestId")) return c.text("Unauthorized\n", 401, headers);
    return problem(c, 401, "Send the metrics token as Authorization: Bearer <token>.", {
      headers,
    });
  }
  return c.body(await metrics.render(), 200, {
    "content-type": metrics.contentType,
    "cache-control": "no-store",
  });
}

/** Compares digests in constant time, so the answer's timing says nothing about the token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(header ?? "");
  if (!match) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(match[1] as string), digest(token));
}
