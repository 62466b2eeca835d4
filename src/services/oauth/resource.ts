/** @module The one protected resource OAuth tokens are issued for: this server's `/mcp`. */
import type { ServiceContext } from "../context.ts";
import { OAuthRefusal } from "./errors.ts";

export function mcpResourceOf(ctx: ServiceContext): string {
  return `${new URL(ctx.settings.baseUrl).origin}/mcp`;
}

/**
 * RFC 8707: a client names the resource it wants a token for. Only `/mcp` is served; a
 * client that names nothing (older MCP clients) gets a token for `/mcp` all the same.
 */
export function requireMcpResource(ctx: ServiceContext, resource: string | undefined): string {
  const mine = mcpResourceOf(ctx);
  if (resource === undefined || resource === mine) return mine;
  throw new OAuthRefusal(
    "invalid_target",
    `Tokens are issued only for ${mine}, not for ${resource.slice(0, 200)}.`,
  );
}
