/**
 * Search on the site as a reader uses it, in Chromium against a real `quire serve` with the
 * sample papers and Apertium (issue 16, "Done when"): an English query finds the Spanish
 * paper, a query that matches nothing says so, and a Spanish query finds an English paper.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { es } from "../../src/http/pages/i18n/es.ts";
import { findApertium } from "../../src/services/search/translate.ts";
import {
  launchChromium,
  openTab,
  type Site,
  screenshot,
  serveSite,
} from "../../src/testing/browser.ts";

let browser: Browser;
let site: Site;

beforeAll(async () => {
  // CI installs apertium-en-es (.ci/run); cross-lingual search is what this file checks.
  if (!findApertium()) {
    throw new Error("Apertium with the en-es pair is needed: apt install apertium-en-es");
  }
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_search")]);
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** Types a query into the home page's search field and submits it with Enter. */
async function search(page: Page, label: string, query: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.click();
  await field.fill(query);
  await Promise.all([page.waitForURL(/[?&]q=/), field.press("Enter")]);
}

describe("search on the site, in Chromium", () => {
  it("finds the Spanish sample paper for “curve number”, grouped, highlighted, without Markdown", async () => {
    const tab = await openTab(browser, { viewport: "desktop" });
    const { page } = tab;
    try {
      await page.goto(`${site.base}/`);
      await search(page, en.reading.home.searchLabel, "curve number");
      // Among the first three papers: two English samples whose figures are curves can rank
      // above it on the word "curve" alone (src/services/search/cross-lingual.apertium.test.ts).
      const results = page.locator("#search-results ol.results > li.result");
      const curve = /^El método del número de curva en cuencas andinas de páramo/;
      await expect
        .poll(async () =>
          (await results.locator("h3").allTextContents()).slice(0, 3).some((t) => curve.test(t)),
        )
        .toBe(true);
      const found = results.filter({ has: page.locator("h3", { hasText: curve }) });
      const marks = (await found.locator("blockquote.snippet mark").allTextContents()).map((m) =>
        m.toLowerCase(),
      );
      expect(marks.some((m) => m.startsWith("curva"))).toBe(true);
      expect(marks.some((m) => m.startsWith("númer"))).toBe(true);
      for (const snippet of await page.locator("blockquote.snippet").allTextContents()) {
        expect(snippet).not.toMatch(/(^|\s)#{1,6}\s|\*\*|`/);
      }
      // No percentage beside a passage: the score is for ordering, and over the samples the
      // best match would read "1 %" (the score is calibrated on an archive of SciFact's size).
      const lines = await page.locator("#search-results ul.passages > li > span").allTextContents();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toMatch(/%/);
      // One title per paper: passages of a paper are grouped under it.
      const titles = await page
        .locator("#search-results ol.results > li.result h3")
        .allTextContents();
      expect(new Set(titles).size).toBe(titles.length);
      await screenshot(page, "search-curve-number");
    } finally {
      await tab.close();
    }
  });

  it("says “no close matches” for a query that matches nothing, in English and Spanish", async () => {
    const tab = await openTab(browser, { viewport: "phone" });
    const { page } = tab;
    const q = "zebra migration across savanna rivers";
    try {
      await page.goto(`${site.base}/`);
      await search(page, en.reading.home.searchLabel, q);
      await expect
        .poll(() => page.locator("#no-close-matches").textContent())
        .toBe(en.reading.home.noCloseMatches(q));
      await page.goto(`${site.base}/es`);
      await search(page, es.reading.home.searchLabel, q);
      await expect
        .poll(() => page.locator("#no-close-matches").textContent())
        .toBe(es.reading.home.noCloseMatches(q));
      await screenshot(page, "search-no-close-matches-es");
    } finally {
      await tab.close();
    }
  });

  it("finds an English sample paper for a Spanish query", async () => {
    const tab = await openTab(browser, { viewport: "desktop" });
    const { page } = tab;
    try {
      await page.goto(`${site.base}/es`);
      await search(
        page,
        es.reading.home.searchLabel,
        "suma compensada de números de coma flotante",
      );
      await expect
        .poll(() => page.locator("#search-results ol.results > li.result h3").first().textContent())
        .toMatch(/^Compensated Summation in Practice/);
    } finally {
      await tab.close();
    }
  });
});
