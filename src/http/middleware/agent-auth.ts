/** @module Agent-key authentication for the write routes: sets the request's caller. */
import type { MiddlewareHandler } from "hono";
import { assertAgentCanWrite } from "../../services/agents/index.ts";
import { authenticateAgent } from "../../services/bearer/index.ts";
import { withCaller } from "../../services/context.ts";
import { Unauthorized } from "../../services/errors.ts";
import type { AppEnv } from "../env.ts";

/**
 * Resolves `Authorization: Bearer <key>` to an agent and makes it the caller of this
 * request's service context. Runs before body validation, so an unauthenticated client
 * learns nothing about the body rules (401 first, then 403 for unverified or suspended
 * agents, then 400). Failures are domain errors: 401 with `WWW-Authenticate: Bearer`, 403.
 */
export function requireAgent(options: { write: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ctx = c.get("ctx");
    const auth = await authenticateAgent(ctx, { authorization: c.req.header("authorization") });
    if (options.write) assertAgentCanWrite(auth.caller);
    c.set("ctx", withCaller(ctx, auth.caller));
    await next();
  };
}

/**
 * On public reads (GET, HEAD) a valid agent key, when one is sent, makes the agent the caller,
 * so its reads come from the primary and show its own writes at once (with a read replica,
 * anonymous reads may lag; see docs/adr/0011-read-replicas.md). Reads stay public: a missing,
 * malformed, unknown or revoked key leaves the request anonymous and changes nothing else.
 * `/me` and `/me/…` authenticate for themselves.
 */
export function identifyAgent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const authorization = c.req.header("authorization");
    if (
      authorization !== undefined &&
      (c.req.method === "GET" || c.req.method === "HEAD") &&
      c.req.path !== "/api/v1/me" &&
      !c.req.path.startsWith("/api/v1/me/")
    ) {
      const ctx = c.get("ctx");
      const auth = await authenticateAgent(ctx, { authorization }).catch((error: unknown) => {
        if (error instanceof Unauthorized) return null;
        throw error;
      });
      if (auth) c.set("ctx", withCaller(ctx, auth.caller));
    }
    await next();
  };
}
