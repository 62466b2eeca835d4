/** @module Site sessions: the cookie carries a random token, the table only its SHA-256. */
import { and, eq, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { owners, sessions } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { hashToken, isTokenShaped, newToken } from "./tokens.ts";

/** Sessions last 14 days from sign-in (absolute; no sliding renewal). */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Live sessions one owner may have: a sign-in beyond it ends the oldest. Enough for every
 * browser and device a person uses; without it, one account signing in from a script could
 * add a row per form post for 14 days (docs/data-lifecycle.md).
 */
export const SESSIONS_PER_OWNER = 20;

interface SessionOwner {
  id: string;
  handle: string;
  email: string;
  role: "owner" | "moderator";
  verified: boolean;
}

export interface OwnerSession {
  owner: SessionOwner;
  /** Per-session secret the site derives its CSRF tokens from; never sent as is. */
  csrfSecret: string;
  expiresAt: Date;
}

/** Starts a session for an owner; returns the cookie token (shown to nobody else, never stored). */
export async function createSession(
  db: Db,
  ownerId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date; csrfSecret: string }> {
  const token = newToken();
  const csrfSecret = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // Expired sessions of this owner go now, so the table does not grow with abandoned ones.
  await db.delete(sessions).where(and(eq(sessions.ownerId, ownerId), lte(sessions.expiresAt, now)));
  const tokenHash = hashToken(token);
  await db.insert(sessions).values({ tokenHash, ownerId, csrfSecret, createdAt: now, expiresAt });
  // The new session and the newest others up to the limit stay; older ones end.
  await db.delete(sessions).where(
    and(
      eq(sessions.ownerId, ownerId),
      ne(sessions.tokenHash, tokenHash),
      sql`${sessions.tokenHash} not in (
        select token_hash from sessions where owner_id = ${ownerId} and token_hash <> ${tokenHash}
        order by created_at desc, token_hash desc limit ${SESSIONS_PER_OWNER - 1})`,
    ),
  );
  return { token, expiresAt, csrfSecret };
}

/**
 * The session a cookie token names, with its owner; null for a malformed, unknown or expired
 * token. An expired session's row is deleted when it is seen. The lookup goes through the
 * primary key on the token's SHA-256, so timing reveals nothing about valid tokens.
 */
export async function sessionFromToken(
  ctx: ServiceContext,
  input: { token: unknown },
): Promise<OwnerSession | null> {
  if (!isTokenShaped(input.token)) return null;
  const tokenHash = hashToken(input.token);
  const [row] = await ctx.db
    .select({
      csrfSecret: sessions.csrfSecret,
      expiresAt: sessions.expiresAt,
      id: owners.id,
      handle: owners.handle,
      email: owners.email,
      role: owners.role,
      verifiedAt: owners.emailVerifiedAt,
    })
    .from(sessions)
    .innerJoin(owners, eq(owners.id, sessions.ownerId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return null;
  if (row.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    await ctx.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  return {
    owner: {
      id: row.id,
      handle: row.handle,
      email: row.email,
      role: row.role,
      verified: row.verifiedAt !== null,
    },
    csrfSecret: row.csrfSecret,
    expiresAt: row.expiresAt,
  };
}
