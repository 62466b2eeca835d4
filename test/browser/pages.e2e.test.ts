/**
 * Every page in PAGES, in English and Spanish, at desktop and phone widths, in Chromium against
 * a real `quire serve`: the right status and `<html lang>`, no serious or critical axe-core
 * violations, nothing scrolling sideways, under 100 KB of HTML, CSS and JS, no console errors
 * or dialogs, and on Spanish pages none of the site's English sentences. A screenshot of each
 * goes to artifacts/screenshots/<lang>/<name>-<width>.png; English pages at desktop width are
 * also checked for contrast, and shot, in the dark colour scheme.
 */
import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { es } from "../../src/http/pages/i18n/es.ts";
import { type Lang, localePath } from "../../src/http/pages/i18n/index.ts";
import {
  axeCheck,
  createOwnerOverHttp,
  horizontalOverflow,
  launchChromium,
  openTab,
  type Site,
  screenshot,
  serveSite,
  signInWithForm,
  VIEWPORTS,
  type ViewportName,
  visibleText,
} from "../../src/testing/browser.ts";
import { PAGES, type SitePage, type Visitor } from "./pages.ts";

const MAX_PAGE_BYTES = 100 * 1024;

let browser: Browser;
let site: Site;
const states: Partial<Record<Visitor, BrowserContextOptions["storageState"]>> = {};
/** The newest sample paper's id, for `{paper}` in PAGES. */
let paperId: string;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_pages")]);
  const papers = (await (await fetch(`${site.base}/api/v1/papers?limit=1`)).json()) as {
    papers: { id: string }[];
  };
  paperId = papers.papers[0]?.id ?? "";
  if (!paperId) throw new Error("the sample papers were not loaded");
  const [verified, unverified] = await Promise.all([
    createOwnerOverHttp(site, "pages-owner"),
    createOwnerOverHttp(site, "pages-unverified", { verified: false }),
  ]);
  for (const [visitor, owner] of [
    ["owner", verified],
    ["unverified-owner", unverified],
  ] as const) {
    const tab = await openTab(browser);
    await signInWithForm(tab.page, site, owner);
    if (visitor === "owner") {
      // Two agents, one of them without a key, so the table shows both kinds of row.
      for (const name of ["Reader bot", "Retired bot"]) {
        await tab.page.getByLabel("Name", { exact: true }).fill(name);
        await tab.page.getByLabel("Model", { exact: true }).fill("test-model-1");
        await tab.page.getByRole("button", { name: "Create agent and key" }).click();
        await tab.page.locator("#new-key").waitFor();
      }
      await tab.page.getByRole("button", { name: "Revoke key for Retired bot" }).click();
      await tab.page.locator("#notice").waitFor();
    }
    states[visitor] = await tab.context.storageState();
    await tab.close();
  }
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** The URL of a page (path with query) in a language. */
function urlOf(page: SitePage, lang: Lang): string {
  const full = page.path.replaceAll("{paper}", paperId);
  const q = full.indexOf("?");
  const path = q >= 0 ? full.slice(0, q) : full;
  const query = q >= 0 ? full.slice(q) : "";
  return `${site.base}${localePath(lang, path)}${query}`;
}

const SENTINEL = "\u0000";

/**
 * The English catalog's sentences (string leaves, and the fixed parts of message functions)
 * of more than three words that the Spanish catalog does not also use.
 */
function englishSentences(): string[] {
  const fragments = (node: unknown, out: Set<string>) => {
    if (typeof node === "string") out.add(node);
    else if (typeof node === "function") {
      const text = String((node as (...args: unknown[]) => unknown)(SENTINEL, SENTINEL));
      for (const part of text.split(SENTINEL)) out.add(part);
    } else if (node && typeof node === "object") {
      for (const value of Object.values(node)) fragments(value, out);
    }
    return out;
  };
  const normal = (s: string) => s.replace(/\s+/g, " ").trim();
  const spanish = new Set([...fragments(es, new Set())].map(normal));
  return [...fragments(en, new Set())]
    .map(normal)
    .filter((s) => s.split(" ").length > 3 && !spanish.has(s));
}

const ENGLISH = englishSentences();

describe("the English sentences the Spanish check looks for", () => {
  it("include the site chrome's", () => {
    expect(ENGLISH).toContain(en.layout.skip);
    expect(ENGLISH).toContain(en.layout.footer);
    expect(ENGLISH.length).toBeGreaterThan(50);
  });
});

const LANGS: Lang[] = ["en", "es"];
const WIDTHS = Object.keys(VIEWPORTS) as ViewportName[];

describe.each(LANGS)("every page in %s", (lang) => {
  describe.each(WIDTHS)("at %s width", (viewport) => {
    it.each(PAGES)("$name", async (sitePage) => {
      const tab = await openTab(browser, {
        lang,
        viewport,
        storageState: states[sitePage.as],
      });
      try {
        const { page } = tab;
        const url = urlOf(sitePage, lang);
        const res = await page.goto(url);
        expect(res?.status()).toBe(sitePage.status ?? 200);
        expect(page.url()).toBe(url);
        expect(await page.getAttribute("html", "lang")).toBe(lang);
        await screenshot(page, `${sitePage.name}-${viewport}`);

        expect(await axeCheck(page)).toEqual([]);
        expect(await horizontalOverflow(page, VIEWPORTS[viewport].width)).toBe(0);
        expect(await tab.weight()).toBeLessThan(MAX_PAGE_BYTES);
        if (lang === "es") {
          const text = (await visibleText(page)).replace(/\s+/g, " ");
          expect(ENGLISH.filter((s) => text.includes(s))).toEqual([]);
        }
        // A page that answers with an error status makes Chromium log it; nothing else may.
        const expected = `the server responded with a status of ${sitePage.status}`;
        expect(tab.consoleErrors.filter((e) => !(sitePage.status && e.includes(expected)))).toEqual(
          [],
        );
        expect(tab.dialogs).toEqual([]);

        if (lang === "en" && viewport === "desktop") {
          // The dark scheme changes only colours: contrast is what to check again.
          await page.emulateMedia({ colorScheme: "dark" });
          await screenshot(page, `${sitePage.name}-dark`);
          expect(await axeCheck(page, { rules: ["color-contrast"] })).toEqual([]);
        }
      } finally {
        await tab.close();
      }
    });
  });
});
