/**
 * @module Quire's OAuth 2.1 authorization server for /mcp: RFC 8414 metadata in Hono, and
 * the MCP SDK's Express handlers for /authorize, /token, /register and /revoke.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Hono } from "hono";
import { once } from "../../lazy.ts";
import { domainErrorOf, Unavailable } from "../../services/errors.ts";
import { limitOperation } from "../../services/ratelimit/index.ts";
import type { AppEnv } from "../env.ts";
import { publicCors } from "../middleware/cors.ts";
import { problem } from "../problem.ts";
import { temporarilyUnavailable } from "./unavailable.ts";

const AUTHORIZATION_SERVER_PATH = "/.well-known/oauth-authorization-server";

const ENDPOINTS = ["/authorize", "/token", "/register", "/revoke"] as const;

/**
 * The issuer: the site's origin. OAuth needs it on https (RFC 8414 §2), or on a loopback
 * host for development and tests, as the SDK checks; on any other http origin Quire runs no
 * authorization server and `/mcp` takes agent keys only.
 */
function issuerOf(baseUrl: string): URL | null {
  const url = new URL(new URL(baseUrl).origin);
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  return url.protocol === "https:" || loopback ? url : null;
}

/** Mounts the authorization server; returns the issuer to name in the resource metadata. */
export function registerAuthorizationServer(
  app: Hono<AppEnv>,
  options: { baseUrl: string; clientMetadataDocuments: boolean },
): string[] {
  const issuer = issuerOf(options.baseUrl);
  if (!issuer) return [];
  // Express and the SDK's router load with the first request that needs them.
  const loadSdk = once(() => import("./sdk-handlers.ts"));
  const metadata = once(async () =>
    JSON.stringify((await loadSdk()).metadataOf(issuer, options.clientMetadataDocuments)),
  );
  app.use(AUTHORIZATION_SERVER_PATH, publicCors({ allowMethods: ["GET", "HEAD", "OPTIONS"] }));
  app.get(AUTHORIZATION_SERVER_PATH, async (c) =>
    c.body(await metadata(), 200, {
      "content-type": "application/json",
      "cache-control": "public, max-age=3600",
    }),
  );

  const handlers = once(async () => (await loadSdk()).sdkHandlers(issuer, options.baseUrl));
  for (const path of ENDPOINTS) {
    app.all(path, async (c) => {
      const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
      if (!env?.incoming || !env.outgoing) {
        return problem(c, 501, "The authorization server answers only over Quire's HTTP server.");
      }
      const ctx = c.get("ctx");
      // Registration, authorization and token requests cost a read from the client's address.
      try {
        await limitOperation(ctx, "read", { ip: c.get("clientIp") });
      } catch (error) {
        const domain = domainErrorOf(error);
        if (!(domain instanceof Unavailable)) throw error;
        c.get("logger").warn({ err: error }, "oauth request unavailable");
        const answer = temporarilyUnavailable(domain);
        return c.json(answer.body, answer.status, answer.headers);
      }
      await (await handlers())(ctx, c.get("requestId"), env.incoming, env.outgoing);
      // Express wrote the response itself: its status is what the log line and metrics count.
      c.set("sentStatus", env.outgoing.statusCode);
      return RESPONSE_ALREADY_SENT;
    });
  }
  return [issuer.href];
}
