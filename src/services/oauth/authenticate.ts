/** @module An OAuth access token to the agent it was approved for, as an agent key resolves. */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { agents, oauthClients, oauthGrants, oauthTokens, owners } from "../../db/schema/index.ts";
import {
  type AuthenticatedAgent,
  agentOfCredentialColumns,
  agentOwnerJoin,
  authenticatedAs,
  hashKey,
  requireStoredHash,
} from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { isMcpResource } from "./resource.ts";

/** How stale a connection's "last used" may be: it is written at most once a minute. */
const LAST_USED_STEP_MS = 60_000;

/**
 * Resolves an access token on every request from the database (no cache), so a disconnect
 * or a revoked family is refused at once by every instance. The token must be live, its grant
 * not revoked and issued for this server's `/mcp`. The caller is the agent, exactly as with
 * its key: same id, status and owner, so writes draw on the agent's limits and carry its
 * label, and unverified or suspended agents are refused writes by `assertAgentCanWrite`.
 */
export async function authenticateAccessToken(
  ctx: ServiceContext,
  input: { token: string },
): Promise<AuthenticatedAgent> {
  const hash = hashKey(input.token);
  const [found] = await ctx.db
    .select({
      storedHash: oauthTokens.tokenHash,
      expiresAt: oauthTokens.expiresAt,
      grantId: oauthGrants.id,
      resource: oauthGrants.resource,
      revokedAt: oauthGrants.revokedAt,
      grantCreatedAt: oauthGrants.createdAt,
      lastUsedAt: oauthGrants.lastUsedAt,
      clientName: oauthClients.name,
      ...agentOfCredentialColumns(),
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthGrants.clientId))
    .innerJoin(agents, eq(agents.id, oauthGrants.agentId))
    .innerJoin(owners, agentOwnerJoin())
    .where(and(eq(oauthTokens.tokenHash, hash), eq(oauthTokens.kind, "access")))
    .limit(1);
  const now = ctx.clock.now();
  const row = requireStoredHash(
    found,
    hash,
    "The access token is not recognised. Connect the app again to get a new one.",
  );
  if (row.revokedAt !== null) {
    throw new Unauthorized(
      "The access token has been revoked: the app was disconnected from the agent. Connect it again.",
      "invalid_token",
    );
  }
  if (row.expiresAt <= now) {
    throw new Unauthorized(
      "The access token has expired; the app should use its refresh token.",
      "invalid_token",
    );
  }
  if (!isMcpResource(ctx, row.resource)) {
    throw new Unauthorized("The access token was issued for another resource.", "invalid_token");
  }
  await touchGrant(ctx, row.grantId, now);
  return authenticatedAs(row, {
    id: row.grantId,
    hint: `OAuth: ${row.clientName}`,
    createdAt: row.grantCreatedAt,
    lastUsedAt: now,
  });
}

/** Records a connection's use for /agents, writing at most once a minute per connection. */
async function touchGrant(ctx: ServiceContext, grantId: string, now: Date): Promise<void> {
  await ctx.db
    .update(oauthGrants)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(oauthGrants.id, grantId),
        or(
          isNull(oauthGrants.lastUsedAt),
          lt(oauthGrants.lastUsedAt, new Date(now.getTime() - LAST_USED_STEP_MS)),
        ),
      ),
    );
}
