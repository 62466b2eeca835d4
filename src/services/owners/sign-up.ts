/** @module signUp: a new owner account from the site (email, handle, password). */
import { sql } from "drizzle-orm";
import { owners } from "../../db/schema/index.ts";
import { isUniqueViolation, violatedConstraint, withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, type FieldIssue, Invalid, RateLimited } from "../errors.ts";
import { newId } from "../ids.ts";
import { countOperation, operationBlockedFor } from "../ratelimit/index.ts";
import { EmailSchema, HandleSchema } from "./create.ts";
import { issueEmailToken } from "./email-tokens.ts";
import type { Locale } from "./mail-text.ts";
import { sendAccountMail, siteLink } from "./mailer.ts";
import { hashPassword, passwordProblem } from "./password.ts";
import { createSession } from "./session.ts";
import { throttleKeys } from "./throttle.ts";

export interface SignUpInput {
  email: string;
  handle: string;
  password: string;
  /** The language of the page, for the mail. */
  lang: Locale;
  /** The client IP, for the mail throttle. */
  ip: string;
}

/** Every failed field of a sign-up at once (names: email, handle, password). */
function signUpIssues(input: { email: unknown; handle: unknown; password: unknown }): {
  issues: FieldIssue[];
  email: string;
  handle: string;
} {
  const issues: FieldIssue[] = [];
  const email = EmailSchema.safeParse(typeof input.email === "string" ? input.email : "");
  if (!email.success)
    issues.push({ in: "body", name: "email", message: "must be an email address" });
  const handle = HandleSchema.safeParse(typeof input.handle === "string" ? input.handle : "");
  if (!handle.success)
    issues.push({
      in: "body",
      name: "handle",
      message: handle.error.issues[0]?.message ?? "is not a valid handle",
    });
  const problem = passwordProblem(typeof input.password === "string" ? input.password : "");
  if (problem) issues.push({ in: "body", name: "password", message: problem });
  return { issues, email: email.data ?? "", handle: handle.data ?? "" };
}

/** What a sign-up answers: a new account comes with a session; an email that has one, only the mail. */
export type SignUpResult = { outcome: "check_email" } | { outcome: "signed_up"; token: string };

/**
 * Creates an unverified owner, starts a session for them (so the site keeps them signed in
 * rather than asking for everything again) and mails a verification link (48 hours, single
 * use); until it is followed their agents cannot write.
 *
 * An email that already has an account gets no session (it is someone else's account): the
 * answer is "check your email", and the account's holder is mailed a notice instead. That
 * answer differs from a new account's, which tells whoever types an address that it has an
 * account; the mail throttle (per address and per IP) bounds how many they can try, and
 * handles are public anyway (docs/adr/0048-reading-typography-and-print.md). A taken handle
 * is a plain 409. The password is hashed in every case, so both paths take the same time.
 */
export async function signUp(ctx: ServiceContext, input: SignUpInput): Promise<SignUpResult> {
  const { issues, email, handle } = signUpIssues(input);
  if (issues.length > 0) throw new Invalid("The sign-up form has errors; see errors.", issues);

  const keys = throttleKeys(email, input.ip);
  const wait = await operationBlockedFor(ctx, "mail", keys);
  if (wait > 0) throw new RateLimited("Too many emails were asked for; try again later.", wait);

  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const [taken] = await ctx.db
    .select({
      id: owners.id,
      handle: owners.handle,
      email: owners.email,
      handleTaken: sql<boolean>`lower(${owners.handle}) = lower(${handle})`,
    })
    .from(owners)
    .where(sql`lower(${owners.handle}) = lower(${handle}) or lower(${owners.email}) = ${email}`)
    .orderBy(sql`lower(${owners.handle}) = lower(${handle}) desc`)
    .limit(1);
  if (taken?.handleTaken) throw handleTaken();
  if (taken) {
    await countOperation(ctx, "mail", keys);
    void sendAccountMail(ctx, {
      to: taken.email,
      handle: taken.handle,
      lang: input.lang,
      purpose: "account_exists",
      link: `${ctx.settings.baseUrl}${input.lang === "es" ? "/es" : ""}/forgot-password`,
    });
    return { outcome: "check_email" };
  }

  const id = newId("own", now);
  let token: string;
  let session: string;
  try {
    [token, session] = await withTransaction(ctx.db, async (db) => {
      await db.insert(owners).values({ id, handle, email, passwordHash, createdAt: now });
      const mailed = await issueEmailToken(db, id, "verify_email", now);
      return [mailed, (await createSession(db, id, now)).token] as const;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent sign-up took the handle or the email between the check and the insert.
    if (violatedConstraint(error) === "owners_email_lower_idx") return { outcome: "check_email" };
    throw handleTaken();
  }
  await countOperation(ctx, "mail", keys);
  ctx.logger.info({ owner_id: id, handle }, "owner signed up");
  void sendAccountMail(ctx, {
    to: email,
    handle,
    lang: input.lang,
    purpose: "verify_email",
    link: siteLink(ctx, input.lang, "/verify-email", token),
  });
  return { outcome: "signed_up", token: session };
}

function handleTaken(): Conflict {
  return new Conflict("That handle is taken; choose another.");
}
