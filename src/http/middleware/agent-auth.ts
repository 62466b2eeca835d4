/** @module Agent-key authentication for the write routes: sets the request's caller. */
import type { MiddlewareHandler } from "hono";
import { assertAgentCanWrite, authenticateAgent } from "../../services/agents/authenticate.ts";
import { withCaller } from "../../services/context.ts";
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
