/**
 * @module Outgoing account mail: SMTP through nodemailer when SMTP_URL is set; otherwise the
 * link is written to the log at info level (the documented zero-setup behaviour).
 */
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { ServiceContext } from "../context.ts";
import { type Locale, MAIL_TEXT, type MailPurpose } from "./mail-text.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  purpose: MailPurpose | "notifications";
  /** The one-time link the message carries (the log mailer writes it out). */
  link: string;
}

export interface Mailer {
  readonly kind: "smtp" | "log";
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/**
 * SMTP via nodemailer. `SMTP_URL` is nodemailer's URL form (`smtp://user:pass@host:587`,
 * `smtps://…:465`); a `from` query parameter sets the sender, which defaults to
 * `Quire <no-reply@host of BASE_URL>`.
 */
export function createSmtpMailer(smtpUrl: string, baseUrl: string): Mailer {
  const url = new URL(smtpUrl);
  const from = url.searchParams.get("from") ?? `Quire <no-reply@${new URL(baseUrl).hostname}>`;
  url.searchParams.delete("from");
  // nodemailer loads with the first message, not at start-up.
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(url.toString()),
    ));
  return {
    kind: "smtp",
    async send(mail) {
      const smtp = await transporter();
      await smtp.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    async close() {
      if (transport) (await transport).close();
    },
  };
}

/**
 * No SMTP: the link goes to the log, once, at info level, so whoever runs the server can pass
 * it on. The line names the purpose and the address and nothing else of the message.
 */
export function createLogMailer(logger: Logger): Mailer {
  return {
    kind: "log",
    async send(mail) {
      logger.info(
        { mail: { to: mail.to, purpose: mail.purpose, link: mail.link } },
        "email not sent (SMTP_URL is not set); the link is in this line",
      );
    },
    async close() {},
  };
}

/** The site's address of an account page in a language (`/es/…` for Spanish). */
export function siteLink(ctx: ServiceContext, lang: Locale, path: string, token: string): string {
  const prefix = lang === "es" ? "/es" : "";
  return `${ctx.settings.baseUrl}${prefix}${path}?token=${token}`;
}

/**
 * Sends an account mail without making the caller wait for SMTP: the page answers the same
 * whether or not a message went out (so timing does not reveal which emails have accounts),
 * and a failure is logged with its purpose, never with the message or the link.
 */
export function sendAccountMail(
  ctx: ServiceContext,
  input: { to: string; handle: string; lang: Locale; purpose: MailPurpose; link: string },
): Promise<void> {
  const text = MAIL_TEXT[input.lang][input.purpose];
  const mailer = ctx.mailer ?? createLogMailer(ctx.logger);
  return mailer
    .send({
      to: input.to,
      subject: text.subject,
      text: text.text(input.link, input.handle),
      purpose: input.purpose,
      link: input.link,
    })
    .catch((error: unknown) => {
      ctx.logger.error(
        {
          purpose: input.purpose,
          mailer: mailer.kind,
          error: error instanceof Error ? error.message : String(error),
        },
        "could not send an account email",
      );
    });
}
