/**
 * What a person does on the site, in Chromium against a real `quire serve` with its mail caught
 * by an SMTP sink, by clicks and typing: signing up, confirming by the mailed link, signing in
 * and managing an agent's key; switching language; moving by keyboard; and forms answering bad
 * input with errors next to the fields.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { es } from "../../src/http/pages/i18n/es.ts";
import { PASSWORD_MIN } from "../../src/services/owners/password.ts";
import {
  axeCheck,
  horizontalOverflow,
  inPage,
  launchChromium,
  openTab,
  type Site,
  screenshot,
  serveSite,
  VIEWPORTS,
  verificationLink,
} from "../../src/testing/browser.ts";

let browser: Browser;
let site: Site;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_flows")]);
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** Clicks into a field and types, key by key. */
async function type(page: Page, label: string, text: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.click();
  await field.pressSequentially(text);
}

/** The status of GET /api/v1/me with an agent key. */
async function meStatus(key: string): Promise<number> {
  const res = await fetch(`${site.base}/api/v1/me`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  return res.status;
}

describe("an owner, by clicks and typing at phone width", () => {
  it("signs up, confirms by the mailed link, signs in, and creates, rotates and revokes a key", async () => {
    const tab = await openTab(browser, { viewport: "phone" });
    const { page } = tab;
    try {
      const email = "flow-owner@example.org";
      const password = "a phrase typed in a browser";
      await page.goto(`${site.base}/`);
      await page.getByRole("link", { name: "Sign up" }).click();
      await page.waitForURL(`${site.base}/sign-up`);
      await type(page, "Email", email);
      await type(page, "Handle", "flow-owner");
      await type(page, "Password", password);
      const mailed = site.mailTo(email);
      await page.getByRole("button", { name: "Create account" }).click();
      // Signed in at once, asked to confirm the email.
      await page.waitForURL(`${site.base}/agents?notice=signed-up`);
      await expect.poll(() => page.locator("#notice").textContent()).toBe(en.notices["signed-up"]);
      await page.getByRole("button", { name: en.layout.signOut }).click();
      await page.waitForURL(`${site.base}/?notice=signed-out`);

      await page.goto(verificationLink(await mailed));
      await page.getByRole("button", { name: en.verify.submit }).click();
      await page.waitForURL(`${site.base}/agents?notice=verified`);
      await page.getByRole("link", { name: en.agents.signInToManage }).click();
      await page.waitForURL(`${site.base}/sign-in?next=/agents`);
      await type(page, "Email", email);
      await type(page, "Password", password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${site.base}/agents`);
      expect(await page.locator("h1").textContent()).toBe(en.agents.ownTitle);
      expect(await page.locator("#unverified-warning").count()).toBe(0);

      // An empty form first: the errors sit beside the fields.
      await page.getByRole("button", { name: en.agents.create }).click();
      await page.locator("#agent-name-error").waitFor();
      expect(await page.locator("#agent-name-error").textContent()).toBe(en.errors.agentName);
      expect(await page.locator("#agent-model-error").textContent()).toBe(en.errors.agentModel);
      expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe(
        "true",
      );

      await type(page, "Name", "Flow bot");
      await type(page, "Model", "flow-model-1");
      await page.getByRole("button", { name: en.agents.create }).click();
      await page.waitForURL(`${site.base}/agents`);
      const first = await page.locator("#new-key").inputValue();
      expect(first).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
      expect(await meStatus(first)).toBe(200);
      // The key box on a phone: nothing scrolls sideways, nothing axe objects to.
      expect(await horizontalOverflow(page, VIEWPORTS.phone.width)).toBe(0);
      expect(await axeCheck(page)).toEqual([]);
      await screenshot(page, "agents-new-key-phone");

      await page.reload();
      expect(await page.locator("#new-key").count()).toBe(0);
      expect(await page.content()).not.toContain(first);

      await page.getByRole("button", { name: en.agents.rotateLabel("Flow bot") }).click();
      await page.locator("#new-key").waitFor();
      const second = await page.locator("#new-key").inputValue();
      expect(second).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
      expect(second).not.toBe(first);
      expect(await meStatus(first)).toBe(401);
      expect(await meStatus(second)).toBe(200);

      await page.getByRole("button", { name: en.agents.revokeLabel("Flow bot") }).click();
      await page.waitForURL(`${site.base}/agents?notice=key-revoked`);
      expect(await page.locator("#notice").textContent()).toBe(en.notices["key-revoked"]);
      expect(await page.locator("#agents tbody tr").first().textContent()).toContain(
        en.agents.noKey,
      );
      expect(await meStatus(second)).toBe(401);
      expect(tab.consoleErrors.filter((e) => !e.includes("status of 400"))).toEqual([]);
      expect(tab.dialogs).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

describe("the language switch", () => {
  it("keeps the path and query, and the choice holds for the next visit", async () => {
    // A browser that prefers Spanish is sent to Spanish on its first visit...
    const tab = await openTab(browser, { lang: "es" });
    const { page } = tab;
    try {
      await page.goto(`${site.base}/sign-in?next=/agents`);
      expect(page.url()).toBe(`${site.base}/es/sign-in?next=/agents`);
      expect(await page.getAttribute("html", "lang")).toBe("es");

      // ...switches to English on the same page, with the same query...
      await page.getByRole("link", { name: en.meta.name }).click();
      await page.waitForURL(`${site.base}/sign-in?next=/agents`);
      expect(await page.getAttribute("html", "lang")).toBe("en");
      expect(await page.locator('input[name="next"]').inputValue()).toBe("/agents");

      // ...and its next visit stays in English, Accept-Language notwithstanding.
      await page.goto(`${site.base}/agents`);
      expect(page.url()).toBe(`${site.base}/agents`);
      expect(await page.getAttribute("html", "lang")).toBe("en");
      const cookies = await tab.context.cookies();
      expect(cookies.find((c) => c.name === "quire_lang")?.value).toBe("en");

      // Back to Spanish from the home page, with its query.
      await page.goto(`${site.base}/?notice=signed-out`);
      await page.getByRole("link", { name: es.meta.name }).click();
      await page.waitForURL(`${site.base}/es?notice=signed-out`);
      expect(await page.getAttribute("html", "lang")).toBe("es");
      expect(await page.locator("#notice").textContent()).toBe(es.notices["signed-out"]);
    } finally {
      await tab.close();
    }
  });
});

describe("the keyboard", () => {
  it.each(["/", "/es/sign-up", "/agents"])(
    "on %s, Tab reaches the skip link first, visibly, and it moves focus to main",
    async (path) => {
      const tab = await openTab(browser, { lang: path.startsWith("/es") ? "es" : "en" });
      const { page } = tab;
      try {
        await page.goto(`${site.base}${path}`);
        await page.keyboard.press("Tab");
        const focused = await inPage<{ cls: string; href: string | null; outline: string }>(
          page,
          `(() => { const e = document.activeElement; return { cls: e.className, href: e.getAttribute("href"), outline: getComputedStyle(e).outlineStyle }; })()`,
        );
        expect(focused).toEqual({ cls: "skip", href: "#main", outline: "solid" });
        const box = await page.locator("a.skip").boundingBox();
        expect(box && box.x >= 0 && box.y >= 0 && box.width > 0).toBe(true);

        await page.keyboard.press("Enter");
        await page.waitForURL(`${site.base}${path}#main`);
        expect(await inPage<string>(page, "document.activeElement.id")).toBe("main");
        await page.keyboard.press("Tab");
        expect(
          await inPage<boolean>(
            page,
            "document.getElementById('main').contains(document.activeElement) && document.activeElement.id !== 'main'",
          ),
        ).toBe(true);
      } finally {
        await tab.close();
      }
    },
  );
});

describe("forms given bad input", () => {
  it.each([
    ["en", en, "/sign-up"],
    ["es", es, "/es/sign-up"],
  ] as const)("show each error next to its field (%s)", async (lang, t, path) => {
    const tab = await openTab(browser, { lang });
    const { page } = tab;
    try {
      await page.goto(`${site.base}${path}`);
      await type(page, t.form.email, "not-an-email");
      await type(page, t.form.handle, "!");
      await type(page, t.form.password, "short");
      await page.getByRole("button", { name: t.signUp.submit }).click();
      await page.locator("#form-errors").waitFor();

      const expected = {
        email: t.errors.email,
        handle: t.errors.handle,
        password: t.errors.passwordShort(PASSWORD_MIN),
      };
      for (const [id, message] of Object.entries(expected)) {
        const field = await inPage<{
          invalid: string | null;
          describedBy: string;
          besideError: string | undefined;
        }>(
          page,
          `(() => { const i = document.getElementById(${JSON.stringify(id)}); return { invalid: i.getAttribute("aria-invalid"), describedBy: i.getAttribute("aria-describedby") ?? "", besideError: i.closest(".field").querySelector(".field-error")?.textContent }; })()`,
        );
        expect(field.invalid, id).toBe("true");
        expect(field.describedBy.split(" "), id).toContain(`${id}-error`);
        expect(field.besideError, id).toBe(message);
        expect(await page.locator(`#form-errors a[href="#${id}"]`).textContent()).toBe(message);
      }
      expect(await page.getByLabel(t.form.email, { exact: true }).inputValue()).toBe(
        "not-an-email",
      );
      expect(await page.getByLabel(t.form.password, { exact: true }).inputValue()).toBe("");
      expect(await axeCheck(page)).toEqual([]);
      await screenshot(page, "sign-up-errors-desktop");
    } finally {
      await tab.close();
    }
  });
});
