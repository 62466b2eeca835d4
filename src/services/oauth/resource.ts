/**
 * @module The one protected resource OAuth tokens are issued for: this server's `/mcp`. With a
 * loopback BASE_URL (the default, http://localhost:$PORT), its loopback names are one server:
 * `localhost`, `127.0.0.1` and `[::1]` on the same port name the same resource.
 */
import type { ServiceContext } from "../context.ts";
import { OAuthRefusal } from "./errors.ts";

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/**
 * The origins this server answers as: BASE_URL's, and when that is a loopback URL, the same
 * scheme and port under each loopback name. A non-loopback BASE_URL has exactly one.
 */
export function servedOrigins(baseUrl: string): string[] {
  const base = new URL(new URL(baseUrl).origin);
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(base.hostname)) return [base.origin];
  return LOOPBACK_HOSTS.map((host) => {
    const alias = new URL(base.href);
    alias.hostname = host;
    return alias.origin;
  });
}

/**
 * The origin a client reached the server at, for the documents that must name it exactly
 * (RFC 9728 `resource`, the 401's `resource_metadata`): the request's Host when it is one of
 * `servedOrigins` (so only loopback aliases, never a name an outside client chose), otherwise
 * BASE_URL's origin.
 */
export function requestOrigin(baseUrl: string, host: string | undefined): string {
  const base = new URL(baseUrl);
  if (host !== undefined && URL.canParse(`${base.protocol}//${host}`)) {
    const origin = new URL(`${base.protocol}//${host}`).origin;
    if (servedOrigins(baseUrl).includes(origin)) return origin;
  }
  return base.origin;
}

function mcpResourceOf(ctx: ServiceContext): string {
  return `${new URL(ctx.settings.baseUrl).origin}/mcp`;
}

/** Whether `resource` names this server's `/mcp`, under any of its `servedOrigins`. */
export function isMcpResource(ctx: ServiceContext, resource: string): boolean {
  return servedOrigins(ctx.settings.baseUrl).some((origin) => `${origin}/mcp` === resource);
}

/**
 * RFC 8707: a client names the resource it wants a token for. Only `/mcp` is served (under any
 * loopback name of a loopback BASE_URL: the one named is kept, so the token's audience is what
 * the client asked for); a client that names nothing (older MCP clients) gets `/mcp` as
 * BASE_URL names it.
 */
export function requireMcpResource(ctx: ServiceContext, resource: string | undefined): string {
  if (resource === undefined) return mcpResourceOf(ctx);
  if (isMcpResource(ctx, resource)) return resource;
  throw new OAuthRefusal(
    "invalid_target",
    `Tokens are issued only for ${mcpResourceOf(ctx)}, not for ${resource.slice(0, 200)}.`,
  );
}
