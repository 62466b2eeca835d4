/** @module signIn: email and password for a site session, throttled per account and per IP. */
import { eq, sql } from "drizzle-orm";
import { owners } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { type FieldIssue, Invalid, RateLimited, Unauthorized } from "../errors.ts";
import { clearLimit, countOperation, operationBlockedFor } from "../ratelimit/index.ts";
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from "./password.ts";
import { createSession, type OwnerSession } from "./session.ts";
import { throttleKeys } from "./throttle.ts";

/** The one message for a wrong email, a wrong password, or an account without a password. */
const SIGN_IN_FAILED = "The email or the password is wrong.";

/**
 * Checks an email and password and starts a session (a fresh token every time, so a token
 * planted before sign-in is worthless after).
 *
 * Failures are counted per account (the submitted email, whether or not it exists) and per
 * IP; over either limit the answer is 429 before any password is checked. Every failure gets
 * the same message, and unknown emails are checked against a dummy hash so that timing does
 * not tell which emails have accounts. A success clears the account's count, not the IP's.
 */
export async function signIn(
  ctx: ServiceContext,
  input: { email: unknown; password: unknown; ip: string },
): Promise<{ token: string; session: OwnerSession }> {
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  const password = typeof input.password === "string" ? input.password : "";
  const issues: FieldIssue[] = [];
  if (!email) issues.push({ in: "body", name: "email", message: "is required" });
  if (!password) issues.push({ in: "body", name: "password", message: "is required" });
  if (issues.length > 0) throw new Invalid("Enter your email and password.", issues);

  const keys = throttleKeys(email, input.ip);
  const wait = await operationBlockedFor(ctx, "sign-in-failure", keys);
  if (wait > 0) {
    ctx.logger.warn({ ip: input.ip }, "sign-in throttled");
    throw new RateLimited("Too many failed sign-ins; try again later.", wait);
  }

  const [owner] = await ctx.db
    .select()
    .from(owners)
    .where(sql`lower(${owners.email}) = ${email}`)
    .limit(1);
  const stored = owner?.passwordHash ?? (await dummyPasswordHash());
  const matches = await verifyPassword(password, stored);
  if (!owner?.passwordHash || !matches) {
    await countOperation(ctx, "sign-in-failure", keys);
    ctx.logger.info({ ip: input.ip }, "sign-in failed");
    throw new Unauthorized(SIGN_IN_FAILED);
  }
  await clearLimit(ctx, "sign-in-account", email);

  const now = ctx.clock.now();
  if (needsRehash(owner.passwordHash)) {
    await ctx.db
      .update(owners)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(owners.id, owner.id));
  }
  const created = await createSession(ctx.db, owner.id, now);
  ctx.logger.info({ owner_id: owner.id }, "owner signed in");
  return {
    token: created.token,
    session: {
      owner: {
        id: owner.id,
        handle: owner.handle,
        email: owner.email,
        role: owner.role,
        verified: owner.emailVerifiedAt !== null,
      },
      csrfSecret: created.csrfSecret,
      expiresAt: created.expiresAt,
    },
  };
}
