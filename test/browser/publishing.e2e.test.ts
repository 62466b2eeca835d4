/**
 * @module Publishing in Spanish, by typing and clicking in Chromium against a real `quire serve`:
 * an owner submits a paper (preview, then submit) and reads it on its page; a second owner
 * writes a human review through the form; a moderator (made by the CLI before the server
 * starts) removes the paper from the queue, and the log shows it. No dialogs, no console
 * errors, no English catalog sentences on the way.
 */
import { randomInt } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { es } from "../../src/http/pages/i18n/es.ts";
import {
  axeCheck,
  createModeratorWithCli,
  createOwnerOverHttp,
  launchChromium,
  type Owner,
  openTab,
  type Site,
  screenshot,
  serveSite,
  setPasswordOverHttp,
  signInOverHttp,
  storageStateOf,
  type Tab,
  visibleText,
} from "../../src/testing/browser.ts";
import { englishSentences } from "./every-page.ts";

const MODERATOR: Owner = {
  handle: "pub-moderator",
  email: "pub-moderator@example.org",
  password: "a moderator browser passphrase",
};

let browser: Browser;
let site: Site;
let author: Owner;
let reviewer: Owner;
const english = englishSentences();
/** Differs per run, so the paper is never a duplicate of an earlier one. */
const nonce = randomInt(100_000, 999_999);
const TITLE = `Tidal rhythms in urban bike-share demand: evidence from ${nonce} station-days`;
/** The paper published in the first test, used by the next ones. */
let paperId = "";

beforeAll(async () => {
  [browser, site] = await Promise.all([
    launchChromium(),
    serveSite("browser_publishing", {
      beforeServe: (env) => createModeratorWithCli(env, MODERATOR),
    }),
  ]);
  [author, reviewer] = await Promise.all([
    createOwnerOverHttp(site, "pub-author"),
    createOwnerOverHttp(site, "pub-reviewer"),
  ]);
  await setPasswordOverHttp(site, MODERATOR);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** What every Spanish page in these flows must hold to. */
async function checkSpanishPage(tab: Tab, allowedStatus?: number): Promise<void> {
  const { page } = tab;
  expect(await page.getAttribute("html", "lang")).toBe("es");
  expect(await axeCheck(page)).toEqual([]);
  const text = (await visibleText(page)).replace(/\s+/g, " ");
  expect(english.filter((s) => text.includes(s))).toEqual([]);
  const expected = `the server responded with a status of ${allowedStatus}`;
  expect(tab.consoleErrors.filter((e) => !(allowedStatus && e.includes(expected)))).toEqual([]);
  expect(tab.dialogs).toEqual([]);
}

/** Clicks into a field and types, key by key. */
async function typeInto(tab: Tab, label: string, text: string): Promise<void> {
  const field = tab.page.getByLabel(label, { exact: true });
  await field.click();
  await field.pressSequentially(text);
}

const ABSTRACT =
  "We model hourly demand at bike-share stations as the sum of a commuter tide and a leisure swell, and show on simulated station-days that separating the two predicts empty docks an hour earlier than a single seasonal profile.";

/**
 * Long enough (over 2,000 characters) to be a real paper, and deliberately without headings,
 * so the rule screener publishes it with a warning and it lands in the moderators' queue.
 */
function paperBody(): string {
  return [
    `Bike-share systems empty and refill their docks in a daily rhythm that operators know well but rarely write down. In this paper we describe that rhythm as **two overlapping tides**: a sharp *commuter tide* that peaks twice on working days, and a broad *leisure swell* that rises on warm afternoons and at weekends. Our sample has ${nonce} simulated station-days drawn from a plausible mid-sized city.`,
    "The commuter tide moves bicycles from residential districts towards offices in the morning and back in the evening. Its timing is stable from week to week, but its height depends on the weather and on school holidays. The leisure swell, by contrast, follows parks, river banks and the old town, and it barely notices the day of the week once the temperature passes a threshold.",
    "We fit the model in three steps:",
    "- estimate the commuter tide from the hours between six and ten in the morning;\n- subtract it, and fit the leisure swell to what remains;\n- check the sum against held-out days for every station.",
    "Stations near railway stations are almost pure commuter tide, while stations beside parks are almost pure leisure swell. The interesting cases lie in between: a station outside a university library, for instance, behaves like an office in term time and like a park during the summer. A single seasonal profile averages these two lives into one and predicts neither of them well.",
    "> A dock that is empty at nine in the morning is a planning failure; a dock that is empty at nine in the evening is a success of the leisure network.",
    "Separating the tides has a practical use. Rebalancing vans are scheduled by forecasts of empty and full docks, and our decomposition warns of an empty dock about an hour earlier than the single profile does, with fewer false alarms on rainy days. We also find that the leisure swell responds to temperature with a delay of roughly two hours, which suggests that people decide on an outing some time before they take a bicycle.",
    "The study has clear limits. The station-days are simulated, so the model has not yet met the noise of real sensors, broken docks or special events such as concerts and marathons. The two tides are also an assumption rather than a finding: a third, smaller pattern linked to night-time services may exist, and our method would fold it into the leisure swell without noticing.",
    "We close with a suggestion for operators who want to try the idea. Start with the stations that matter most for rebalancing, fit the commuter tide on a month of working days, and compare the remaining demand with the local weather before trusting any forecast built on it.",
  ].join("\n\n");
}

describe("publishing in Spanish", () => {
  it("an owner previews, submits and reads a paper", async () => {
    const state = storageStateOf(site, await signInOverHttp(site, author));
    const tab = await openTab(browser, { lang: "es", storageState: state });
    const { page } = tab;
    const f = es.submit.form;
    try {
      await page.goto(`${site.base}/es/submit`);
      expect(await page.locator("h1").textContent()).toBe(f.title);
      await typeInto(tab, f.fieldTitle, TITLE);
      await typeInto(tab, f.abstract, ABSTRACT);
      // The body is long: filled at once, then its last sentence typed key by key.
      const body = page.getByLabel(f.body, { exact: true });
      await body.fill(paperBody());
      await body.press("End");
      await body.pressSequentially(" Data and code are described in the appendix.");
      await typeInto(tab, f.aiModel, "claude-opus-4.5");
      await page.getByLabel(f.license, { exact: true }).fill("");
      await typeInto(tab, f.license, "CC-BY-4.0");
      await typeInto(tab, f.keywords, "urban mobility, bike sharing, demand forecasting");
      await checkSpanishPage(tab);
      await screenshot(page, "publish-submit-form");

      await page.getByRole("button", { name: f.preview }).click();
      await page.locator("#preview").waitFor();
      const preview = page.locator("#preview");
      expect(await preview.locator(".preview-title").textContent()).toBe(TITLE);
      expect(await preview.locator(".preview-body strong").first().textContent()).toBe(
        "two overlapping tides",
      );
      expect(await preview.locator(".preview-body em").first().textContent()).toBe("commuter tide");
      expect(await preview.locator(".preview-body li").count()).toBe(3);
      expect(await preview.locator(".preview-body blockquote").count()).toBe(1);
      expect(await preview.locator(".preview-body").textContent()).not.toContain("**");
      expect(await preview.locator(".ai-label").textContent()).toContain(es.submit.preview.aiLabel);
      // The form keeps what was typed, ready to send.
      expect(await page.getByLabel(f.fieldTitle, { exact: true }).inputValue()).toBe(TITLE);
      await checkSpanishPage(tab);
      await screenshot(page, "publish-preview");

      await page.getByRole("button", { name: f.submit }).click();
      await page.waitForURL(/\/es\/my\/papers\/[^/?]+\?notice=submitted$/);
      paperId = /\/my\/papers\/([^/?]+)/.exec(page.url())?.[1] ?? "";
      expect(paperId).not.toBe("");
      expect(await page.locator("#notice").textContent()).toBe(es.submit.notices.submitted);
      expect(await page.locator("#paper-status").textContent()).toContain(
        es.submit.status.published,
      );
      expect(await page.locator("#status-explanation").textContent()).toBe(
        es.submit.paper.publishedWarnings,
      );
      expect(await page.locator("#screening-reasons").textContent()).toContain(
        es.submit.reasons.codes.no_sections,
      );
      await checkSpanishPage(tab);
      await screenshot(page, "publish-outcome");

      await page.getByRole("link", { name: es.submit.paper.readIt }).click();
      await page.waitForURL(`${site.base}/es/papers/${paperId}`);
      expect(await page.locator("#paper-title").textContent()).toBe(TITLE);
      expect(await page.locator(".paper-head .paper-meta .ai-label").textContent()).toBe(
        es.reading.aiLabel,
      );
      expect(await page.locator("#ai-notice").textContent()).toBe(
        es.reading.paper.aiNotice("claude-opus-4.5"),
      );
      expect(await page.locator("#paper-body strong").first().textContent()).toBe(
        "two overlapping tides",
      );
      // The author cannot review their own paper.
      expect(await page.locator("#review-own-paper").count()).toBe(1);
      await checkSpanishPage(tab);
      await screenshot(page, "publish-paper");
    } finally {
      await tab.close();
    }
  });

  it("a second owner writes a human review, kept apart from the AI reviews", async () => {
    expect(paperId).not.toBe("");
    const state = storageStateOf(site, await signInOverHttp(site, reviewer));
    const tab = await openTab(browser, { lang: "es", storageState: state });
    const { page } = tab;
    const r = es.reading;
    try {
      await page.goto(`${site.base}/es/papers/${paperId}`);
      expect(await page.locator("#no-human-reviews").textContent()).toBe(r.paper.noHumanReviews);
      const scores = { soundness: "3", presentation: "4", contribution: "2", overall: "7" };
      for (const [key, value] of Object.entries(scores)) {
        const name = r.paper.scoreNames[key as keyof typeof scores];
        await page.getByLabel(name, { exact: true }).selectOption(value);
      }
      await page.getByLabel(r.paper.scoreNames.confidence, { exact: true }).selectOption("4");
      await typeInto(
        tab,
        r.review.body,
        "La separación en dos mareas es convincente, pero faltan datos reales de sensores <b>y</b> una prueba con eventos especiales.",
      );
      await page.getByRole("button", { name: r.review.submit }).click();
      await page.waitForURL(`${site.base}/es/papers/${paperId}?notice=review-posted#human-reviews`);

      const human = page.locator("#human-reviews");
      expect(await human.locator("h3").first().textContent()).toBe(
        r.paper.reviewBy(reviewer.handle),
      );
      expect(await human.textContent()).toContain("<b>y</b>");
      expect(await human.locator("#human-means caption").textContent()).toContain(
        r.paper.humanAverages,
      );
      expect(await human.locator('#human-means td[data-score="soundness"]').textContent()).toBe(
        r.paper.outOf("3", 4),
      );
      // The AI section is separate, still empty, and holds no human review.
      const ai = page.locator("#ai-reviews");
      expect(await ai.locator("#no-ai-reviews").textContent()).toBe(r.paper.noAiReviews);
      expect(await ai.textContent()).not.toContain(reviewer.handle);
      expect(await ai.locator("#human-means").count()).toBe(0);
      expect(await human.locator("#ai-reviews").count()).toBe(0);
      await checkSpanishPage(tab);
      await screenshot(page, "publish-human-review");
    } finally {
      await tab.close();
    }
  });

  it("a moderator signs in, removes the paper from the queue, and the log shows it", async () => {
    expect(paperId).not.toBe("");
    const tab = await openTab(browser, { lang: "es" });
    const { page } = tab;
    const m = es.moderation;
    const reason = "Prueba de moderación: datos simulados presentados como reales.";
    try {
      await page.goto(`${site.base}/es/sign-in?next=/moderation`);
      await typeInto(tab, es.form.email, MODERATOR.email);
      await typeInto(tab, es.form.password, MODERATOR.password);
      await page.getByRole("button", { name: es.signIn.submit }).click();
      await page.waitForURL(`${site.base}/es/moderation`);

      const item = page.locator(`#flagged [id="paper-${paperId}"]`);
      expect(await item.locator("h3").textContent()).toBe(TITLE);
      expect(await item.textContent()).toContain(author.handle);
      await checkSpanishPage(tab);
      await screenshot(page, "publish-moderation-queue");

      const field = item.getByLabel(m.actions.reasonFor.remove, { exact: true });
      await field.click();
      await field.pressSequentially(reason);
      await item.getByRole("button", { name: m.actions.on(m.actions.remove, TITLE) }).click();
      await page.waitForURL(`${site.base}/es/moderation?done=removed`);
      expect(await page.locator("#notice").textContent()).toBe(m.done.removed);
      expect(await page.locator(`[id="paper-${paperId}"]`).count()).toBe(0);

      // Readers get a 404 (moderators and the owner still see it: visibility.ts).
      const reader = await openTab(browser, { lang: "es" });
      try {
        const gone = await reader.page.goto(`${site.base}/es/papers/${paperId}`);
        expect(gone?.status()).toBe(404);
        expect(await reader.page.textContent("main")).not.toContain(TITLE);
        await checkSpanishPage(reader, 404);
      } finally {
        await reader.close();
      }

      await page.goto(`${site.base}/es/moderation/log`);
      const row = page.locator("#events tbody tr").first();
      expect(await row.textContent()).toContain(m.log.actions["paper.remove"]);
      expect(await row.textContent()).toContain(MODERATOR.handle);
      expect(await row.textContent()).toContain(paperId);
      expect(await row.locator(".reason").textContent()).toBe(reason);
      await checkSpanishPage(tab);
      await screenshot(page, "publish-moderation-log");
    } finally {
      await tab.close();
    }
  });
});
