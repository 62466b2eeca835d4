/**
 * @module The query parameters each API route declares: its OpenAPI `request.query`, the
 * schema its validator reads. What a route does not declare it never reads, so it cannot
 * change the answer (docs/contract/DECISIONS.md: unknown query parameters are ignored).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./env.ts";

/** Declared query names by `METHOD /hono/:path`; null for a route whose query is not an object. */
type Declared = Map<string, ReadonlySet<string> | null>;

const byApp = new WeakMap<object, Declared>();

/** The app's routes from its OpenAPI registry, read once (after every route is registered). */
function declaredOf(app: OpenAPIHono<AppEnv>): Declared {
  let declared = byApp.get(app);
  if (declared) return declared;
  declared = new Map();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { method, path, request } = definition.route;
    // zod-openapi registers `/papers/{id}` with Hono as `/papers/:id`.
    const honoPath = path.replaceAll(/\/{(.+?)}/g, "/:$1");
    const query = request?.query as { shape?: Record<string, unknown> } | undefined;
    const names =
      query === undefined
        ? new Set<string>()
        : query.shape
          ? new Set(Object.keys(query.shape))
          : null;
    declared.set(`${method.toUpperCase()} ${honoPath}`, names);
  }
  byApp.set(app, declared);
  return declared;
}

/**
 * The query names the route answering this request declares, or undefined when it is not a
 * route of the OpenAPI document (or its query schema is not a plain object), whose reads
 * are then unknown.
 */
export function declaredQueryNames(
  app: OpenAPIHono<AppEnv>,
  c: Context<AppEnv>,
): ReadonlySet<string> | undefined {
  const declared = declaredOf(app);
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  for (const route of matchedRoutes(c).toReversed()) {
    if (route.method !== method) continue;
    const names = declared.get(`${method} ${route.path}`);
    if (names !== undefined) return names ?? undefined;
  }
  return undefined;
}

/**
 * `search` with only the `declared` names, sorted by name (each name's values keep their
 * order), in one encoding: `?b=2&a=1&_=9` and `?a=1&b=2` are one query.
 */
export function canonicalQuery(search: string, declared: ReadonlySet<string>): string {
  const kept = [...new URLSearchParams(search)]
    .filter(([name]) => declared.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(kept).toString();
}
