/**
 * @module The site as a person sees it: PNGs at 390 and 1280 px of the home page, a sample
 * paper with figures, math and a table, search, /agents (signed in) and the OAuth consent page, in
 * artifacts/screenshots/archive/ (git-ignored) for someone to look at; with the layout checks a
 * picture would show (the reading face loaded, a centred column of about 70 characters, one
 * screening badge, abstract before the facts, numbers right-aligned, math at text size, the
 * signed-in header on one line at 1280 px), and the paper printed to PDF under the print rules.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeCheck,
  createAgentOverHttp,
  createOwnerOverHttp,
  horizontalOverflow,
  inPage,
  launchChromium,
  type Site,
  serveSite,
  signInOverHttp,
  storageStateOf,
} from "../../src/testing/browser.ts";
import { pkce, rawOAuth } from "../../src/testing/oauth.ts";

const OUT = fileURLToPath(new URL("../../artifacts/screenshots/archive/", import.meta.url));
const WIDTHS = [390, 1280] as const;
/**
 * The sample paper from LaTeX: figures with captions, inline and display math with numbered
 * equations and their references, a theorem, a table of numbers and a bibliography.
 */
const MATH_PAPER_TITLE = "Exact Coverage of the Wald and Wilson Intervals";

let browser: Browser;
let site: Site;
let paperId = "";
let consentUrl = "";
let owner: BrowserContextOptions["storageState"];

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_screenshots")]);
  const listed = await fetch(`${site.base}/api/v1/papers?limit=100`);
  const { papers } = (await listed.json()) as { papers: { id: string; title: string }[] };
  paperId = papers.find((p) => p.title.startsWith(MATH_PAPER_TITLE))?.id ?? "";
  if (!paperId) throw new Error("the sample paper with figures and math was not loaded");
  // A handle as long as the form allows, so the header is shown at its widest.
  const client = await signInOverHttp(
    site,
    await createOwnerOverHttp(site, "screenshot-owner-long"),
  );
  await createAgentOverHttp(client, "Summation reviewer");
  await createAgentOverHttp(client, "Literature scout");
  owner = storageStateOf(site, client);
  const oauth = rawOAuth(site.base, "http://127.0.0.1:9/callback");
  const clientId = await oauth.register("http://127.0.0.1:9/callback", "Notebook assistant");
  consentUrl = oauth.authorizeUrl(clientId, pkce().challenge).toString();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function open(width: number, signedIn: boolean, lang: "en" | "es" = "en") {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 800 },
    isMobile: width < 600,
    hasTouch: width < 600,
    locale: lang === "es" ? "es-ES" : "en-GB",
    ...(signedIn ? { storageState: owner } : {}),
  });
  return { context, page: await context.newPage() };
}

async function shoot(page: Page, name: string, width: number): Promise<void> {
  await page.evaluate("document.fonts.ready");
  // Figures load lazily, as a reader scrolls; the full-page picture shows them all.
  await page.evaluate(
    `Promise.all([...document.images].map((img) => {
      img.loading = "eager";
      return img.complete ? null : new Promise((done) => { img.onload = img.onerror = done; });
    }))`,
  );
  await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
}

const SHOTS = [
  { name: "home", path: "/", signedIn: false },
  { name: "paper-math", path: "/papers/{paper}", signedIn: false },
  { name: "search", path: "/?q=rounding%20error", signedIn: false },
  { name: "agents", path: "/agents", signedIn: true },
  { name: "consent", path: "{consent}", signedIn: true },
  { name: "paper-math-es", path: "/es/papers/{paper}", signedIn: true },
  { name: "agents-es", path: "/es/agents", signedIn: true },
] as const;

describe.each(WIDTHS)("at %i px", (width) => {
  it.each(SHOTS)("$name: shot, axe-clean, nothing sideways", async (shot) => {
    const { context, page } = await open(width, shot.signedIn);
    try {
      const target =
        shot.path === "{consent}"
          ? consentUrl
          : `${site.base}${shot.path.replace("{paper}", paperId)}`;
      const res = await page.goto(target);
      expect(res?.status()).toBe(200);
      await shoot(page, shot.name, width);
      expect(await horizontalOverflow(page, width)).toBe(0);
      expect(await axeCheck(page)).toEqual([]);
      // The reading face is the site's own file, loaded (not a fallback).
      expect(await inPage<boolean>(page, `document.fonts.check('1rem "Source Serif 4"')`)).toBe(
        true,
      );
    } finally {
      await context.close();
    }
  });
});

describe("the paper page's layout", () => {
  it("reads as a journal: a centred measure, abstract first, one badge, numbers right, math at text size", async () => {
    const { context, page } = await open(1280, false);
    try {
      await page.goto(`${site.base}/papers/${paperId}`);
      await page.evaluate("document.fonts.ready");
      const facts = await inPage<{
        left: number;
        right: number;
        perLine: number;
        family: string;
        order: string[];
        badges: number;
        numAlign: string[];
        mathRatio: number;
      }>(
        page,
        `(() => {
          const p = document.querySelector('#paper-body p');
          const box = p.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(p);
          const lines = [...range.getClientRects()].map((r) => Math.round(r.top));
          const lineCount = new Set(lines).size;
          const inline = document.querySelector('#paper-body p math:not([display])');
          return {
            left: box.left,
            right: innerWidth - box.right,
            perLine: p.textContent.length / lineCount,
            family: getComputedStyle(p).fontFamily,
            order: [...document.querySelectorAll('article.paper > section')].map((s) => s.className || s.id),
            badges: document.querySelectorAll('main .badge').length,
            numAlign: [...document.querySelectorAll('#paper-body td.num')].map((td) => getComputedStyle(td).textAlign),
            mathRatio: parseFloat(getComputedStyle(inline).fontSize) / parseFloat(getComputedStyle(p).fontSize),
          };
        })()`,
      );
      expect(Math.abs(facts.left - facts.right)).toBeLessThan(20);
      expect(facts.perLine).toBeGreaterThan(60);
      expect(facts.perLine).toBeLessThan(85);
      expect(facts.family).toMatch(/^"Source Serif 4"/);
      expect(facts.order.indexOf("abstract")).toBeLessThan(facts.order.indexOf("paper-details"));
      expect(facts.badges).toBe(1);
      expect(facts.numAlign.length).toBeGreaterThan(0);
      expect(new Set(facts.numAlign)).toEqual(new Set(["right"]));
      expect(facts.mathRatio).toBe(1);
    } finally {
      await context.close();
    }
  });

  it.each(["en", "es"] as const)(
    "keeps the signed-in header on one line at 1280 px (%s)",
    async (lang) => {
      const { context, page } = await open(1280, true, lang);
      try {
        await page.goto(`${site.base}${lang === "es" ? "/es" : ""}/agents`);
        const tops = await inPage<number[]>(
          page,
          `[...document.querySelectorAll('.brand, .site-header nav li, .account > *, #language-switch')]
             .map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))`,
        );
        expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(12);
      } finally {
        await context.close();
      }
    },
  );
});

describe("the Spanish site", () => {
  it("marks English titles as English", async () => {
    const { context, page } = await open(1280, false, "es");
    try {
      await page.goto(`${site.base}/es/`);
      const langs = await inPage<(string | null)[]>(
        page,
        `[...document.querySelectorAll('.paper-card h3 a')].map((a) => a.getAttribute('lang'))`,
      );
      expect(langs.length).toBeGreaterThan(5);
      expect(langs).toContain("en");
      expect(langs).toContain("es"); // the sample paper written in Spanish
      await page.goto(`${site.base}/es/papers/${paperId}`);
      expect(await page.getAttribute("#paper-title", "lang")).toBe("en");
    } finally {
      await context.close();
    }
  });
});

describe("printing a paper", () => {
  it("has page margins, hides navigation and forms, prints no relative address, and makes a PDF", async () => {
    const { context, page } = await open(1280, true);
    try {
      await page.goto(`${site.base}/papers/${paperId}`);
      await page.emulateMedia({ media: "print" });
      const printed = await inPage<{
        hidden: Record<string, string[]>;
        shown: string[];
        afters: { href: string; after: string }[];
        pageRule: boolean;
      }>(
        page,
        `(() => {
          const display = (sel) => [...document.querySelectorAll(sel)].map((e) => getComputedStyle(e).display);
          const rules = [...document.styleSheets].flatMap((s) => [...s.cssRules]);
          return {
            hidden: {
              nav: display('.site-header nav'),
              account: display('.site-header .account'),
              lang: display('.lang-switch'),
              footer: display('.site-footer'),
              forms: display('main form'),
              buttons: display('main button'),
            },
            shown: display('#paper-title, #abstract-title, #paper-body'),
            afters: [...document.querySelectorAll('main a[href]')].map((a) => ({
              href: a.getAttribute('href'),
              after: getComputedStyle(a, '::after').content,
            })),
            pageRule: rules.some((r) => r.constructor.name === 'CSSPageRule' && r.style.marginTop !== ''),
          };
        })()`,
      );
      expect(printed.pageRule).toBe(true);
      for (const [what, values] of Object.entries(printed.hidden)) {
        expect(values.length, what).toBeGreaterThan(0);
        expect(new Set(values), what).toEqual(new Set(["none"]));
      }
      expect(printed.shown).not.toContain("none");
      expect(printed.afters.length).toBeGreaterThan(5);
      for (const { href, after } of printed.afters) {
        // Nothing, or an absolute address; never a relative one like "/?keyword=…".
        expect(after, href).toMatch(/^(none|normal|" \(" attr\(href\) "\)")$/);
        if (after !== "none" && after !== "normal") expect(href).toMatch(/^https?:\/\//);
      }
      const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      writeFileSync(join(OUT, "paper-math.pdf"), pdf);
    } finally {
      await context.close();
    }
  });
});
