/**
 * Script payloads typed into the site's forms, then rendered where the site shows them, in
 * Chromium with the page's CSP turned off: the escaping alone must hold (the CSP is a second
 * wall, not the first). Every payload that ran would open a dialog or set `window.__xss`, and
 * any element it injected would carry an `on…` attribute or be an inline script or style, an
 * iframe, object or embed, or a `javascript:` link, none of which the site serves (its CSP
 * forbids inline scripts, styles and handlers).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOwnerOverHttp,
  inPage,
  launchChromium,
  type Owner,
  openTab,
  type Site,
  serveSite,
  signInWithForm,
} from "../../src/testing/browser.ts";

/**
 * Payloads for the contexts the site renders into: element text, attribute values (quoted),
 * table cells, and headings. A local list until a shared src/testing/xss-payloads.ts exists.
 * Each fits an agent name (80 characters).
 */
const PAYLOADS = [
  `<script>window.__xss=1;alert("script")</script>`,
  `<img src=x onerror="window.__xss=1;alert('img')">`,
  `"><svg onload=window.__xss=1;alert('svg')>`,
  `'><img src=x onerror=alert('quote')>`,
  `" autofocus onfocus="window.__xss=1;alert('attr')`,
  `</th></tr></table><iframe srcdoc="<script>parent.__xss=1</script>">`,
  `</title></textarea><script>alert('close')</script>`,
  `<a href="javascript:window.__xss=1">link</a><style>*{color:red}</style>`,
  `<details open ontoggle=alert('toggle')>`,
] as const;

/** What a payload that got through would leave in the document. */
const INJECTED = `(() => {
  const handlers = [...document.querySelectorAll("*")].filter((e) =>
    [...e.attributes].some((a) => a.name.toLowerCase().startsWith("on")));
  const foreign = document.querySelectorAll(
    'script:not([src]):not([type="application/ld+json"]), style, iframe, object, embed, a[href^="javascript:"]');
  return { handlers: handlers.length, foreign: foreign.length, marker: typeof window.__xss };
})()`;

async function expectNothingRan(page: Page, dialogs: string[]): Promise<void> {
  expect(await inPage(page, INJECTED)).toEqual({ handlers: 0, foreign: 0, marker: "undefined" });
  expect(dialogs).toEqual([]);
}

let browser: Browser;
let site: Site;
let owner: Owner;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_xss")]);
  owner = await createOwnerOverHttp(site, "xss-owner");
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe("payloads as agent names and models", () => {
  it("are shown as text on the agents page and in the key box, in both languages", async () => {
    const tab = await openTab(browser, { bypassCSP: true });
    const { page, dialogs } = tab;
    try {
      await signInWithForm(page, site, owner);
      for (const payload of PAYLOADS) {
        await page.getByLabel("Name", { exact: true }).fill(payload);
        await page.getByLabel("Model", { exact: true }).fill(payload);
        await page.getByRole("button", { name: "Create agent and key" }).click();
        await page.locator("#new-key").waitFor();
        // The key box names the agent in its heading.
        expect(await page.locator("#new-key-title").textContent()).toContain(payload);
        await expectNothingRan(page, dialogs);
      }
      for (const path of ["/agents", "/es/agents"]) {
        await page.goto(`${site.base}${path}`);
        await expectNothingRan(page, dialogs);
        const names = await page.locator("#agents tbody th").allTextContents();
        expect([...names].sort()).toEqual([...PAYLOADS].sort());
        const models = await page.locator("#agents tbody td:nth-child(2)").allTextContents();
        expect([...models].sort()).toEqual([...PAYLOADS].sort());
        // The row buttons carry the name in their accessible names, as text.
        const labels = await inPage<string[]>(
          page,
          `[...document.querySelectorAll("#agents button")].map((b) => b.getAttribute("aria-label"))`,
        );
        for (const payload of PAYLOADS) {
          expect(labels.filter((l) => l.endsWith(payload))).toHaveLength(2);
        }
      }
    } finally {
      await tab.close();
    }
  });

  it("are kept as text in the form when it comes back with errors", async () => {
    const tab = await openTab(browser, { bypassCSP: true });
    const { page, dialogs } = tab;
    try {
      await signInWithForm(page, site, owner);
      for (const payload of PAYLOADS) {
        // With no model the form is refused and shows the name again, in its field.
        await page.getByLabel("Name", { exact: true }).fill(payload);
        await page.getByRole("button", { name: "Create agent and key" }).click();
        await page.locator("#agent-model-error").waitFor();
        await expectNothingRan(page, dialogs);
        expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe(payload);
      }
    } finally {
      await tab.close();
    }
  });
});

describe("payloads as an owner's handle and email", () => {
  it("are refused by sign-up and shown back as text, in both languages", async () => {
    const tab = await openTab(browser, { bypassCSP: true });
    const { page, dialogs } = tab;
    try {
      for (const [i, payload] of PAYLOADS.entries()) {
        const prefix = i % 2 === 0 ? "" : "/es";
        await page.goto(`${site.base}${prefix}/sign-up`);
        await page.locator("#email").fill(payload);
        await page.locator("#handle").fill(payload);
        await page.locator("#password").fill("long enough to pass the length rule");
        await page.locator("#sign-up-form button[type=submit]").click();
        await page.locator("#handle-error").waitFor();
        await expectNothingRan(page, dialogs);
        expect(await page.locator("#email").inputValue()).toBe(payload);
        // The field holds 32 characters: the browser sent (and gets back) that much.
        expect(await page.locator("#handle").inputValue()).toBe(payload.slice(0, 32));
      }
    } finally {
      await tab.close();
    }
  });
});
