/** @module Builds the Hono application: middleware, API routes, errors. No side effects. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import { buildOpenApiDocument, OPENAPI_PATH, registerV1 } from "./http/api/v1/index.ts";
import { limitBody, MAX_BODY_BYTES, requireUtf8Body } from "./http/body-limit.ts";
import { type AppEnv, createRouter } from "./http/env.ts";
import { createLifecycle, type Lifecycle } from "./http/lifecycle.ts";
import { identifyAgent } from "./http/middleware/agent-auth.ts";
import { clientIpResolver } from "./http/middleware/client-ip.ts";
import { compress } from "./http/middleware/compress.ts";
import { publicCors } from "./http/middleware/cors.ts";
import { observe } from "./http/middleware/observe.ts";
import { publicCache } from "./http/middleware/public-cache.ts";
import { rateLimit } from "./http/middleware/rate-limit.ts";
import { responseCache } from "./http/middleware/response-cache.ts";
import { registerAuthorizationServer } from "./http/oauth/authorization-server.ts";
import { registerProtectedResource } from "./http/oauth/protected-resource.ts";
import { registerHealth } from "./http/ops/health.ts";
import { registerMetrics } from "./http/ops/metrics.ts";
import {
  isSiteRequest,
  pageNotFound,
  registerPages,
  sitePageError,
  wantsHtml,
} from "./http/pages/index.ts";
import { problem, problemFromDomainError } from "./http/problem.ts";
import { registerPublic } from "./http/public/index.ts";
import type { ResponseCache } from "./http/response-cache.ts";
import { declaredQueryNames } from "./http/route-query.ts";
import { registerMcp } from "./mcp/http.ts";
import type { McpStreams } from "./mcp/streams.ts";
import type { Metrics } from "./metrics.ts";
import type { ServiceContext } from "./services/context.ts";
import { domainErrorOf, Invalid, Unavailable } from "./services/errors.ts";
import { urlTextIssues } from "./services/text.ts";

export interface AppDeps {
  /** The base service context (anonymous caller); requests derive theirs from it. */
  services: ServiceContext;
  logger: Logger;
  baseUrl: string;
  trustProxy: string[];
  /** Prometheus instruments of this instance; requests and refusals are counted when given. */
  metrics?: Metrics | undefined;
  /** Bearer token that opens /metrics on this app (METRICS_TOKEN); without it, 404. */
  metricsToken?: string | undefined;
  /** Draining state at shutdown (the server's); /readyz answers 503 while draining. */
  lifecycle?: Lifecycle | undefined;
  /**
   * The response cache of anonymous public API reads (RESPONSE_CACHE_MB), invalidated by the
   * runtime on every archive change; without it, every read runs its query.
   */
  responseCache?: ResponseCache | undefined;
  /**
   * This instance's MCP event streams (GET /mcp), over the database's wake-ups; with them the
   * MCP server offers resource subscriptions. Whoever makes them closes them (the server, at
   * shutdown, before the database). Without them, /mcp is POST only (benchmarks).
   */
  mcpStreams?: McpStreams | undefined;
}

export { MAX_BODY_BYTES };

export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createRouter();
  const resolveIp = clientIpResolver(deps.trustProxy);
  // Every limit, the account throttles included, is on `services.rateLimits`; without a store
  // (some tests) nothing is limited, as `limitOperation` says.
  const { services } = deps;

  const lifecycle = deps.lifecycle ?? createLifecycle();
  deps.metrics?.watchInFlight(() => lifecycle.inFlight);

  app.use(requestId({ headerName: "X-Request-Id" }));
  app.use(
    observe({
      logger: deps.logger,
      baseUrl: deps.baseUrl,
      services,
      resolveIp,
      metrics: deps.metrics,
      lifecycle,
    }),
  );
  app.use(compress());
  app.use(
    "/api/v1/*",
    publicCors({
      // Agents' writes too: they authenticate with a bearer key, never a cookie, so a page on
      // another origin gains nothing it could not do from a server (credentials stay off).
      allowMethods: ["GET", "HEAD", "POST", "OPTIONS"],
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "Idempotency-Key",
        "If-None-Match",
        "If-Match",
      ],
      exposeHeaders: [
        "ETag",
        "Location",
        "Idempotent-Replayed",
        "Repr-Digest",
        "Retry-After",
        "RateLimit",
        "RateLimit-Policy",
        "X-Request-Id",
      ],
      maxAge: 86_400,
    }),
  );
  // After CORS (a 429 must be readable cross-origin), before caching and body checks (a
  // refused request costs no work, and 304s carry the RateLimit fields too).
  app.use(rateLimit({ onRefused: (bucket) => deps.metrics?.rateLimitRefused(bucket) }));
  // Every front end's URL (path segments, query names and values) follows the text rule.
  app.use(async (c, next) => {
    const issues = urlTextIssues(new URL(c.req.url));
    if (issues.length > 0) {
      throw new Invalid("The address contains characters the archive does not accept.", issues);
    }
    return next();
  });
  app.use("/api/v1/*", identifyAgent());
  app.use("/api/v1/*", publicCache());
  app.use(
    "/api/v1/*",
    responseCache(deps.responseCache, (c) => declaredQueryNames(app, c)),
  );
  for (const path of ["/llms.txt", "/llms-full.txt", "/feed.atom", "/oai", "/docs", "/docs/*"]) {
    app.use(path, publicCache(300));
  }
  const capBody = limitBody({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  const utf8Body = requireUtf8Body<Context<AppEnv>>((c, issue) =>
    problem(c, 400, "The body is not valid UTF-8; send the text as UTF-8.", { errors: [issue] }),
  );
  app.on("POST", "/api/v1/*", async (c, next) => {
    // Only routes that take a POST check the body; others fall through to 404 or 405.
    if (!allowedMethods(app, c.req.path).includes("POST")) return next();
    return requireJson(
      c,
      () => capBody(c, () => utf8Body(c, next) as Promise<void>) as Promise<void>,
    );
  });

  registerV1(app);
  const authorizationServers = registerAuthorizationServer(app, {
    baseUrl: deps.baseUrl,
    clientMetadataDocuments: deps.services.clientMetadata !== undefined,
  });
  registerProtectedResource(app, { baseUrl: deps.baseUrl, authorizationServers });
  registerMcp(app, {
    baseUrl: deps.baseUrl,
    maxBodyBytes: MAX_BODY_BYTES,
    oauth: authorizationServers.length > 0,
    ...(deps.mcpStreams ? { streams: deps.mcpStreams } : {}),
  });
  // Built on first use, when every route is registered: a third of a second a server need not
  // spend before it listens.
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  let documentJson: string | undefined;
  const openApiDocument = () => {
    document ??= buildOpenApiDocument(app, deps.baseUrl);
    return document;
  };
  app.get(OPENAPI_PATH, (c) => {
    documentJson ??= JSON.stringify(openApiDocument());
    return c.body(documentJson, 200, { "content-type": "application/json" });
  });
  registerPublic(app, openApiDocument);
  registerHealth(app, { lifecycle });
  registerMetrics(app, { metrics: deps.metrics, token: deps.metricsToken });
  registerPages(app);

  app.notFound((c) => {
    const canonical = withoutTrailingSlash(c);
    if (canonical && allowedMethods(app, canonical.pathname).length > 0) {
      return c.redirect(`${canonical.pathname}${canonical.search}`, 308);
    }
    const allowed = allowedMethods(app, c.req.path);
    // Browsers asking for a page get an HTML page; the API and every other client, problem+json.
    if (wantsHtml(c)) {
      return allowed.length > 0
        ? pageNotFound(c, 405, { allow: allowed.join(", ") })
        : pageNotFound(c, 404);
    }
    if (allowed.length > 0) {
      return problem(c, 405, `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`, {
        headers: { allow: allowed.join(", ") },
      });
    }
    return problem(c, 404, `Nothing is at ${c.req.path}.`);
  });
  app.onError((error, c) => {
    const domain = domainErrorOf(error);
    if (domain) {
      if (domain instanceof Unavailable) c.get("logger")?.warn({ err: error }, "unavailable");
      return isSiteRequest(c) ? sitePageError(c, domain) : problemFromDomainError(c, domain);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return problem(c, error.status as 400, error.message || "The request could not be read.");
    }
    c.get("logger")?.error({ err: error }, "unhandled error");
    return problem(
      c,
      500,
      `Something went wrong on our side; quote request id ${c.get("requestId")}.`,
    );
  });
  return app;
}

/**
 * The URL without its trailing slash(es) when it has some (`/es/` → `/es`); null for `/` and
 * for a path that would become protocol-relative (`//host/`), which is never redirected.
 */
function withoutTrailingSlash(c: Context<AppEnv>): URL | null {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return null;
  const url = new URL(c.req.url);
  if (url.pathname.length < 2 || !url.pathname.endsWith("/")) return null;
  const pathname = url.pathname.replace(/\/+$/, "");
  if (pathname === "" || pathname.startsWith("//")) return null;
  url.pathname = pathname;
  return url;
}

async function requireJson(c: Context<AppEnv>, next: () => Promise<void>) {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return problem(c, 415, "Send the body as application/json.", {
      errors: [{ in: "header", name: "content-type", message: "must be application/json" }],
    });
  }
  return next();
}

function tooLarge(c: Context<AppEnv>) {
  return problem(c, 413, `The body is over ${MAX_BODY_BYTES / 1024} KiB.`);
}

const routeMatchers = new WeakMap<object, { method: string; pattern: RegExp }[]>();

/** Methods registered for a path, for 405 + Allow. */
function allowedMethods(app: OpenAPIHono<AppEnv>, path: string): string[] {
  let matchers = routeMatchers.get(app);
  if (!matchers) {
    matchers = app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(`^${r.path.replace(/[.]/g, "\\.").replace(/:[^/]+/g, "[^/]+")}$`),
      }));
    routeMatchers.set(app, matchers);
  }
  const methods = new Set(matchers.filter((m) => m.pattern.test(path)).map((m) => m.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
