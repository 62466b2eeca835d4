/** @module verifyEmail and resendVerification: the email link that verifies an owner. */
import { eq } from "drizzle-orm";
import { owners } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, Invalid, RateLimited } from "../errors.ts";
import { countOperation, operationBlockedFor } from "../ratelimit/index.ts";
import { consumeEmailToken, issueEmailToken, markOwnerVerified } from "./email-tokens.ts";
import type { Locale } from "./mail-text.ts";
import { sendAccountMail, siteLink } from "./mailer.ts";
import { throttleKeys } from "./throttle.ts";

export const LINK_INVALID =
  "This link is not valid: it may have been used already or have expired.";

/**
 * Uses a verification link: marks the owner verified and, in the same transaction, their
 * unverified agents (docs/contract/DECISIONS.md). A used, expired or unknown token is a 400 that
 * does not say which of the three it was.
 */
export async function verifyEmail(
  ctx: ServiceContext,
  input: { token: unknown },
): Promise<{ handle: string }> {
  const now = ctx.clock.now();
  const handle = await withTransaction(ctx.db, async (db) => {
    const ownerId = await consumeEmailToken(db, input.token, "verify_email", now);
    if (!ownerId) return null;
    const owner = await markOwnerVerified(db, ownerId, now);
    return owner?.handle ?? null;
  });
  if (!handle) {
    throw new Invalid(LINK_INVALID, [{ in: "body", name: "token", message: "is not valid" }]);
  }
  ctx.logger.info({ handle }, "owner verified their email");
  return { handle };
}

/** Mails the signed-in owner a fresh verification link (throttled like every account mail). */
export async function resendVerification(
  ctx: ServiceContext,
  input: { lang: Locale; ip: string },
): Promise<{ outcome: "sent" | "already_verified" }> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Sign in first.");
  const [owner] = await ctx.db
    .select()
    .from(owners)
    .where(eq(owners.id, ctx.caller.ownerId))
    .limit(1);
  if (!owner) throw new Forbidden("Sign in first.");
  if (owner.emailVerifiedAt) return { outcome: "already_verified" };
  const keys = throttleKeys(owner.email, input.ip);
  const wait = await operationBlockedFor(ctx, "mail", keys);
  if (wait > 0) throw new RateLimited("Too many emails were asked for; try again later.", wait);
  const token = await issueEmailToken(ctx.db, owner.id, "verify_email", ctx.clock.now());
  await countOperation(ctx, "mail", keys);
  void sendAccountMail(ctx, {
    to: owner.email,
    handle: owner.handle,
    lang: input.lang,
    purpose: "verify_email",
    link: siteLink(ctx, input.lang, "/verify-email", token),
  });
  return { outcome: "sent" };
}
