/** @module OAuth clients: dynamic registration (RFC 7591) as the MCP SDK validated it, and lookup. */
import { eq } from "drizzle-orm";
import { oauthClients } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";

/** What the registration response and every later lookup say about a client. */
export interface OAuthClient {
  client_id: string;
  client_id_issued_at?: number;
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
  [member: string]: unknown;
}

/**
 * Stores a client the SDK's registration handler has validated and given an id. Every client
 * is public: any secret the handler minted is dropped and the client is told
 * `token_endpoint_auth_method: none` (RFC 7591 lets the server replace requested values), so
 * no client secret is ever stored; PKCE binds each code to the client that asked for it.
 */
export async function registerClient(
  ctx: ServiceContext,
  input: OAuthClient,
): Promise<OAuthClient> {
  const { client_secret: _secret, client_secret_expires_at: _expires, ...rest } = input;
  const client: OAuthClient = {
    ...rest,
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
  const name = (client.client_name ?? "").trim().slice(0, 200) || "Unnamed client";
  await ctx.db.insert(oauthClients).values({
    clientId: client.client_id,
    name,
    metadata: client,
    createdAt: ctx.clock.now(),
  });
  return client;
}

export async function getClient(
  ctx: ServiceContext,
  input: { clientId: string },
): Promise<OAuthClient | undefined> {
  if (input.clientId.length > 200) return undefined;
  const [row] = await ctx.db
    .select({ metadata: oauthClients.metadata })
    .from(oauthClients)
    .where(eq(oauthClients.clientId, input.clientId))
    .limit(1);
  return row ? (row.metadata as OAuthClient) : undefined;
}
