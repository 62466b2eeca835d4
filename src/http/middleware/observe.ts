/** @module Each request's context (client address, logger), its access-log line and its metrics. */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "pino";
import type { Metrics } from "../../metrics.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { AppEnv } from "../env.ts";
import type { Lifecycle } from "../lifecycle.ts";
import { setResponseHeaders } from "../set-headers.ts";

export interface ObserveDeps {
  logger: Logger;
  baseUrl: string;
  services: ServiceContext;
  resolveIp: (peer: string, xff: string | undefined) => string;
  metrics?: Metrics | undefined;
  lifecycle?: Lifecycle | undefined;
}

/** The label of every request no registered route matched (404s, most 405s). */
const UNMATCHED_ROUTE = "unmatched";

/** Probes answered 2xx are logged at debug: an orchestrator polls them every few seconds. */
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The registered pattern that answered (`/api/v1/papers/:id`), never the raw path: metric
 * labels must stay a small fixed set whatever clients send. Middleware patterns (with `*`)
 * are skipped, so a 429 or 413 from middleware still names the route it was meant for.
 */
function routePattern(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const path = routes[i]?.path;
    if (path && !path.includes("*")) return path;
  }
  return UNMATCHED_ROUTE;
}

/**
 * First middleware of the app: resolves the client address (per TRUST_PROXY), gives the
 * request a logger carrying its request id and a service context, then writes one access-log
 * line (request id, method, route pattern, path, status, latency, client address; never
 * headers, query strings or bodies, where secrets travel) and counts the request in the
 * metrics. While the server drains, every response says `Connection: close`, so keep-alive
 * clients open their next request elsewhere instead of meeting a closed socket.
 */
export function observe(deps: ObserveDeps): MiddlewareHandler<AppEnv> {
  const { lifecycle, metrics } = deps;
  return async (c, next) => {
    const started = performance.now();
    let peer = "unknown";
    try {
      peer = getConnInfo(c).remote.address ?? "unknown";
    } catch {
      // app.request() in tests has no socket.
    }
    const ip = deps.resolveIp(peer, c.req.header("x-forwarded-for"));
    const logger = deps.logger.child({ request_id: c.get("requestId") });
    c.set("baseUrl", deps.baseUrl);
    c.set("clientIp", ip);
    c.set("logger", logger);
    c.set("ctx", { ...deps.services, logger });
    lifecycle?.requestStarted();
    try {
      await next();
    } finally {
      lifecycle?.requestFinished();
    }
    // Hono's requestId() leaves the header among the context's prepared headers, which a
    // response a handler built itself (a streamed export) does not carry: set on every one.
    const headers: Record<string, string> = { "x-request-id": c.get("requestId") };
    if (lifecycle?.draining) headers.connection = "close";
    setResponseHeaders(c, headers);
    const seconds = (performance.now() - started) / 1000;
    const route = routePattern(c);
    const method = METHODS.has(c.req.method) ? c.req.method : "OTHER";
    const status = c.get("sentStatus") ?? c.res.status;
    metrics?.observeRequest(method, route, status, seconds);
    const level = QUIET_ROUTES.has(route) && status < 400 ? "debug" : "info";
    logger[level](
      {
        method: c.req.method,
        route,
        path: c.req.path,
        status,
        ms: Math.round(seconds * 100_000) / 100,
        ip,
      },
      "request",
    );
  };
}
