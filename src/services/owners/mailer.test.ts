import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { type SmtpSink, startSmtpSink } from "../../testing/smtp-sink.ts";
import type { ServiceContext } from "../context.ts";
import { createLogMailer, createSmtpMailer, type Mailer, sendAccountMail } from "./mailer.ts";
import { requestPasswordReset } from "./reset-password.ts";
import { signUp } from "./sign-up.ts";

let sink: SmtpSink;
let database: Database;
let mailer: Mailer;
let ctx: ServiceContext;
const logs: Record<string, unknown>[] = [];
const logger = pino(
  { level: "debug" },
  {
    write(line: string) {
      logs.push(JSON.parse(line));
    },
  },
);

beforeAll(async () => {
  sink = await startSmtpSink();
  database = await createTestDatabase();
  mailer = createSmtpMailer(sink.url, "https://quire.example.org");
  ctx = testContext(database, {
    logger,
    mailer,
    settings: {
      baseUrl: "https://quire.example.org",
      chunkMaxChars: 2000,
      filesMaxBytes: 2048 * 1024 * 1024,
      keyPrefix: "quire",
    },
  });
});
afterAll(async () => {
  await mailer.close();
  await sink.close();
  await database.close();
});

describe("mail over SMTP (nodemailer against a loopback SMTP server)", () => {
  it("delivers the verification link to the owner, and logs no link", async () => {
    const next = sink.next();
    await signUp(ctx, {
      email: "ada@example.org",
      handle: "ada",
      password: "a long enough passphrase",
      lang: "en",
      ip: "192.0.2.1",
    });
    const mail = await next;
    expect(mail.to).toEqual(["ada@example.org"]);
    expect(mail.from).toBe("no-reply@quire.example.org");
    expect(mail.headers.subject).toBe("Confirm your email for Quire");
    const link = /https:\/\/quire\.example\.org\/verify-email\?token=[A-Za-z0-9_-]{43}/.exec(
      mail.text,
    )?.[0];
    expect(link).toBeTruthy();
    const token = new URL(link!).searchParams.get("token")!;
    expect(JSON.stringify(logs)).not.toContain(token);
    expect(JSON.stringify(logs)).not.toContain("a long enough passphrase");
  });

  it("writes Spanish mail in UTF-8 and takes the sender from ?from=", async () => {
    const custom = createSmtpMailer(
      `${sink.url}?from=${encodeURIComponent("Archivo <archivo@example.org>")}`,
      "https://quire.example.org",
    );
    const next = sink.next();
    await requestPasswordReset(
      { ...ctx, mailer: custom },
      { email: "ADA@example.org", lang: "es", ip: "192.0.2.2" },
    );
    const mail = await next;
    await custom.close();
    expect(mail.from).toBe("archivo@example.org");
    expect(mail.text).toContain("Hola, ada:");
    expect(mail.text).toContain("contraseña");
    expect(mail.text).toMatch(/https:\/\/quire\.example\.org\/es\/reset-password\?token=/);
  });

  it("logs a failed delivery with its purpose only, and the caller is not failed by it", async () => {
    const dead = createSmtpMailer("smtp://127.0.0.1:1", "https://quire.example.org");
    await sendAccountMail(
      { ...ctx, mailer: dead },
      {
        to: "x@example.org",
        handle: "x",
        lang: "en",
        purpose: "verify_email",
        link: "https://quire.example.org/verify-email?token=SECRETSECRET",
      },
    );
    const line = logs.find((l) => l.msg === "could not send an account email");
    expect(line).toMatchObject({ purpose: "verify_email", mailer: "smtp" });
    expect(JSON.stringify(logs)).not.toContain("SECRETSECRET");
    await dead.close();
  });

  it("without SMTP writes the link once, at info, in a line that says why", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogMailer(
      pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) }),
    );
    await log.send({
      to: "y@example.org",
      subject: "s",
      text: "t",
      purpose: "reset_password",
      link: "http://quire.test/reset-password?token=abc",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      mail: {
        to: "y@example.org",
        purpose: "reset_password",
        link: "http://quire.test/reset-password?token=abc",
      },
    });
    expect(String(lines[0]?.msg)).toContain("SMTP_URL is not set");
  });
});
