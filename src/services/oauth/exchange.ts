/**
 * @module The token endpoint's work: the stored PKCE challenge of a code, codes for tokens,
 * and refresh tokens for new tokens with rotation and reuse detection.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, oauthGrants, oauthTokens } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import { hashKey } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { OAuthRefusal } from "./errors.ts";
import { requireMcpResource } from "./resource.ts";
import { after, LIFETIMES, mintSecret } from "./secrets.ts";

export interface IssuedTokens {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const BAD_CODE = "The authorization code is unknown, expired, already used or not this client's.";

/**
 * The S256 challenge stored with a code, for the library's PKCE check. An unknown code, or
 * one of another client, reads as invalid_grant, so a code cannot be probed across clients.
 */
export async function challengeForCode(
  ctx: ServiceContext,
  input: { clientId: string; code: string },
): Promise<string> {
  const [grant] = await ctx.db
    .select({ clientId: oauthGrants.clientId, challenge: oauthGrants.codeChallenge })
    .from(oauthGrants)
    .where(eq(oauthGrants.codeHash, hashKey(input.code)))
    .limit(1);
  if (!grant || grant.clientId !== input.clientId)
    throw new OAuthRefusal("invalid_grant", BAD_CODE);
  return grant.challenge;
}

/**
 * Exchanges a code whose verifier the library has checked. A code is good once, for a minute,
 * for the client and redirect URI it was issued to; presenting it a second time revokes every
 * token issued from it (RFC 6749 §4.1.2: the code may have been stolen). An agent suspended
 * between consent and exchange gets no tokens, as with a refresh.
 */
export async function exchangeCode(
  ctx: ServiceContext,
  input: {
    clientId: string;
    code: string;
    redirectUri?: string | undefined;
    resource?: string | undefined;
  },
): Promise<IssuedTokens> {
  const now = ctx.clock.now();
  const result = await withTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .select({ grant: oauthGrants, agentStatus: agents.status })
      .from(oauthGrants)
      .innerJoin(agents, eq(agents.id, oauthGrants.agentId))
      .where(eq(oauthGrants.codeHash, hashKey(input.code)))
      .for("update");
    const grant = row?.grant;
    if (!row || !grant || grant.clientId !== input.clientId) return { refusal: BAD_CODE };
    if (grant.codeUsedAt !== null) {
      await tx
        .update(oauthGrants)
        .set({ revokedAt: now })
        .where(and(eq(oauthGrants.id, grant.id), isNull(oauthGrants.revokedAt)));
      return { refusal: `${BAD_CODE} The tokens issued from it are revoked.` };
    }
    if (grant.revokedAt !== null || grant.codeExpiresAt <= now) return { refusal: BAD_CODE };
    if (row.agentStatus === "suspended") {
      return {
        refusal: "The agent is suspended by a moderator; its connections get no new tokens.",
      };
    }
    if (input.redirectUri !== undefined && input.redirectUri !== grant.redirectUri) {
      return { refusal: "redirect_uri differs from the one the code was issued for." };
    }
    if (
      input.resource !== undefined &&
      requireMcpResource(ctx, input.resource) !== grant.resource
    ) {
      return { refusal: "The code was issued for another resource." };
    }
    await tx.update(oauthGrants).set({ codeUsedAt: now }).where(eq(oauthGrants.id, grant.id));
    return { tokens: await issueTokens(tx, ctx, grant.id, grant.scope, now) };
  });
  if (!result.tokens) throw new OAuthRefusal("invalid_grant", result.refusal ?? BAD_CODE);
  return result.tokens;
}

/**
 * Rotation: each refresh token is used once and answered with a new pair. A refresh token
 * presented again after its use means two parties hold it, so the whole family (the grant)
 * is revoked, the legitimate client included, and the owner has to approve again. A revoked
 * grant, or one whose agent is suspended, gets no new tokens.
 */
export async function exchangeRefreshToken(
  ctx: ServiceContext,
  input: { clientId: string; refreshToken: string; resource?: string | undefined },
): Promise<IssuedTokens> {
  const now = ctx.clock.now();
  const result = await withTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .select({ token: oauthTokens, grant: oauthGrants, agentStatus: agents.status })
      .from(oauthTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
      .innerJoin(agents, eq(agents.id, oauthGrants.agentId))
      .where(
        and(
          eq(oauthTokens.tokenHash, hashKey(input.refreshToken)),
          eq(oauthTokens.kind, "refresh"),
        ),
      )
      .for("update");
    const bad = "The refresh token is unknown, expired or revoked; authorize the app again.";
    if (!row || row.grant.clientId !== input.clientId) return { refusal: bad };
    if (row.token.usedAt !== null) {
      await tx
        .update(oauthGrants)
        .set({ revokedAt: now })
        .where(and(eq(oauthGrants.id, row.grant.id), isNull(oauthGrants.revokedAt)));
      return {
        refusal:
          "The refresh token was already used: every token of this connection is revoked; authorize the app again.",
      };
    }
    if (row.grant.revokedAt !== null || row.token.expiresAt <= now) return { refusal: bad };
    if (row.agentStatus === "suspended") {
      return {
        refusal: "The agent is suspended by a moderator; its connections get no new tokens.",
      };
    }
    if (
      input.resource !== undefined &&
      requireMcpResource(ctx, input.resource) !== row.grant.resource
    ) {
      return { refusal: "The refresh token was issued for another resource." };
    }
    await tx
      .update(oauthTokens)
      .set({ usedAt: now })
      .where(eq(oauthTokens.tokenHash, row.token.tokenHash));
    return { tokens: await issueTokens(tx, ctx, row.grant.id, row.grant.scope, now) };
  });
  if (!result.tokens) throw new OAuthRefusal("invalid_grant", result.refusal ?? BAD_CODE);
  return result.tokens;
}

async function issueTokens(
  tx: Db,
  ctx: ServiceContext,
  grantId: string,
  scope: string,
  now: Date,
): Promise<IssuedTokens> {
  const access = mintSecret(ctx.settings.keyPrefix, "access");
  const refresh = mintSecret(ctx.settings.keyPrefix, "refresh");
  await tx.insert(oauthTokens).values([
    {
      tokenHash: hashKey(access),
      grantId,
      kind: "access",
      createdAt: now,
      expiresAt: after(now, LIFETIMES.accessSeconds),
    },
    {
      tokenHash: hashKey(refresh),
      grantId,
      kind: "refresh",
      createdAt: now,
      expiresAt: after(now, LIFETIMES.refreshSeconds),
    },
  ]);
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: LIFETIMES.accessSeconds,
    refresh_token: refresh,
    scope,
  };
}
