/** @module RFC 9728 protected resource metadata for /mcp, and the 401 challenge that points to it. */
import type { Hono } from "hono";
import type { Unauthorized } from "../../services/errors.ts";
import { requestOrigin } from "../../services/oauth/index.ts";
import type { AppEnv } from "../env.ts";
import { publicCors } from "../middleware/cors.ts";

const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** The protected resource: the one URL OAuth access tokens are issued for (RFC 8707). */
export function mcpResource(baseUrl: string): string {
  return `${new URL(baseUrl).origin}/mcp`;
}

/** Where a client finds the metadata of `/mcp`: the path-suffixed form of RFC 9728 §3.1. */
function resourceMetadataUrl(baseUrl: string): string {
  return `${new URL(baseUrl).origin}${PROTECTED_RESOURCE_PATH}/mcp`;
}

/**
 * The metadata document. Both the path-suffixed URL and the bare one answer it with
 * `resource` set to `/mcp`, the only protected resource here: MCP clients try the suffixed
 * form first and fall back to the bare one (MCP authorization, 2025-11-25), and accept a
 * `resource` that is a prefix of, or equal to, the server URL. `authorizationServers` is
 * empty when Quire runs no authorization server (see `issuerOf`); the member is then left
 * out, as RFC 9728 allows.
 */
function protectedResourceMetadata(baseUrl: string, authorizationServers: string[]) {
  const origin = new URL(baseUrl).origin;
  return {
    resource: mcpResource(baseUrl),
    ...(authorizationServers.length > 0
      ? { authorization_servers: authorizationServers, scopes_supported: ["agent"] }
      : {}),
    bearer_methods_supported: ["header"],
    resource_name: "Quire",
    resource_documentation: `${origin}/llms.txt`,
  };
}

/**
 * Serves the metadata. With a loopback BASE_URL it names the origin the client used (MCP
 * clients require `resource` to match the URL they were given, and `localhost`, `127.0.0.1`
 * and `[::1]` are one server there); otherwise BASE_URL's, whatever Host says.
 */
export function registerProtectedResource(
  app: Hono<AppEnv>,
  options: { baseUrl: string; authorizationServers: string[] },
): void {
  const bodies = new Map<string, string>();
  const bodyFor = (origin: string) => {
    let body = bodies.get(origin);
    if (body === undefined) {
      body = JSON.stringify(protectedResourceMetadata(origin, options.authorizationServers));
      bodies.set(origin, body);
    }
    return body;
  };
  for (const path of [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/mcp`]) {
    // Browser-based MCP clients read it cross-origin; it is public and carries no credentials.
    app.use(path, publicCors({ allowMethods: ["GET", "HEAD", "OPTIONS"], maxAge: 86_400 }));
    app.get(path, (c) =>
      c.body(bodyFor(requestOrigin(options.baseUrl, c.req.header("host"))), 200, {
        "content-type": "application/json",
        "cache-control": "public, max-age=3600",
      }),
    );
  }
}

/**
 * RFC 6750 §3 allows only printable ASCII without `"` and `\` in `error_description`; Quire's
 * messages are English sentences that may hold an ellipsis or quotes, so they are folded.
 */
function descriptionOf(message: string): string {
  return message
    .replaceAll("…", "...")
    .replaceAll('"', "'")
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "");
}

/**
 * The `WWW-Authenticate` value of a 401 from `/mcp`: the RFC 6750 error code when there is
 * one, the real problem in `error_description` (clients show it, so a wrong key reads as
 * Quire's own message, not as a failed OAuth discovery), and `resource_metadata` (RFC 9728
 * §5.1) so OAuth-capable clients can find the authorization server. `scope` (MCP
 * authorization, scope selection) names what to ask for when the request had no credentials.
 */
export function mcpChallenge(
  baseUrl: string,
  error?: Unauthorized,
  options: { scope?: string } = {},
): string {
  const parts = ['Bearer realm="quire"'];
  if (error?.challenge) parts.push(`error="${error.challenge}"`);
  if (error?.challenge) parts.push(`error_description="${descriptionOf(error.message)}"`);
  parts.push(`resource_metadata="${resourceMetadataUrl(baseUrl)}"`);
  if (options.scope) parts.push(`scope="${options.scope}"`);
  return parts.join(", ");
}
