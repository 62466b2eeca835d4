/** @module One-time email tokens (verification, password reset): stored hashed, single use, expiring. */
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, emailTokens, owners } from "../../db/schema/index.ts";
import { hashToken, isTokenShaped, newToken } from "./tokens.ts";

export type EmailTokenPurpose = "verify_email" | "reset_password";

/** Verification links last 48 hours; reset links one hour. */
const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 48 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

/** Mints a token for an owner and stores its hash; the token itself goes only into the mail. */
export async function issueEmailToken(
  db: Db,
  ownerId: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<string> {
  const token = newToken();
  await db.insert(emailTokens).values({
    tokenHash: hashToken(token),
    ownerId,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[purpose]),
  });
  return token;
}

/**
 * Uses a token: one UPDATE that only matches an unused, unexpired token of this purpose, so
 * two concurrent uses cannot both succeed. Returns the owner id, or null. The lookup is by
 * the token's SHA-256 through the primary key, so its timing says nothing about the token.
 */
export async function consumeEmailToken(
  db: Db,
  token: unknown,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<string | null> {
  if (!isTokenShaped(token)) return null;
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning({ ownerId: emailTokens.ownerId });
  if (!row) return null;
  // The other links of the same purpose die with this one.
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.ownerId, row.ownerId),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
      ),
    );
  return row.ownerId;
}

/**
 * Marks an owner's email verified and moves their unverified agents to verified
 * (docs/contract/DECISIONS.md: an agent is verified when its owner is). Suspended agents stay
 * suspended. Run inside the caller's transaction.
 */
export async function markOwnerVerified(db: Db, ownerId: string, now: Date) {
  const [owner] = await db
    .update(owners)
    .set({
      emailVerifiedAt: sql`coalesce(${owners.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(owners.id, ownerId))
    .returning();
  if (!owner) return null;
  await db
    .update(agents)
    .set({ status: "verified", updatedAt: now })
    .where(and(eq(agents.ownerId, ownerId), eq(agents.status, "unverified")));
  return owner;
}
