// biome-ignore lint/style/noRestrictedImports: tests check the rows behind the pages (hashes, revocations, sessions).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// biome-ignore lint/style/noRestrictedImports: tests check the rows behind the pages (hashes, revocations, sessions).
import { agentKeys, agents, owners, sessions } from "../../db/schema/index.ts";
import { hashKey } from "../../services/agents/keys.ts";
import { setAgentStatus } from "../../services/agents/set-status.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  csrfTokenIn,
  htmlLang,
  mailedLink,
  PageClient,
  pathOf,
  shownKey,
} from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { PASSWORD, signedInClient } from "./pages.test-helpers.ts";

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

const PAGES: [path: string, en: string, es: string][] = [
  ["/", en.home.title, es.home.title],
  ["/sign-up", en.signUp.intro, es.signUp.intro],
  ["/sign-in", en.signIn.forgot, es.signIn.forgot],
  ["/forgot-password", en.forgot.text, es.forgot.text],
  ["/agents", en.agents.explainKey, es.agents.explainKey],
];

function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/"/g, "&quot;");
}

describe("every page in both languages", () => {
  it.each(PAGES)("%s answers in English and at /es in Spanish", async (path, enText, esText) => {
    const client = new PageClient(test);
    const english = await client.get(path);
    expect(english.status).toBe(200);
    expect(english.headers.get("content-type")).toMatch(/^text\/html/);
    expect(htmlLang(english.html)).toBe("en");
    expect(english.html).toContain(escaped(enText));
    expect(english.html).toMatch(/^<!doctype html>/);

    const esPath = path === "/" ? "/es" : `/es${path}`;
    const spanish = await client.get(esPath);
    expect(spanish.status).toBe(200);
    expect(htmlLang(spanish.html)).toBe("es");
    expect(spanish.html).toContain(escaped(esText));
    expect(spanish.html).not.toContain(escaped(enText));

    for (const html of [english.html, spanish.html]) {
      expect(html).toContain(
        `<link rel="alternate" hreflang="en" href="http://quire.test${path}"/>`,
      );
      expect(html).toContain(
        `<link rel="alternate" hreflang="es" href="http://quire.test${esPath}"/>`,
      );
      expect(html).toMatch(/<header[\s\S]*<nav[\s\S]*<main id="main"[\s\S]*<footer/);
    }
    expect(english.html).toContain(`id="language-switch" href="${esPath}" hreflang="es" lang="es"`);
    expect(spanish.html).toContain(`id="language-switch" href="${path}" hreflang="en" lang="en"`);
  });

  it("the language switch keeps the query (a reset link survives a switch)", async () => {
    const res = await new PageClient(test).get("/reset-password?token=abc");
    expect(res.html).toContain('id="language-switch" href="/es/reset-password?token=abc"');
  });

  it("the link pages say what they need when opened without their token, in each language", async () => {
    const client = new PageClient(test);
    for (const path of ["/verify-email", "/reset-password"]) {
      const english = await client.get(path);
      expect(english.status).toBe(400);
      expect(english.html).toContain(escaped(en.verify.missing));
      const spanish = await client.get(`/es${path}`);
      expect(htmlLang(spanish.html)).toBe("es");
      expect(spanish.html).toContain(escaped(es.verify.missing));
    }
  });

  it("serves its stylesheet and script from the app", async () => {
    const page = await new PageClient(test).get("/");
    const css = /href="(\/assets\/site\.css\?v=[0-9a-f]{12})"/.exec(page.html)?.[1];
    const js = /src="(\/assets\/site\.js\?v=[0-9a-f]{12})"/.exec(page.html)?.[1];
    expect(css && js).toBeTruthy();
    const cssRes = await test.app.request(css!);
    expect(cssRes.status).toBe(200);
    expect(cssRes.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await cssRes.text()).toContain(":focus-visible");
    const jsRes = await test.app.request(js!);
    expect(jsRes.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });
});

describe("first-visit language", () => {
  it("sends a first visit that prefers Spanish to /es, keeping path and query", async () => {
    const client = new PageClient(test, { "accept-language": "es-ES,es;q=0.9,en;q=0.8" });
    const res = await client.get("/sign-in?next=/agents");
    expect(res.status).toBe(302);
    expect(res.location).toBe("/es/sign-in?next=/agents");
    expect(res.headers.get("vary")).toContain("Accept-Language");
    const spanish = await client.get(res.location!);
    expect(htmlLang(spanish.html)).toBe("es");
    // The switch to English then sticks: the language cookie says a page was already served.
    const english = await client.get("/sign-in");
    expect(english.status).toBe(200);
    expect(htmlLang(english.html)).toBe("en");
  });

  it("keeps English for English, other languages and no header", async () => {
    for (const header of ["en-GB,en;q=0.9,es;q=0.5", "de-DE", ""]) {
      const res = await new PageClient(test, { "accept-language": header }).get("/");
      expect(res.status).toBe(200);
      expect(htmlLang(res.html)).toBe("en");
    }
  });
});

describe("an owner's whole path through the site", () => {
  it("signs up, verifies by the logged link, signs in, mints a key seen once, rotates and revokes", async () => {
    const client = new PageClient(test);
    const email = "lifecycle@example.org";
    const signedUp = await client.submit("/sign-up", "/sign-up", {
      email,
      handle: "lifecycle",
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    // Signed in at once, with a banner asking to confirm the email.
    expect(signedUp.location).toBe("/agents?notice=signed-up");
    const notice = await client.get(signedUp.location!);
    expect(notice.html).toContain(escaped(en.notices["signed-up"]));
    expect(notice.html).toContain(escaped(en.layout.signedInAs("lifecycle")));
    expect(notice.html).toContain(escaped(en.agents.unverified));

    const link = mailedLink(test.logs, "verify_email", email);
    expect(link).toMatch(/^http:\/\/quire\.test\/verify-email\?token=/);
    const confirm = await client.get(pathOf(link!));
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get("referrer-policy")).toBe("no-referrer");
    const token = new URL(link!).searchParams.get("token")!;
    const verified = await client.post("/verify-email", {
      _csrf: csrfTokenIn(confirm.html, "/verify-email"),
      token,
    });
    expect(verified.status).toBe(303);
    expect(verified.location).toBe("/agents?notice=verified");
    const [owner] = await test.database.db.select().from(owners).where(eq(owners.email, email));
    expect(owner?.emailVerifiedAt).not.toBeNull();

    // The sign-up left this client signed in; a later visit (a new browser) signs in again.
    client.cookies.clear();
    const signedIn = await client.submit("/sign-in", "/sign-in", {
      email,
      password: PASSWORD,
      next: "/agents",
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/agents");
    const list = await client.get("/agents");
    expect(list.html).toContain(escaped(en.layout.signedInAs("lifecycle")));
    expect(list.html).toContain('id="no-agents"');
    expect(list.html).not.toContain('id="unverified-warning"');

    const created = await client.post("/agents", {
      _csrf: csrfTokenIn(list.html, "/agents"),
      name: "Reader Bot",
      model: "claude-opus-4.5",
    });
    expect(created.status).toBe(303);
    expect(created.location).toBe("/agents");
    expect(created.html).not.toMatch(/quire_sk_[0-9A-Za-z]{43}/);
    const shown = await client.get("/agents");
    const key = shownKey(shown.html);
    expect(key).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
    expect(shown.html).toContain(escaped(en.agents.keyOnce));
    expect(shown.html).toMatch(/<button type="button" hidden="" data-copy="new-key"/);
    expect(shown.html).toContain(`<code>${key!.slice(0, 13)}…</code>`);
    expect(shown.html).toContain(en.agents.statusNames.verified);
    expect(shown.html).toContain("claude-opus-4.5");
    expect(shown.headers.get("cache-control")).toBe("no-store");

    const reload = await client.get("/agents");
    expect(shownKey(reload.html)).toBeNull();
    expect(reload.html).not.toContain(key!);
    expect(reload.html).toContain("Reader Bot");

    const [agent] = await test.database.db
      .select()
      .from(agents)
      .where(eq(agents.name, "Reader Bot"));
    expect(agent?.status).toBe("verified");
    const [stored] = await test.database.db
      .select()
      .from(agentKeys)
      .where(eq(agentKeys.keyHash, hashKey(key!)));
    expect(stored?.agentId).toBe(agent?.id);

    const rotated = await client.post(`/agents/${agent!.id}/rotate`, {
      _csrf: csrfTokenIn(reload.html, `/agents/${agent!.id}/rotate`),
    });
    expect(rotated.status).toBe(303);
    const afterRotate = await client.get("/agents");
    const newKey = shownKey(afterRotate.html);
    expect(newKey).toMatch(/^quire_sk_/);
    expect(newKey).not.toBe(key);
    const [old] = await test.database.db
      .select()
      .from(agentKeys)
      .where(eq(agentKeys.keyHash, hashKey(key!)));
    expect(old?.revokedAt).not.toBeNull();

    const revoked = await client.post(`/agents/${agent!.id}/revoke`, {
      _csrf: csrfTokenIn(afterRotate.html, `/agents/${agent!.id}/revoke`),
    });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe("/agents?notice=key-revoked");
    const afterRevoke = await client.get(revoked.location!);
    expect(afterRevoke.html).toContain(escaped(en.notices["key-revoked"]));
    expect(afterRevoke.html).toContain(escaped(en.agents.newKey));
    expect(afterRevoke.html).not.toContain(`action="/agents/${agent!.id}/revoke"`);
    const live = await test.database.db
      .select()
      .from(agentKeys)
      .where(eq(agentKeys.agentId, agent!.id));
    expect(live.every((k) => k.revokedAt !== null)).toBe(true);

    const sessionsOf = () =>
      test.database.db.select().from(sessions).where(eq(sessions.ownerId, owner!.id));
    const before = await sessionsOf();
    const out = await client.post("/sign-out", {
      _csrf: csrfTokenIn(afterRevoke.html, "/sign-out"),
    });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/?notice=signed-out");
    expect(client.cookies.has("quire_session")).toBe(false);
    // This browser's session ends; the one the sign-up started (another browser) is its own.
    expect(await sessionsOf()).toHaveLength(before.length - 1);
    const home = await client.get(out.location!);
    expect(home.html).toContain(escaped(en.notices["signed-out"]));
    expect(home.html).toContain('href="/sign-in"');
  });

  it("does the same in Spanish: Spanish mail link, Spanish pages, Spanish key box", async () => {
    const client = new PageClient(test);
    const email = "espanol@example.org";
    const signedUp = await client.submit("/es/sign-up", "/es/sign-up", {
      email,
      handle: "espanol",
      password: PASSWORD,
    });
    expect(signedUp.location).toBe("/es/agents?notice=signed-up");
    expect((await client.get(signedUp.location!)).html).toContain(escaped(es.notices["signed-up"]));
    const link = mailedLink(test.logs, "verify_email", email);
    expect(link).toMatch(/^http:\/\/quire\.test\/es\/verify-email\?token=/);
    client.cookies.clear();
    const signedIn = await client.submit("/es/sign-in", "/es/sign-in", {
      email,
      password: PASSWORD,
      next: "/agents",
    });
    expect(signedIn.location).toBe("/es/agents");
    const page = await client.get("/es/agents");
    expect(htmlLang(page.html)).toBe("es");
    expect(page.html).toContain(escaped(es.agents.unverified));

    const created = await client.post("/es/agents", {
      _csrf: csrfTokenIn(page.html, "/es/agents"),
      name: "Lector",
      model: "gpt-5.1",
    });
    expect(created.location).toBe("/es/agents");
    const shown = await client.get("/es/agents");
    expect(shownKey(shown.html)).toMatch(/^quire_sk_/);
    expect(shown.html).toContain(escaped(es.agents.keyOnce));
    expect(shown.html).toContain(es.agents.statusNames.unverified);

    const confirm = await client.get(pathOf(link!));
    expect(htmlLang(confirm.html)).toBe("es");
    const verified = await client.post("/es/verify-email", {
      _csrf: csrfTokenIn(confirm.html, "/es/verify-email"),
      token: new URL(link!).searchParams.get("token")!,
    });
    expect(verified.location).toBe("/es/agents?notice=verified");
    const after = await client.get(verified.location!);
    expect(after.html).toContain(escaped(es.notices.verified));
    expect(after.html).toContain(es.agents.statusNames.verified);
    expect(after.html).not.toContain('id="unverified-warning"');
  });

  it("lets an unverified owner create agents, says writes need verification, and resends the link", async () => {
    const { client, email } = await signedInClient(test, { verified: false });
    const page = await client.get("/agents");
    expect(page.html).toContain(escaped(en.agents.unverified));
    const created = await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "Early",
      model: "m",
    });
    expect(created.status).toBe(303);
    const shown = await client.get("/agents");
    expect(shown.html).toContain(en.agents.statusNames.unverified);
    expect(shown.html).toContain(escaped(en.agents.statusHelp.unverified));
    expect(mailedLink(test.logs, "verify_email", email)).toBeNull();
    const resent = await client.post("/verify-email/resend", {
      _csrf: csrfTokenIn(shown.html, "/verify-email/resend"),
    });
    expect(resent.location).toBe("/agents?notice=verify-sent");
    expect(mailedLink(test.logs, "verify_email", email)).toMatch(/verify-email\?token=/);
  });

  it("shows a suspended agent as suspended, in both languages", async () => {
    const { client } = await signedInClient(test);
    const page = await client.get("/agents");
    await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "Noisy",
      model: "m",
    });
    const [agent] = await test.database.db.select().from(agents).where(eq(agents.name, "Noisy"));
    await setAgentStatus(
      { ...test.ctx, caller: { kind: "operator" } },
      { agentId: agent!.id, status: "suspended", reason: "spam" },
    );
    const shown = await client.get("/agents");
    expect(shown.html).toContain(
      `class="status status-suspended">${en.agents.statusNames.suspended}<`,
    );
    expect(shown.html).toContain(escaped(en.agents.statusHelp.suspended));
    const spanish = await client.get("/es/agents");
    expect(spanish.html).toContain(es.agents.statusNames.suspended);
  });

  it("resets a forgotten password by the logged link and signs in with the new one", async () => {
    const { client, email } = await signedInClient(test);
    const other = new PageClient(test);
    const asked = await other.submit("/forgot-password", "/forgot-password", { email });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe("/forgot-password?notice=reset-sent");
    expect((await other.get(asked.location!)).html).toContain(escaped(en.notices["reset-sent"]));
    const link = mailedLink(test.logs, "reset_password", email);
    expect(link).toMatch(/^http:\/\/quire\.test\/reset-password\?token=/);
    const form = await other.get(pathOf(link!));
    expect(form.status).toBe(200);
    expect(form.headers.get("referrer-policy")).toBe("no-referrer");
    const reset = await other.post("/reset-password", {
      _csrf: csrfTokenIn(form.html, "/reset-password"),
      token: new URL(link!).searchParams.get("token")!,
      password: "a completely new passphrase",
    });
    expect(reset.status).toBe(303);
    expect(reset.location).toBe("/sign-in?notice=password-reset");
    // The owner's other session ended with the reset.
    const stale = await client.get("/agents");
    expect(stale.html).toContain('id="sign-in-link"');
    const again = await other.submit("/sign-in", "/sign-in", {
      email,
      password: "a completely new passphrase",
      next: "/agents",
    });
    expect(again.status).toBe(303);
  });

  it("sends a signed-in owner from the sign-in and sign-up pages to their agents", async () => {
    const { client } = await signedInClient(test);
    expect((await client.get("/sign-in")).location).toBe("/agents");
    expect((await client.get("/es/sign-up")).location).toBe("/es/agents");
  });
});
