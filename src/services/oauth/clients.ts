/**
 * @module OAuth clients: dynamic registration (RFC 7591) as the MCP SDK validated it, Client ID
 * Metadata Documents, and lookup.
 */
import { eq } from "drizzle-orm";
import { oauthClients } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { clientFromMetadataDocument, isClientMetadataUrl } from "./client-metadata.ts";
import { assertStorableClientMetadata } from "./schemas.ts";

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
 * Every client is public, however it registered: a secret is dropped, the client is told
 * `token_endpoint_auth_method: none` (RFC 7591 lets the server replace requested values), so
 * no client secret is ever stored; PKCE binds each code to the client that asked for it.
 */
function publicClient(input: OAuthClient): OAuthClient {
  const { client_secret: _secret, client_secret_expires_at: _expires, ...rest } = input;
  return {
    ...rest,
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}

const nameOf = (client: OAuthClient) =>
  (client.client_name ?? "").trim().slice(0, 200) || "Unnamed client";

/**
 * Stores a client the SDK's registration handler has validated and given an id, once its
 * metadata is within Quire's bounds (`OAUTH_INPUT_LIMITS`) and its redirect URIs are https or
 * loopback: anonymous requests register clients, so nothing unbounded is stored.
 */
export async function registerClient(
  ctx: ServiceContext,
  input: OAuthClient,
): Promise<OAuthClient> {
  const client = publicClient(input);
  assertStorableClientMetadata(client);
  await ctx.db.insert(oauthClients).values({
    clientId: client.client_id,
    name: nameOf(client),
    metadata: client,
    createdAt: ctx.clock.now(),
  });
  return client;
}

/**
 * A client by id. An https `client_id` is a Client ID Metadata Document when the server takes
 * them (`ctx.clientMetadata`): its document is fetched and validated (cached per instance),
 * and the client's row is written with each fresh copy, so consent, grants and connected apps
 * name it as they name a registered client. A document that cannot be used is `invalid_client`.
 */
export async function getClient(
  ctx: ServiceContext,
  input: { clientId: string },
): Promise<OAuthClient | undefined> {
  const documents = ctx.clientMetadata;
  if (documents && isClientMetadataUrl(input.clientId, documents.policy)) {
    const found = await clientFromMetadataDocument(ctx, documents, input.clientId, (fetched) => {
      const client = publicClient(fetched);
      return ctx.db
        .insert(oauthClients)
        .values({
          clientId: client.client_id,
          name: nameOf(client),
          metadata: client,
          createdAt: ctx.clock.now(),
        })
        .onConflictDoUpdate({
          target: oauthClients.clientId,
          set: { name: nameOf(client), metadata: client },
        })
        .then(() => undefined);
    });
    return publicClient(found.client);
  }
  if (input.clientId.length > 200) return undefined;
  const [row] = await ctx.db
    .select({ metadata: oauthClients.metadata })
    .from(oauthClients)
    .where(eq(oauthClients.clientId, input.clientId))
    .limit(1);
  return row ? (row.metadata as OAuthClient) : undefined;
}
