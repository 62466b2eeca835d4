import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimits } from "../../services/ratelimit/limits.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { RELAXED_LIMITS } from "../../testing/db.ts";
import {
  csrfTokenIn,
  mailedLink,
  PageClient,
  pathOf,
  shownKey,
} from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { PAGE_CSP } from "./page.ts";
import { PASSWORD, signedInClient } from "./pages.test-helpers.ts";

let test: TestApp;
let https: TestApp;

beforeAll(async () => {
  test = await createTestApp();
  https = await createTestApp({ baseUrl: "https://quire.example.org" });
});
afterAll(async () => {
  await test.close();
  await https.close();
});

function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/"/g, "&quot;");
}

describe("CSRF", () => {
  it("refuses every signed-in form without the session's token (403), and changes nothing", async () => {
    const { client } = await signedInClient(test);
    const page = await client.get("/agents");
    await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "A",
      model: "m",
    });
    const list = await client.get("/agents");
    const id = /id="agent-(agt_[0-9A-Za-z]+)"/.exec(list.html)![1]!;
    const intruder = await signedInClient(test);
    const foreignToken = csrfTokenIn((await intruder.client.get("/agents")).html, "/agents");

    const forms: [string, Record<string, string>][] = [
      ["/agents", { name: "B", model: "m" }],
      [`/agents/${id}/rotate`, {}],
      [`/agents/${id}/revoke`, {}],
      ["/verify-email/resend", {}],
      ["/sign-out", {}],
      ["/es/agents", { name: "C", model: "m" }],
    ];
    for (const [action, fields] of forms) {
      for (const token of [undefined, "", "garbage", foreignToken]) {
        const res = await client.post(
          action,
          token === undefined ? fields : { ...fields, _csrf: token },
        );
        expect(res.status, `${action} with ${String(token)}`).toBe(403);
        expect(res.html).toContain('id="error-message"');
      }
    }
    const after = await client.get("/agents");
    expect(after.html).toContain(`action="/agents/${id}/revoke"`);
    expect(after.html).not.toContain(">B<");
    expect(shownKey(after.html)).toBeNull();
    expect(after.html).toContain(escaped(en.layout.signOut));
  });

  it("refuses a cross-site form post even with a valid token", async () => {
    const { client } = await signedInClient(test);
    const page = await client.get("/agents");
    const res = await client.post(
      "/agents",
      { _csrf: csrfTokenIn(page.html, "/agents"), name: "X", model: "m" },
      { "sec-fetch-site": "cross-site" },
    );
    expect(res.status).toBe(403);
    const ok = await client.post(
      "/agents",
      { _csrf: csrfTokenIn(page.html, "/agents"), name: "X", model: "m" },
      { "sec-fetch-site": "same-origin" },
    );
    expect(ok.status).toBe(303);
  });

  it("ties signed-out forms to their own cookie (double submit)", async () => {
    const a = new PageClient(test);
    const b = new PageClient(test);
    const tokenA = csrfTokenIn((await a.get("/sign-in")).html, "/sign-in");
    await b.get("/sign-in");
    for (const [client, token] of [
      [b, tokenA],
      [new PageClient(test), tokenA],
      [a, undefined],
    ] as const) {
      const res = await client.post("/sign-in", {
        ...(token ? { _csrf: token } : {}),
        email: "x@example.org",
        password: "whatever whatever",
      });
      expect(res.status).toBe(403);
    }
    for (const action of ["/sign-up", "/forgot-password", "/reset-password", "/verify-email"]) {
      expect((await b.post(action, { _csrf: tokenA })).status).toBe(403);
    }
  });

  it("masks tokens: two renders of the same form carry different tokens that both work", async () => {
    const client = new PageClient(test);
    const one = csrfTokenIn((await client.get("/forgot-password")).html, "/forgot-password");
    const two = csrfTokenIn((await client.get("/forgot-password")).html, "/forgot-password");
    expect(one).not.toBe(two);
    for (const token of [one, two]) {
      const res = await client.post("/forgot-password", { _csrf: token, email: "q@example.org" });
      expect(res.status).toBe(303);
    }
  });
});

describe("cookies and sessions", () => {
  it("sets HttpOnly, SameSite=Lax, Path=/ cookies without Secure on plain http", async () => {
    const client = new PageClient(test);
    const page = await client.get("/sign-in");
    const csrf = page.setCookies.find((c) => c.startsWith("quire_csrf="));
    expect(csrf).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
    const { email } = await signedInClient(test);
    const res = await client.post("/sign-in", {
      _csrf: csrfTokenIn(page.html, "/sign-in"),
      email,
      password: PASSWORD,
    });
    const session = res.setCookies.find((c) => c.startsWith("quire_session="));
    expect(session).toMatch(
      /^quire_session=[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it("adds Secure and the __Host- prefix when BASE_URL is https, and reads the cookie back", async () => {
    const { client } = await signedInClient(https);
    expect([...client.cookies.keys()]).toContain("__Host-quire_session");
    expect([...client.cookies.keys()]).not.toContain("quire_session");
    const page = await client.get("/agents");
    expect(page.html).toContain(escaped(en.agents.ownTitle));
    const fresh = new PageClient(https);
    const signIn = await fresh.get("/sign-in");
    for (const line of signIn.setCookies) {
      expect(line).toMatch(
        /^__Host-quire_(csrf|lang)=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
    }
    // A cookie without the prefix is not read: a subdomain or http page cannot plant a session.
    const planted = new PageClient(https);
    planted.cookies.set("quire_session", client.cookies.get("__Host-quire_session")!);
    expect((await planted.get("/agents")).html).toContain('id="sign-in-link"');
  });

  it("issues a new session token at sign-in, so a planted one is worthless", async () => {
    const { client, email } = await signedInClient(test);
    const before = client.cookies.get("quire_session")!;
    const page = await client.get("/agents");
    await client.post("/sign-out", { _csrf: csrfTokenIn(page.html, "/sign-out") });
    const planted = new PageClient(test);
    planted.cookies.set("quire_session", before);
    const form = await planted.get("/sign-in");
    expect(form.setCookies.some((c) => c.startsWith("quire_session=;"))).toBe(true);
    await planted.post("/sign-in", {
      _csrf: csrfTokenIn(form.html, "/sign-in"),
      email,
      password: PASSWORD,
    });
    expect(planted.cookies.get("quire_session")).not.toBe(before);
    const stale = new PageClient(test);
    stale.cookies.set("quire_session", before);
    expect((await stale.get("/agents")).html).toContain('id="sign-in-link"');
  });

  it("ends the session on sign-out even if the cookie is replayed", async () => {
    const { client } = await signedInClient(test);
    const token = client.cookies.get("quire_session")!;
    const page = await client.get("/agents");
    await client.post("/sign-out", { _csrf: csrfTokenIn(page.html, "/sign-out") });
    const replay = new PageClient(test);
    replay.cookies.set("quire_session", token);
    expect((await replay.get("/agents")).html).toContain('id="sign-in-link"');
  });
});

describe("the key is shown once", () => {
  it("never shows a key to another session, even with the flash cookie copied", async () => {
    const owner = await signedInClient(test);
    const page = await owner.client.get("/agents");
    await owner.client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "Flash",
      model: "m",
    });
    const flash = owner.client.cookies.get("quire_flash")!;
    expect(flash).toBeTruthy();
    expect(flash).not.toContain("quire_sk_");
    const thief = await signedInClient(test);
    thief.client.cookies.set("quire_flash", flash);
    const stolen = await thief.client.get("/agents");
    expect(shownKey(stolen.html)).toBeNull();
    expect(shownKey((await owner.client.get("/agents")).html)).toMatch(/^quire_sk_/);
    expect(shownKey((await owner.client.get("/agents")).html)).toBeNull();
  });

  it("escapes what owners type (agent names), so the page cannot be scripted", async () => {
    const { client } = await signedInClient(test);
    const page = await client.get("/agents");
    await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: '<script>alert(1)</script>"',
      model: "<img src=x onerror=alert(1)>",
    });
    const html = (await client.get("/agents")).html;
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("headers and redirects", () => {
  it("sends CSP, frame, sniffing, referrer and no-store headers on pages", async () => {
    const res = await new PageClient(test).get("/sign-in");
    expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.html).not.toMatch(/<script>(?!<\/script>)/);
    expect(res.html).not.toMatch(/ on[a-z]+=/);
  });

  it("never redirects off-site after sign-in", async () => {
    for (const next of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
    ]) {
      const { client, email } = await signedInClient(test);
      const page = await client.get("/agents");
      await client.post("/sign-out", { _csrf: csrfTokenIn(page.html, "/sign-out") });
      const form = await client.get(`/sign-in?next=${encodeURIComponent(next)}`);
      expect(form.html).toContain('name="next" value="/agents"');
      const res = await client.post("/sign-in", {
        _csrf: csrfTokenIn(form.html, "/sign-in"),
        email,
        password: PASSWORD,
        next,
      });
      expect(res.location).toBe("/agents");
    }
  });

  it("never echoes an unknown notice", async () => {
    const res = await new PageClient(test).get("/sign-in?notice=%3Cb%3Ehi%3C%2Fb%3E");
    expect(res.html).not.toContain("<b>hi");
    expect(res.html).not.toContain('id="notice"');
  });
});

describe("sign-in throttling through the pages", () => {
  it("answers the 11th failure for an account with 429, Retry-After and a generic message", async () => {
    const { email } = await signedInClient(test);
    const client = new PageClient(test);
    for (let i = 0; i < 10; i++) {
      const res = await client.submit("/sign-in", "/sign-in", {
        email,
        password: `wrong pass ${i}`,
      });
      expect(res.status).toBe(401);
    }
    const refused = await client.submit("/sign-in", "/sign-in", { email, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.html).toContain("Too many failed attempts.");
    expect(refused.setCookies.some((c) => c.startsWith("quire_session="))).toBe(false);
  });

  it("counts failures per IP across accounts (a small IP limit injected)", async () => {
    const small = await createTestApp({
      trustProxy: [],
      services: {
        rateLimits: createMemoryRateLimits({
          overrides: { ...RELAXED_LIMITS, "sign-in-ip": { points: 2, windowSeconds: 900 } },
        }),
      },
    });
    try {
      const client = new PageClient(small);
      for (const email of ["a1@example.org", "a2@example.org"]) {
        expect(
          (await client.submit("/sign-in", "/sign-in", { email, password: "wrong wrong" })).status,
        ).toBe(401);
      }
      const third = await client.submit("/sign-in", "/sign-in", {
        email: "a3@example.org",
        password: "wrong wrong",
      });
      expect(third.status).toBe(429);
    } finally {
      await small.close();
    }
  });

  it("never signs anyone into an existing account: a sign-up with its email gets no session", async () => {
    const { email } = await signedInClient(test);
    const client = new PageClient(test);
    const taken = await client.submit("/sign-up", "/sign-up", {
      email,
      handle: "someone_new",
      password: PASSWORD,
    });
    expect(taken.status).toBe(303);
    expect(taken.location).toBe("/sign-in?notice=check-email");
    expect(client.cookies.has("quire_session")).toBe(false);
    expect((await client.get("/agents")).html).not.toContain("someone_new");
    expect(mailedLink(test.logs, "account_exists", email)).toBe(
      "http://quire.test/forgot-password",
    );
    // A new address is signed in at once (docs/adr/0048-reading-typography-and-print.md says
    // why that difference in answers is accepted).
    const fresh = await new PageClient(test).submit("/sign-up", "/sign-up", {
      email: "genuinely-new@example.org",
      handle: "someone_else",
      password: PASSWORD,
    });
    expect(fresh.location).toBe("/agents?notice=signed-up");
  });
});

describe("secrets in logs", () => {
  it("logs no password, session token, CSRF token or agent key; a link only in its mail line", async () => {
    const app = await createTestApp();
    try {
      const client = new PageClient(app);
      const email = "logs@example.org";
      const password = "a very secret passphrase";
      await client.submit("/sign-up", "/sign-up", { email, handle: "logs", password });
      // The sign-up's own session, then a later visit that signs in again.
      const signUpSession = client.cookies.get("quire_session")!;
      expect(signUpSession).toBeTruthy();
      client.cookies.clear();
      const verifyLink = mailedLink(app.logs, "verify_email", email)!;
      const verifyToken = new URL(verifyLink).searchParams.get("token")!;
      await client.submit(pathOf(verifyLink), "/verify-email", { token: verifyToken });
      await client.submit("/sign-in", "/sign-in", { email, password: "wrong passphrase!" });
      await client.submit("/sign-in", "/sign-in", { email, password });
      const session = client.cookies.get("quire_session")!;
      const page = await client.get("/agents");
      const csrf = csrfTokenIn(page.html, "/agents");
      await client.post("/agents", { _csrf: csrf, name: "Logged", model: "m" });
      const shown = await client.get("/agents");
      const key = shownKey(shown.html)!;
      const id = /id="agent-(agt_[0-9A-Za-z]+)"/.exec(shown.html)![1]!;
      await client.post(`/agents/${id}/rotate`, {
        _csrf: csrfTokenIn(shown.html, `/agents/${id}/rotate`),
      });
      const rotatedKey = shownKey((await client.get("/agents")).html)!;
      await client.submit("/forgot-password", "/forgot-password", { email });
      const resetLink = mailedLink(app.logs, "reset_password", email)!;
      const resetToken = new URL(resetLink).searchParams.get("token")!;
      await client.get(pathOf(resetLink));

      expect(key).toMatch(/^quire_sk_/);
      expect(rotatedKey).toMatch(/^quire_sk_/);
      const secrets = [
        password,
        "wrong passphrase!",
        signUpSession,
        session,
        csrf,
        key,
        rotatedKey,
        key.slice(9),
        rotatedKey.slice(9),
      ];
      const written = JSON.stringify(app.logs);
      for (const secret of secrets) expect(written).not.toContain(secret);
      expect(written).not.toContain(client.cookies.get("quire_flash") ?? "no flash left");
      // Without SMTP the one-time links are in the log by design, each in its one mail line only.
      for (const token of [verifyToken, resetToken]) {
        const lines = app.logs.filter((l) => JSON.stringify(l).includes(token));
        expect(lines).toHaveLength(1);
        expect(lines[0]?.msg).toContain("SMTP_URL is not set");
        expect(lines[0]?.level).toBe(30);
      }
    } finally {
      await app.close();
    }
  });
});
