/**
 * @module Reading a paper in Chromium, in both languages and at both widths: TeX typeset as
 * MathML (inline and display, a bad formula shown as its source), highlighted code, a wide
 * table and a wide equation scrolling inside their boxes, the body in the reading font, axe
 * clean in the light and dark themes; and printing: no navigation, no relative link addresses.
 */
import { randomInt } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeCheck,
  createOwnerOverHttp,
  horizontalOverflow,
  inPage,
  launchChromium,
  openTab,
  type Site,
  screenshot,
  serveSite,
  signInOverHttp,
  VIEWPORTS,
} from "../../src/testing/browser.ts";

let browser: Browser;
let site: Site;
let paperId = "";
const nonce = randomInt(100_000, 999_999);

const WIDE_TABLE = [
  `| ${Array.from({ length: 14 }, (_, i) => `column ${i + 1}`).join(" | ")} |`,
  `|${"---|".repeat(14)}`,
  `| ${Array.from({ length: 14 }, (_, i) => `0.${1000 + i * 37}`).join(" | ")} |`,
].join("\n");

/** A paper with sections (so the rule screener publishes it), math of every kind, code and a wide table. */
const BODY = `## Introduction

This test paper (run ${nonce}) checks how a reading page typesets what research papers are made of. The loss of a weighted least-squares fit is $L(\\theta) = \\sum_j w_j (y_j - f_\\theta(x_j))^2$, and the same loss in the other notation is \\(L = \\lVert W^{1/2}(y - X\\theta) \\rVert_2^2\\). Each weight decays with age, so older observations count for less in every estimate we report below, and the decay rate is chosen on held-out data.

## Method

The estimator minimises the penalised loss:

$$
\\hat{\\theta} = \\arg\\min_{\\theta \\in \\mathbb{R}^d} \\sum_{j=1}^{n} e^{-\\lambda t_j} \\bigl(y_j - x_j^\\top \\theta\\bigr)^2 + \\mu \\lVert \\theta \\rVert_2^2 + \\nu \\lVert \\theta \\rVert_1 + \\frac{\\kappa}{2} \\sum_{k=1}^{d-1} (\\theta_{k+1} - \\theta_k)^2
$$

Its closed form without the \\(\\ell_1\\) term is

\\[
\\hat{\\theta} = (X^\\top W X + \\mu I)^{-1} X^\\top W y.
\\]

A formula with a typing slip, $\\frac{1}{$, is shown as its source rather than breaking the page.

## Code

\`\`\`python
def weighted_loss(theta, xs, ys, ws, lam=0.1):
    """Squared error with an L2 penalty."""
    total = sum(w * (y - model(theta, x)) ** 2 for x, y, w in zip(xs, ys, ws))
    return total + lam * sum(t * t for t in theta)
\`\`\`

## Results

${WIDE_TABLE}

## Limitations

The data are simulated, the decay rate is fixed per run, and nothing here was measured on real observations. The table above is wide on purpose: it has fourteen columns, more than a phone can show at once, so it must scroll inside its own box while the page itself stays still.`;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_reading")]);
  const author = await createOwnerOverHttp(site, "reading-author");
  const client = await signInOverHttp(site, author);
  const res = await client.submit("/submit", "/submit", {
    title: `Typesetting check ${nonce}: weighted least squares with an age decay`,
    abstract:
      "A test paper with inline and display mathematics, a formula that does not parse, highlighted Python and a wide table.",
    body: BODY,
    ai_model: "test-model-1",
    license: "CC-BY-4.0",
    keywords: "typesetting, mathematics",
    intent: "submit",
  });
  paperId = /\/my\/papers\/([^/?]+)/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
  if (res.status !== 303 || !paperId) throw new Error(`submitting the test paper: ${res.status}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe.each(["en", "es"] as const)("a paper with math and code (%s)", (lang) => {
  it.each(["desktop", "phone"] as const)("typesets and fits at %s width", async (viewport) => {
    const tab = await openTab(browser, { lang, viewport });
    const { page } = tab;
    try {
      const res = await page.goto(`${site.base}${lang === "es" ? "/es" : ""}/papers/${paperId}`);
      expect(res?.status()).toBe(200);
      const body = page.locator("#paper-body");
      // Inline math ($…$ and \(…\)) and display math ($$…$$ and \[…\]) as MathML.
      expect(await body.locator("math:not([display])").count()).toBeGreaterThanOrEqual(3);
      expect(await body.locator('.math-display math[display="block"]').count()).toBe(2);
      expect(await body.locator("mfrac").count()).toBeGreaterThanOrEqual(1);
      // The bad formula is its source; no delimiter is left in the text a reader sees.
      expect(await body.locator("code.math-source").textContent()).toBe("\\frac{1}{");
      const text = await body.innerText();
      expect(text).not.toContain("$");
      expect(text).not.toMatch(/\\[([]/);
      // Highlighted code, in a monospace font; the prose is not.
      expect(await body.locator("pre code .hljs-keyword").first().textContent()).toBe("def");
      expect(await body.locator("pre code .hljs-string").count()).toBeGreaterThanOrEqual(1);
      const fonts = await inPage<{ prose: string; code: string }>(
        page,
        `({ prose: getComputedStyle(document.querySelector('#paper-body p')).fontFamily,
            code: getComputedStyle(document.querySelector('#paper-body pre code')).fontFamily })`,
      );
      expect(fonts.prose).not.toMatch(/mono/i);
      expect(fonts.code).toMatch(/mono/i);
      // The wide table and equation scroll inside their boxes, never the page.
      expect(await horizontalOverflow(page, VIEWPORTS[viewport].width)).toBe(0);
      if (viewport === "phone") {
        const scrolls = await inPage<boolean[]>(
          page,
          `[...document.querySelectorAll('#paper-body .table-scroll, #paper-body .math-display')]
             .map((e) => e.scrollWidth > e.clientWidth)`,
        );
        expect(scrolls[0]).toBe(true); // the long equation
        expect(scrolls.at(-1)).toBe(true); // the table
      }
      expect(await axeCheck(page)).toEqual([]);
      expect(tab.consoleErrors).toEqual([]);
      await screenshot(page, `paper-math-${VIEWPORTS[viewport].width}`);
    } finally {
      await tab.close();
    }
  });
});

describe("the code colours and print", () => {
  it("meet contrast in the dark theme", async () => {
    const tab = await openTab(browser, { colorScheme: "dark" });
    try {
      await tab.page.goto(`${site.base}/papers/${paperId}`);
      expect(await tab.page.locator("#paper-body .hljs-keyword").count()).toBeGreaterThan(0);
      expect(await axeCheck(tab.page, { rules: ["color-contrast"] })).toEqual([]);
      await screenshot(tab.page, "paper-math-dark");
    } finally {
      await tab.close();
    }
  });

  it("prints without the site's navigation and without relative link addresses", async () => {
    const tab = await openTab(browser);
    const { page } = tab;
    try {
      await page.goto(`${site.base}/papers/${paperId}`);
      await page.emulateMedia({ media: "print" });
      const shown = await inPage<Record<string, string>>(
        page,
        `({ nav: getComputedStyle(document.querySelector('.site-header nav')).display,
            footer: getComputedStyle(document.querySelector('.site-footer')).display,
            title: getComputedStyle(document.querySelector('#paper-title')).display,
            body: getComputedStyle(document.querySelector('#paper-body')).display,
            after: getComputedStyle(document.querySelector('main a[href^="/"]'), '::after').content })`,
      );
      expect(shown.nav).toBe("none");
      expect(shown.footer).toBe("none");
      expect(shown.title).not.toBe("none");
      expect(shown.body).not.toBe("none");
      // A relative address means nothing on paper: none is printed (screenshots.e2e.test.ts
      // checks every link of a sample paper, and that an absolute one is printed).
      expect(shown.after).toMatch(/^(none|normal)$/);
      const pdf = await page.pdf({ format: "A4" });
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    } finally {
      await tab.close();
    }
  });
});

describe("/docs with the network cut off", () => {
  it("renders the reference from this server alone: no off-site request, no AI or deploy buttons", async () => {
    const tab = await openTab(browser);
    const { page } = tab;
    const origin = new URL(site.base).origin;
    const offSite: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith("data:")) return route.continue();
      offSite.push(url);
      return route.abort("internetdisconnected");
    });
    try {
      const res = await page.goto(`${site.base}/docs`);
      expect(res?.headers()["content-security-policy"]).toContain("default-src 'none'");
      // The reference has read the OpenAPI document and drawn its operations.
      await page.getByText("/api/v1/papers/{id}/context").first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState("networkidle");
      const text = await inPage<string>(page, "document.body.innerText");
      expect(text).toContain("Quire");
      expect(text).not.toMatch(/Ask AI|Deploy|Open API Client/);
      expect(offSite).toEqual([]);
      expect(tab.consoleErrors).toEqual([]);
      await screenshot(page, "docs-offline");
    } finally {
      await tab.close();
    }
  });
});
