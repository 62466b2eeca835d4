/** @module An owner's notification mail: a daily digest (on by default) and per-kind immediate mail. */
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { notificationPreferences } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { NOTIFICATION_KINDS, type NotificationKind } from "./schemas.ts";

export interface MailPreferences {
  /** One mail a day (UTC) with what was not mailed yet. */
  digest: boolean;
  /** Kinds mailed within minutes of happening (and then left out of the digest). */
  immediate: NotificationKind[];
  lang: "en" | "es";
}

/** Without a saved choice: the digest, nothing immediate, English. */
const DEFAULT_PREFERENCES: MailPreferences = { digest: true, immediate: [], lang: "en" };

export const MailPreferencesInputSchema = z.strictObject({
  digest: z.boolean(),
  immediate: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length),
  lang: z.enum(["en", "es"]),
});

function ownerOf(ctx: ServiceContext): string {
  if (ctx.caller.kind !== "owner")
    throw new Unauthorized("Sign in to choose your notification mail.");
  return ctx.caller.ownerId;
}

/** The signed-in owner's choices, or the defaults. */
export async function getMailPreferences(ctx: ServiceContext): Promise<MailPreferences> {
  const ownerId = ownerOf(ctx);
  const [row] = await ctx.db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.ownerId, ownerId))
    .limit(1);
  if (!row) return DEFAULT_PREFERENCES;
  return {
    digest: row.digest,
    immediate: row.immediate.filter((k): k is NotificationKind =>
      (NOTIFICATION_KINDS as readonly string[]).includes(k),
    ),
    lang: row.lang === "es" ? "es" : "en",
  };
}

/** Saves the signed-in owner's choices (the language is the page's they saved them from). */
export async function setMailPreferences(
  ctx: ServiceContext,
  raw: z.input<typeof MailPreferencesInputSchema>,
): Promise<MailPreferences> {
  const ownerId = ownerOf(ctx);
  const input = parseInput(MailPreferencesInputSchema, raw);
  const immediate = [...new Set(input.immediate)];
  const values = { digest: input.digest, immediate, lang: input.lang, updatedAt: ctx.clock.now() };
  await ctx.db
    .insert(notificationPreferences)
    .values({ ownerId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.ownerId, set: values });
  return { digest: input.digest, immediate, lang: input.lang };
}
