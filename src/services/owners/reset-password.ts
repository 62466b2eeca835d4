/** @module requestPasswordReset and resetPassword: a new password through an email link. */
import { eq, sql } from "drizzle-orm";
import { owners, sessions } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid, RateLimited } from "../errors.ts";
import { countOperation, operationBlockedFor } from "../ratelimit/index.ts";
import { EmailSchema } from "./create.ts";
import { consumeEmailToken, issueEmailToken, markOwnerVerified } from "./email-tokens.ts";
import type { Locale } from "./mail-text.ts";
import { sendAccountMail, siteLink } from "./mailer.ts";
import { hashPassword, passwordProblem } from "./password.ts";
import { throttleKeys } from "./throttle.ts";
import { LINK_INVALID } from "./verify-email.ts";

/**
 * Mails a reset link (one hour, single use) when the email has an account, and answers the
 * same when it has none, so the form cannot be used to find out who has an account.
 * Requests are throttled per address and per IP whether or not the address exists.
 */
export async function requestPasswordReset(
  ctx: ServiceContext,
  input: { email: unknown; lang: Locale; ip: string },
): Promise<{ outcome: "check_email" }> {
  const parsed = EmailSchema.safeParse(typeof input.email === "string" ? input.email : "");
  if (!parsed.success) {
    throw new Invalid("Enter the email of your account.", [
      { in: "body", name: "email", message: "must be an email address" },
    ]);
  }
  const email = parsed.data;
  const keys = throttleKeys(email, input.ip);
  const wait = await operationBlockedFor(ctx, "mail", keys);
  if (wait > 0) throw new RateLimited("Too many emails were asked for; try again later.", wait);
  await countOperation(ctx, "mail", keys);
  const [owner] = await ctx.db
    .select()
    .from(owners)
    .where(sql`lower(${owners.email}) = ${email}`)
    .limit(1);
  if (owner) {
    const token = await issueEmailToken(ctx.db, owner.id, "reset_password", ctx.clock.now());
    void sendAccountMail(ctx, {
      to: owner.email,
      handle: owner.handle,
      lang: input.lang,
      purpose: "reset_password",
      link: siteLink(ctx, input.lang, "/reset-password", token),
    });
  }
  return { outcome: "check_email" };
}

/**
 * Sets a new password with a reset link. The password is checked before the token is used,
 * so a too-short password does not burn the link. Every session of the owner ends (whoever
 * else was signed in is signed out), and since the link proves control of the mailbox, an
 * unverified email becomes verified.
 */
export async function resetPassword(
  ctx: ServiceContext,
  input: { token: unknown; password: unknown },
): Promise<{ handle: string }> {
  const password = typeof input.password === "string" ? input.password : "";
  const problem = passwordProblem(password);
  if (problem) {
    throw new Invalid("Choose another password.", [
      { in: "body", name: "password", message: problem },
    ]);
  }
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  const handle = await withTransaction(ctx.db, async (db) => {
    const ownerId = await consumeEmailToken(db, input.token, "reset_password", now);
    if (!ownerId) return null;
    await db.update(owners).set({ passwordHash }).where(eq(owners.id, ownerId));
    await db.delete(sessions).where(eq(sessions.ownerId, ownerId));
    const owner = await markOwnerVerified(db, ownerId, now);
    return owner?.handle ?? null;
  });
  if (!handle) {
    throw new Invalid(LINK_INVALID, [{ in: "body", name: "token", message: "is not valid" }]);
  }
  ctx.logger.info({ handle }, "owner reset their password");
  return { handle };
}
