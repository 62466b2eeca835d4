/** @module The human step of an authorization: hold the request, show it, approve or deny it. */
import { randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { oauthClients, oauthGrants, oauthRequests } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import { hashKey, lockOwnedAgent } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { OAuthClient } from "./clients.ts";
import { requireMcpResource } from "./resource.ts";
import { assertStorableAuthorization } from "./schemas.ts";
import { AGENT_SCOPE, after, LIFETIMES, mintSecret } from "./secrets.ts";

export interface AuthorizationParams {
  state?: string | undefined;
  scopes?: string[] | undefined;
  codeChallenge: string;
  redirectUri: string;
  resource?: string | undefined;
}

/**
 * Keeps a request the protocol library has already checked (known client, registered
 * redirect URI, S256 challenge) until the owner decides, and returns its id for the consent
 * page's URL. `state` and the challenge are bounded (`assertStorableAuthorization`). The
 * resource must be this server's `/mcp` (RFC 8707). Whatever scopes the
 * client asks for, it is offered the one scope there is: acting as the agent chosen.
 */
export async function createAuthorizationRequest(
  ctx: ServiceContext,
  input: { client: OAuthClient; params: AuthorizationParams },
): Promise<{ requestId: string }> {
  assertStorableAuthorization(input.params);
  const resource = requireMcpResource(ctx, input.params.resource);
  const now = ctx.clock.now();
  const requestId = `oar_${randomBytes(24).toString("base64url")}`;
  await ctx.db.insert(oauthRequests).values({
    id: requestId,
    clientId: input.client.client_id,
    redirectUri: input.params.redirectUri,
    codeChallenge: input.params.codeChallenge,
    state: input.params.state ?? null,
    scope: AGENT_SCOPE,
    resource,
    createdAt: now,
    expiresAt: after(now, LIFETIMES.requestSeconds),
  });
  return { requestId };
}

export interface PendingAuthorization {
  requestId: string;
  clientName: string;
  redirectUri: string;
  redirectHost: string;
  /** For a client identified by its metadata document: the host that serves it. */
  clientIdHost: string | null;
  scope: string;
}

/** A pending request, for the consent page; expired or unknown ones are NotFound. */
export async function getAuthorizationRequest(
  ctx: ServiceContext,
  input: { requestId: string },
): Promise<PendingAuthorization> {
  if (input.requestId.length > 100) throw new NotFound("No such authorization request.");
  const [row] = await ctx.db
    .select({
      id: oauthRequests.id,
      clientId: oauthRequests.clientId,
      redirectUri: oauthRequests.redirectUri,
      scope: oauthRequests.scope,
      clientName: oauthClients.name,
    })
    .from(oauthRequests)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthRequests.clientId))
    .where(and(eq(oauthRequests.id, input.requestId), gt(oauthRequests.expiresAt, ctx.clock.now())))
    .limit(1);
  if (!row) {
    throw new NotFound(
      "This authorization request is unknown or has expired; start again from the app.",
    );
  }
  return {
    requestId: row.id,
    clientName: row.clientName,
    redirectUri: row.redirectUri,
    redirectHost: new URL(row.redirectUri).host,
    clientIdHost: URL.canParse(row.clientId) ? new URL(row.clientId).host : null,
    scope: row.scope,
  };
}

/**
 * The owner's answer. Approving binds the grant to one of the caller's own agents (the owner
 * comes from the session, never from input: another owner's agent is NotFound) that is not
 * suspended (a suspended agent gets no new tokens, by consent or by refresh), and returns
 * the redirect carrying a one-time code, kept only as its SHA-256. Either answer consumes the
 * request, so a consent form cannot be replayed.
 */
export async function decideAuthorization(
  ctx: ServiceContext,
  input: { requestId: string; approve: boolean; agentId?: string | undefined },
): Promise<{ redirectTo: string }> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Only a signed-in owner approves an app.");
  const caller = ctx.caller;
  return withTransaction(ctx.db, async (tx) => {
    const now = ctx.clock.now();
    const [request] = await tx
      .delete(oauthRequests)
      .where(and(eq(oauthRequests.id, input.requestId), gt(oauthRequests.expiresAt, now)))
      .returning();
    if (!request) {
      throw new NotFound(
        "This authorization request is unknown or has expired; start again from the app.",
      );
    }
    const target = new URL(request.redirectUri);
    if (request.state !== null) target.searchParams.set("state", request.state);
    if (!input.approve) {
      target.searchParams.set("error", "access_denied");
      target.searchParams.set("error_description", "The owner did not approve the app.");
      return { redirectTo: target.href };
    }
    const agent = await lockOwnedAgent(tx, caller, input.agentId ?? "");
    if (agent.status === "suspended") {
      throw new Forbidden(
        "This agent is suspended by a moderator and cannot be connected to an app; choose another.",
      );
    }
    const code = mintSecret(ctx.settings.keyPrefix, "code");
    await tx.insert(oauthGrants).values({
      id: newId("ogr", now),
      clientId: request.clientId,
      agentId: agent.id,
      ownerId: caller.ownerId,
      resource: request.resource,
      scope: request.scope,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeHash: hashKey(code),
      codeExpiresAt: after(now, LIFETIMES.codeSeconds),
      createdAt: now,
    });
    target.searchParams.set("code", code);
    return { redirectTo: target.href };
  });
}
