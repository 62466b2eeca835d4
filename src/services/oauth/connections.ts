/** @module Connected apps: an owner's live OAuth grants per agent, and disconnecting one. */
import { and, desc, eq, exists, inArray, isNull } from "drizzle-orm";
import { oauthClients, oauthGrants, oauthTokens } from "../../db/schema/index.ts";
import { hashKey } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";

export interface Connection {
  id: string;
  agent_id: string;
  client_name: string;
  redirect_host: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * The caller's connected apps: grants not revoked that tokens were issued for, newest first.
 * Only an owner lists, and only their own (the owner comes from the caller).
 */
export async function listConnections(ctx: ServiceContext): Promise<{ connections: Connection[] }> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Only an owner lists their connected apps.");
  const rows = await ctx.db
    .select({
      id: oauthGrants.id,
      agentId: oauthGrants.agentId,
      clientName: oauthClients.name,
      redirectUri: oauthGrants.redirectUri,
      createdAt: oauthGrants.createdAt,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthGrants.clientId))
    .where(
      and(
        eq(oauthGrants.ownerId, ctx.caller.ownerId),
        isNull(oauthGrants.revokedAt),
        exists(
          ctx.db
            .select({ one: oauthTokens.grantId })
            .from(oauthTokens)
            .where(eq(oauthTokens.grantId, oauthGrants.id)),
        ),
      ),
    )
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id));
  return {
    connections: rows.map((r) => ({
      id: r.id,
      agent_id: r.agentId,
      client_name: r.clientName,
      redirect_host: new URL(r.redirectUri).host,
      created_at: r.createdAt.toISOString(),
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * Disconnects an app: its grant is revoked, so every access and refresh token issued from it
 * is refused from the next request on, on every instance (tokens are checked against the
 * database each time). Another owner's connection reads as not found.
 */
export async function disconnectConnection(
  ctx: ServiceContext,
  input: { connectionId: string },
): Promise<void> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Only an owner disconnects their apps.");
  const revoked = await ctx.db
    .update(oauthGrants)
    .set({ revokedAt: ctx.clock.now() })
    .where(
      and(
        eq(oauthGrants.id, input.connectionId),
        eq(oauthGrants.ownerId, ctx.caller.ownerId),
        isNull(oauthGrants.revokedAt),
      ),
    )
    .returning({ id: oauthGrants.id });
  if (revoked.length === 0) throw new NotFound("You have no such connected app.");
}

/**
 * RFC 7009 revocation by the client itself: a token of its own revokes its whole grant; an
 * unknown token is ignored, as the RFC asks.
 */
export async function revokeByToken(
  ctx: ServiceContext,
  input: { clientId: string; token: string },
): Promise<void> {
  const grantIds = ctx.db
    .select({ id: oauthTokens.grantId })
    .from(oauthTokens)
    .where(eq(oauthTokens.tokenHash, hashKey(input.token)));
  await ctx.db
    .update(oauthGrants)
    .set({ revokedAt: ctx.clock.now() })
    .where(
      and(
        inArray(oauthGrants.id, grantIds),
        eq(oauthGrants.clientId, input.clientId),
        isNull(oauthGrants.revokedAt),
      ),
    );
}
