import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { agents, emailTokens, owners, sessions } from "../../db/schema/index.ts";
import {
  createTestDatabase,
  fixedClock,
  operator,
  RELAXED_LIMITS,
  testContext,
} from "../../testing/db.ts";
import { createAgent } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Invalid, RateLimited, Unauthorized } from "../errors.ts";
import { createMemoryRateLimits } from "../ratelimit/index.ts";
import type { Mail, Mailer } from "./mailer.ts";
import { requestPasswordReset, resetPassword } from "./reset-password.ts";
import { SESSION_TTL_MS, sessionFromToken } from "./session.ts";
import { signIn } from "./sign-in.ts";
import { signOut } from "./sign-out.ts";
import { signUp } from "./sign-up.ts";
import { hashToken } from "./tokens.ts";
import { resendVerification, verifyEmail } from "./verify-email.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock();
const sent: Mail[] = [];
const mailer: Mailer = {
  kind: "log",
  send: async (mail) => {
    sent.push(mail);
  },
  close: async () => {},
};

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock, mailer });
});
afterAll(async () => database.close());

const PASSWORD = "a long enough passphrase";
let n = 0;

function lastMail(purpose: Mail["purpose"], to: string): Mail {
  const mail = sent.findLast((m) => m.purpose === purpose && m.to === to);
  if (!mail) throw new Error(`no ${purpose} mail to ${to}`);
  return mail;
}

function tokenOf(mail: Mail): string {
  return new URL(mail.link).searchParams.get("token")!;
}

async function newOwner(lang: "en" | "es" = "en") {
  n++;
  const email = `person${n}@example.org`;
  const handle = `person${n}`;
  await signUp(ctx, { email, handle, password: PASSWORD, lang, ip: `198.51.100.${n}` });
  return { email, handle };
}

describe("signUp", () => {
  it("creates an unverified owner with a scrypt hash and mails a 48-hour verification link", async () => {
    const { email, handle } = await newOwner();
    const [row] = await database.db.select().from(owners).where(eq(owners.email, email));
    expect(row).toMatchObject({ handle, emailVerifiedAt: null });
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    const mail = lastMail("verify_email", email);
    expect(mail.link).toMatch(/^http:\/\/quire\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(mail.link);
    expect(mail.subject).toBe("Confirm your email for Quire");
    const [token] = await database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, hashToken(tokenOf(mail))));
    expect(token?.purpose).toBe("verify_email");
    expect(token!.expiresAt.getTime() - token!.createdAt.getTime()).toBe(48 * 3600 * 1000);
  });

  it("leaves the new owner signed in (a session, email not yet confirmed)", async () => {
    const result = await signUp(ctx, {
      email: "signed-in-at-once@example.org",
      handle: "signed_in_at_once",
      password: PASSWORD,
      lang: "en",
      ip: "198.51.100.199",
    });
    expect(result.outcome).toBe("signed_up");
    const token = result.outcome === "signed_up" ? result.token : "";
    const session = await sessionFromToken(ctx, { token });
    expect(session?.owner).toMatchObject({ handle: "signed_in_at_once", verified: false });
  });

  it("mails in Spanish with a /es link when signed up from the Spanish site", async () => {
    const { email } = await newOwner("es");
    const mail = lastMail("verify_email", email);
    expect(mail.link).toMatch(/^http:\/\/quire\.test\/es\/verify-email\?token=/);
    expect(mail.subject).toBe("Confirma tu correo en Quire");
  });

  it("lists every invalid field at once", async () => {
    const error = await signUp(ctx, {
      email: "nope",
      handle: "x",
      password: "short",
      lang: "en",
      ip: "198.51.100.200",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual([
      "email",
      "handle",
      "password",
    ]);
  });

  it("refuses a taken handle (409) but answers a taken email like a new one, mailing its owner", async () => {
    const first = await newOwner();
    await expect(
      signUp(ctx, {
        email: "fresh@example.org",
        handle: first.handle.toUpperCase(),
        password: PASSWORD,
        lang: "en",
        ip: "198.51.100.201",
      }),
    ).rejects.toBeInstanceOf(Conflict);
    const before = await database.db.select().from(owners);
    const result = await signUp(ctx, {
      email: first.email.toUpperCase(),
      handle: "brandnewhandle",
      password: PASSWORD,
      lang: "en",
      ip: "198.51.100.202",
    });
    expect(result).toEqual({ outcome: "check_email" });
    expect(await database.db.select().from(owners)).toHaveLength(before.length);
    expect(lastMail("account_exists", first.email).link).toBe("http://quire.test/forgot-password");
  });
});

describe("concurrent sign-ups", () => {
  it("let one of two same-handle sign-ups through and answer the same-email pair alike", async () => {
    const results = await Promise.allSettled([
      signUp(ctx, {
        email: "race1@example.org",
        handle: "racer",
        password: PASSWORD,
        lang: "en",
        ip: "198.51.100.240",
      }),
      signUp(ctx, {
        email: "race2@example.org",
        handle: "RACER",
        password: PASSWORD,
        lang: "en",
        ip: "198.51.100.241",
      }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(Conflict);

    const same = await Promise.all([
      signUp(ctx, {
        email: "twin@example.org",
        handle: "twin_a",
        password: PASSWORD,
        lang: "en",
        ip: "198.51.100.242",
      }),
      signUp(ctx, {
        email: "TWIN@example.org",
        handle: "twin_b",
        password: PASSWORD,
        lang: "en",
        ip: "198.51.100.243",
      }),
    ]);
    // One account, signed in; the other sign-up is told to check its mail.
    expect(same.map((r) => r.outcome).sort()).toEqual(["check_email", "signed_up"]);
    const rows = await database.db
      .select()
      .from(owners)
      .where(eq(owners.email, "twin@example.org"));
    expect(rows).toHaveLength(1);
  });
});

describe("verifyEmail", () => {
  it("verifies the owner and their unverified agents once; the link is single-use", async () => {
    const { email, handle } = await newOwner();
    const [owner] = await database.db.select().from(owners).where(eq(owners.email, email));
    const agent = await createAgent(
      { ...ctx, caller: operator },
      { ownerHandle: handle, name: "a", model: "m" },
    );
    expect(agent.status).toBe("unverified");
    const token = tokenOf(lastMail("verify_email", email));
    expect(await verifyEmail(ctx, { token })).toEqual({ handle });
    const [after] = await database.db.select().from(owners).where(eq(owners.id, owner!.id));
    expect(after?.emailVerifiedAt).not.toBeNull();
    const [agentRow] = await database.db.select().from(agents).where(eq(agents.id, agent.id));
    expect(agentRow?.status).toBe("verified");
    await expect(verifyEmail(ctx, { token })).rejects.toBeInstanceOf(Invalid);
  });

  it("refuses expired, unknown and malformed tokens alike", async () => {
    const { email } = await newOwner();
    const token = tokenOf(lastMail("verify_email", email));
    clock.advance(48 * 3600 * 1000 + 1);
    try {
      await expect(verifyEmail(ctx, { token })).rejects.toBeInstanceOf(Invalid);
    } finally {
      clock.advance(-(48 * 3600 * 1000 + 1));
    }
    for (const bad of ["x".repeat(43), "short", undefined, 42, `${token}x`]) {
      await expect(verifyEmail(ctx, { token: bad })).rejects.toBeInstanceOf(Invalid);
    }
  });

  it("resends a fresh link to a signed-in unverified owner; a verified one needs none", async () => {
    const { email } = await newOwner();
    const { session } = await signIn(ctx, { email, password: PASSWORD, ip: "203.0.113.1" });
    const me: ServiceContext = {
      ...ctx,
      caller: {
        kind: "owner",
        ownerId: session.owner.id,
        handle: session.owner.handle,
        role: "owner",
      },
    };
    const first = lastMail("verify_email", email).link;
    expect(await resendVerification(me, { lang: "en", ip: "203.0.113.1" })).toEqual({
      outcome: "sent",
    });
    const second = lastMail("verify_email", email).link;
    expect(second).not.toBe(first);
    await verifyEmail(ctx, { token: tokenOf(lastMail("verify_email", email)) });
    expect(await resendVerification(me, { lang: "en", ip: "203.0.113.1" })).toEqual({
      outcome: "already_verified",
    });
  });
});

describe("signIn, sessions and signOut", () => {
  it("signs in with the right password only, with one message for every failure", async () => {
    const { email } = await newOwner();
    const ok = await signIn(ctx, {
      email: ` ${email.toUpperCase()} `,
      password: PASSWORD,
      ip: "203.0.113.2",
    });
    expect(ok.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(ok.token)));
    expect(row?.expiresAt.getTime()).toBe(clock.now().getTime() + SESSION_TTL_MS);
    expect(JSON.stringify(row)).not.toContain(ok.token);

    const wrong = await signIn(ctx, {
      email,
      password: "wrong password!!",
      ip: "203.0.113.2",
    }).catch((e: unknown) => e);
    const unknown = await signIn(ctx, {
      email: "nobody@example.org",
      password: PASSWORD,
      ip: "203.0.113.2",
    }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(Unauthorized);
    expect(unknown).toBeInstanceOf(Unauthorized);
    expect((wrong as Error).message).toBe((unknown as Error).message);
  });

  it("refuses owners created without a password (operator accounts) until they reset it", async () => {
    const { createOwner } = await import("./create.ts");
    await createOwner(
      { ...ctx, caller: operator },
      { handle: "nopass", email: "nopass@example.org" },
    );
    await expect(
      signIn(ctx, { email: "nopass@example.org", password: PASSWORD, ip: "203.0.113.3" }),
    ).rejects.toBeInstanceOf(Unauthorized);
  });

  it("finds a live session, forgets an expired one (deleting its row), and ends one on sign-out", async () => {
    const { email, handle } = await newOwner();
    const { token } = await signIn(ctx, { email, password: PASSWORD, ip: "203.0.113.4" });
    const session = await sessionFromToken(ctx, { token });
    expect(session?.owner).toMatchObject({ handle, verified: false, role: "owner" });
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await sessionFromToken(ctx, { token: altered })).toBeNull();
    expect(await sessionFromToken(ctx, { token: "not a token" })).toBeNull();

    await signOut(ctx, { token });
    expect(await sessionFromToken(ctx, { token })).toBeNull();

    const second = await signIn(ctx, { email, password: PASSWORD, ip: "203.0.113.4" });
    clock.advance(SESSION_TTL_MS);
    try {
      expect(await sessionFromToken(ctx, { token: second.token })).toBeNull();
    } finally {
      clock.advance(-SESSION_TTL_MS);
    }
    const rows = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(second.token)));
    expect(rows).toHaveLength(0);
  });

  it("throttles failures per account (10 in 15 minutes), before checking any password", async () => {
    const { email } = await newOwner();
    for (let i = 0; i < 10; i++) {
      await expect(
        signIn(ctx, { email, password: `wrong password ${i}`, ip: `192.0.2.${i}` }),
      ).rejects.toBeInstanceOf(Unauthorized);
    }
    const refused = await signIn(ctx, { email, password: PASSWORD, ip: "192.0.2.99" }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as RateLimited).retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
  });

  it("throttles failures per IP across accounts, and a success does not clear the IP", async () => {
    const small: ServiceContext = {
      ...ctx,
      rateLimits: createMemoryRateLimits({
        overrides: { ...RELAXED_LIMITS, "sign-in-ip": { points: 2, windowSeconds: 900 } },
      }),
    };
    const { email } = await newOwner();
    await expect(
      signIn(small, { email: "x1@example.org", password: "wrong password", ip: "192.0.2.50" }),
    ).rejects.toBeInstanceOf(Unauthorized);
    await signIn(small, { email, password: PASSWORD, ip: "192.0.2.50" });
    await expect(
      signIn(small, { email: "x2@example.org", password: "wrong password", ip: "192.0.2.50" }),
    ).rejects.toBeInstanceOf(Unauthorized);
    await expect(
      signIn(small, { email, password: PASSWORD, ip: "192.0.2.50" }),
    ).rejects.toBeInstanceOf(RateLimited);
    expect(
      (await signIn(small, { email, password: PASSWORD, ip: "192.0.2.51" })).token,
    ).toBeTruthy();
  });
});

describe("password reset", () => {
  it("mails a one-hour link, sets the new password, ends every session, and verifies the email", async () => {
    const { email } = await newOwner();
    const before = await signIn(ctx, { email, password: PASSWORD, ip: "203.0.113.5" });
    await requestPasswordReset(ctx, { email, lang: "en", ip: "203.0.113.5" });
    const mail = lastMail("reset_password", email);
    expect(mail.link).toMatch(/^http:\/\/quire\.test\/reset-password\?token=/);
    const token = tokenOf(mail);
    const [row] = await database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, hashToken(token)));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(3600 * 1000);

    // A refused password does not burn the link.
    await expect(resetPassword(ctx, { token, password: "short" })).rejects.toBeInstanceOf(Invalid);
    await resetPassword(ctx, { token, password: "a brand new passphrase" });
    expect(await sessionFromToken(ctx, { token: before.token })).toBeNull();
    await expect(
      signIn(ctx, { email, password: PASSWORD, ip: "203.0.113.5" }),
    ).rejects.toBeInstanceOf(Unauthorized);
    const after = await signIn(ctx, {
      email,
      password: "a brand new passphrase",
      ip: "203.0.113.5",
    });
    expect(after.session.owner.verified).toBe(true);
    await expect(
      resetPassword(ctx, { token, password: "yet another passphrase" }),
    ).rejects.toBeInstanceOf(Invalid);
  });

  it("expires after an hour", async () => {
    const { email } = await newOwner();
    await requestPasswordReset(ctx, { email, lang: "en", ip: "203.0.113.6" });
    const token = tokenOf(lastMail("reset_password", email));
    clock.advance(3600 * 1000);
    try {
      await expect(
        resetPassword(ctx, { token, password: "a brand new passphrase" }),
      ).rejects.toBeInstanceOf(Invalid);
    } finally {
      clock.advance(-3600 * 1000);
    }
  });

  it("answers the same for an unknown email and sends nothing", async () => {
    const count = sent.length;
    expect(
      await requestPasswordReset(ctx, {
        email: "ghost@example.org",
        lang: "en",
        ip: "203.0.113.7",
      }),
    ).toEqual({ outcome: "check_email" });
    expect(sent.length).toBe(count);
  });

  it("throttles reset mail per address (5 an hour), whether or not it has an account", async () => {
    for (let i = 0; i < 5; i++) {
      await requestPasswordReset(ctx, {
        email: "flood@example.org",
        lang: "en",
        ip: `192.0.2.${100 + i}`,
      });
    }
    await expect(
      requestPasswordReset(ctx, { email: "flood@example.org", lang: "en", ip: "192.0.2.120" }),
    ).rejects.toBeInstanceOf(RateLimited);
  });
});
