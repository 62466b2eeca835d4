/**
 * @module deliverNotificationMail: the outbox's relay to e-mail. Immediate mail for the kinds
 * an owner opted into, and once a UTC day a digest of the rest; each claimed in the database,
 * so of several instances exactly one mails a given notification or digest.
 */
import { and, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import {
  notificationDigests,
  notificationPreferences,
  notifications,
  owners,
} from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import { toNotification } from "./inbox.ts";
import type { NotificationLang } from "./render.ts";

/** Notifications one mail lists at most; the rest wait for the next one. */
const MAIL_MAX_ITEMS = 50;
/** Owners one run mails at most (per step); the next run continues. */
const OWNERS_PER_RUN = 200;

const MAIL_WORDS: Record<
  NotificationLang,
  {
    subject: (n: number, digest: boolean) => string;
    intro: (handle: string) => string;
    footer: string;
    more: (n: number) => string;
  }
> = {
  en: {
    subject: (n, digest) =>
      digest
        ? `Quire: your daily digest (${n} new)`
        : `Quire: ${n === 1 ? "a new notification" : `${n} new notifications`}`,
    intro: (handle) =>
      `Hello ${handle},\n\nThis is what happened on your papers and to your agents' contributions:`,
    footer: "To choose what you are mailed, or to stop these mails, see",
    more: (n) => `…and ${n} more on the site.`,
  },
  es: {
    subject: (n, digest) =>
      digest
        ? `Quire: tu resumen diario (${n} novedades)`
        : `Quire: ${n === 1 ? "una notificación nueva" : `${n} notificaciones nuevas`}`,
    intro: (handle) =>
      `Hola, ${handle}:\n\nEsto es lo que ha pasado en tus artículos y con las contribuciones de tus agentes:`,
    footer: "Para elegir qué te enviamos, o dejar de recibir estos correos, visita",
    more: (n) => `…y ${n} más en el sitio.`,
  },
};

export interface MailRun {
  immediate: number;
  digests: number;
  failed: number;
}

/** Midnight UTC of `now`'s day, and that day as `YYYY-MM-DD`. */
function utcDay(now: Date): { start: Date; day: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { start, day: start.toISOString().slice(0, 10) };
}

/** The next turn of the UTC day after `now`: when that day's digests fall due. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * One pass of the relay (the server runs it every minute and at midnight UTC when SMTP_URL is set; the operator
 * only). Immediate: an owner's unmailed notifications of the kinds they opted into are
 * claimed row by row (`mailed_at` set where it was null: concurrent runs never claim the same
 * row) and sent in one mail. Digest: at the first run of a UTC day, each owner with the
 * digest on (the default) and unmailed notifications from before that day gets one mail;
 * the claim is a row (owner, day) inserted once. Only verified addresses are mailed. A send
 * that fails releases its claims, so the next run tries again: mail is at least once.
 */
export async function deliverNotificationMail(ctx: ServiceContext): Promise<MailRun> {
  if (ctx.caller.kind !== "operator")
    throw new Forbidden("Only the operator sends notification mail.");
  const run: MailRun = { immediate: 0, digests: 0, failed: 0 };
  const mailer = ctx.mailer;
  if (!mailer) return run;
  const now = ctx.clock.now();

  const immediateOwners = await ctx.db
    .selectDistinct({ ownerId: notifications.recipientOwnerId })
    .from(notifications)
    .innerJoin(
      notificationPreferences,
      eq(notificationPreferences.ownerId, notifications.recipientOwnerId),
    )
    .where(
      and(
        isNull(notifications.mailedAt),
        isNotNull(notifications.recipientOwnerId),
        sql`${notifications.kind} = any(${notificationPreferences.immediate})`,
      ),
    )
    .limit(OWNERS_PER_RUN);
  for (const { ownerId } of immediateOwners) {
    if (!ownerId) continue;
    const outcome = await mailOwner(ctx, ownerId, now, { digest: false });
    if (outcome === "sent") run.immediate++;
    if (outcome === "failed") run.failed++;
  }

  const { start, day } = utcDay(now);
  const digestOwners = await ctx.db
    .selectDistinct({ ownerId: notifications.recipientOwnerId })
    .from(notifications)
    .leftJoin(
      notificationPreferences,
      eq(notificationPreferences.ownerId, notifications.recipientOwnerId),
    )
    .where(
      and(
        isNull(notifications.mailedAt),
        isNotNull(notifications.recipientOwnerId),
        lt(notifications.createdAt, start),
        sql`coalesce(${notificationPreferences.digest}, true)`,
        sql`not exists (select 1 from ${notificationDigests} d where d.owner_id = ${notifications.recipientOwnerId} and d.day = ${day})`,
      ),
    )
    .limit(OWNERS_PER_RUN);
  for (const { ownerId } of digestOwners) {
    if (!ownerId) continue;
    const [claim] = await ctx.db
      .insert(notificationDigests)
      .values({ ownerId, day, claimedAt: now })
      .onConflictDoNothing()
      .returning({ ownerId: notificationDigests.ownerId });
    if (!claim) continue; // another instance has this digest
    const outcome = await mailOwner(ctx, ownerId, now, { digest: true, before: start });
    const claimed = and(eq(notificationDigests.ownerId, ownerId), eq(notificationDigests.day, day));
    if (outcome === "failed") {
      await ctx.db.delete(notificationDigests).where(claimed);
      run.failed++;
    } else {
      await ctx.db
        .update(notificationDigests)
        .set({ sentAt: now, count: outcome === "sent" ? 1 : 0 })
        .where(claimed);
      if (outcome === "sent") run.digests++;
    }
  }
  return run;
}

/**
 * Claims and mails one owner's unmailed notifications: the immediate kinds they chose, or
 * (digest) every one from before `before`. `nothing` when there was none left to claim.
 */
async function mailOwner(
  ctx: ServiceContext,
  ownerId: string,
  now: Date,
  options: { digest: boolean; before?: Date },
): Promise<"sent" | "nothing" | "failed"> {
  const [owner] = await ctx.db
    .select({
      email: owners.email,
      handle: owners.handle,
      verified: owners.emailVerifiedAt,
      lang: notificationPreferences.lang,
      immediate: notificationPreferences.immediate,
    })
    .from(owners)
    .leftJoin(notificationPreferences, eq(notificationPreferences.ownerId, owners.id))
    .where(eq(owners.id, ownerId))
    .limit(1);
  if (!owner?.verified) return "nothing";
  const lang: NotificationLang = owner.lang === "es" ? "es" : "en";
  const candidates = await ctx.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.recipientOwnerId, ownerId),
        isNull(notifications.mailedAt),
        options.digest
          ? lt(notifications.createdAt, options.before ?? now)
          : inArray(notifications.kind, owner.immediate ?? []),
      ),
    )
    .orderBy(notifications.createdAt)
    .limit(MAIL_MAX_ITEMS + 1);
  if (candidates.length === 0) return "nothing";
  // The claim: only rows still unmailed are taken, so two runs never mail one row twice.
  const rows = await ctx.db
    .update(notifications)
    .set({ mailedAt: now })
    .where(
      and(
        inArray(
          notifications.id,
          candidates.map((c) => c.id),
        ),
        isNull(notifications.mailedAt),
      ),
    )
    .returning();
  if (rows.length === 0) return "nothing";
  rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const words = MAIL_WORDS[lang];
  const shown = rows.slice(0, MAIL_MAX_ITEMS);
  const base = ctx.settings.baseUrl.replace(/\/+$/, "");
  const settings = `${base}${lang === "es" ? "/es" : ""}/notifications`;
  const lines = shown.map((row) => {
    const n = toNotification(ctx, row, lang);
    return `- ${n.summary}\n  ${n.url}`;
  });
  if (rows.length > shown.length) lines.push(words.more(rows.length - shown.length));
  const text = `${words.intro(owner.handle)}\n\n${lines.join("\n\n")}\n\n${words.footer} ${settings}\n`;
  try {
    await ctx.mailer!.send({
      to: owner.email,
      subject: words.subject(rows.length, options.digest),
      text,
      purpose: "notifications",
      link: settings,
    });
    return "sent";
  } catch (error) {
    ctx.logger.warn(
      {
        err: { message: error instanceof Error ? error.message : String(error) },
        rows: rows.length,
      },
      "notification mail failed; released for the next run",
    );
    await ctx.db
      .update(notifications)
      .set({ mailedAt: null })
      .where(
        inArray(
          notifications.id,
          rows.map((r) => r.id),
        ),
      );
    return "failed";
  }
}
