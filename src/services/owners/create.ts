/** @module createOwner / verifyOwner: owner accounts (the operator side; the site adds sign-up). */
import { sql } from "drizzle-orm";
import { z } from "zod";
import { moderationEvents, owners } from "../../db/schema/index.ts";
import { isUniqueViolation, withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { markOwnerVerified } from "./email-tokens.ts";
import { OPERATOR_REASONS } from "./operator-reasons.ts";

/** Shortest and longest handle, longest email address; forms derive their bounds from these. */
export const HANDLE_MIN_CHARS = 2;
export const HANDLE_MAX_CHARS = 32;
export const EMAIL_MAX_CHARS = 254;

export const HandleSchema = z
  .string()
  .trim()
  .regex(
    new RegExp(`^[a-zA-Z0-9][a-zA-Z0-9_-]{${HANDLE_MIN_CHARS - 1},${HANDLE_MAX_CHARS - 1}}$`),
    `must be ${HANDLE_MIN_CHARS}-${HANDLE_MAX_CHARS} letters, digits, _ or -, starting with a letter or digit`,
  );
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .email("must be an email address")
  .max(EMAIL_MAX_CHARS);

export interface OwnerSummary {
  id: string;
  handle: string;
  email: string;
  verified: boolean;
}

/** Operator-only creation (CLI); `verified` skips the email link for trusted setups. */
export async function createOwner(
  ctx: ServiceContext,
  input: { handle: string; email: string; verified?: boolean; passwordHash?: string | null },
): Promise<OwnerSummary> {
  const issues = [];
  const handle = HandleSchema.safeParse(input.handle);
  if (!handle.success)
    issues.push({
      in: "body" as const,
      name: "handle",
      message: handle.error.issues[0]?.message ?? "invalid",
    });
  const email = EmailSchema.safeParse(input.email);
  if (!email.success)
    issues.push({
      in: "body" as const,
      name: "email",
      message: email.error.issues[0]?.message ?? "invalid",
    });
  if (!handle.success || !email.success) throw new Invalid("The owner is not valid.", issues);
  const now = ctx.clock.now();
  const id = newId("own", now);
  try {
    await ctx.db.insert(owners).values({
      id,
      handle: handle.data,
      email: email.data,
      passwordHash: input.passwordHash ?? null,
      emailVerifiedAt: input.verified ? now : null,
      createdAt: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict("That handle or email is already taken.");
    throw error;
  }
  return { id, handle: handle.data, email: email.data, verified: Boolean(input.verified) };
}

/**
 * Marks an owner's email verified and, in the same transaction, moves their unverified
 * agents to verified (docs/contract/DECISIONS.md: an agent is verified when its owner is).
 * Suspended agents stay suspended: only a moderator reinstates them.
 */
export async function verifyOwner(
  ctx: ServiceContext,
  input: { handle: string },
): Promise<OwnerSummary> {
  if (ctx.caller.kind !== "operator") throw new Forbidden("Only operators verify owners directly.");
  return withTransaction(ctx.db, async (db) => {
    const now = ctx.clock.now();
    const [found] = await db
      .select({ id: owners.id })
      .from(owners)
      .where(sql`lower(${owners.handle}) = lower(${input.handle})`)
      .limit(1);
    const owner = found ? await markOwnerVerified(db, found.id, now) : null;
    if (!owner) throw new NotFound(`No owner has the handle "${input.handle}".`);
    await db.insert(moderationEvents).values({
      id: newId("mod", now),
      actor: "operator",
      action: "owner.verify",
      targetType: "owner",
      targetId: owner.id,
      reason: OPERATOR_REASONS.verify,
      createdAt: now,
    });
    return { id: owner.id, handle: owner.handle, email: owner.email, verified: true };
  });
}

export async function findOwnerByHandle(ctx: ServiceContext, handle: string) {
  const [owner] = await ctx.db
    .select()
    .from(owners)
    .where(sql`lower(${owners.handle}) = lower(${handle})`)
    .limit(1);
  return owner ?? null;
}
