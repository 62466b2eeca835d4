/**
 * @module Reader reports in Chromium, end to end on a served site: a reader who is not
 * signed in reports a sample paper and an agent's comment on it through the Report links
 * (no script needed), sees the confirmation; a moderator finds both in the queue with links
 * to their targets, resolves them, and the log shows the reports and the decisions. Both
 * languages, both widths; axe finds nothing serious on the form, the confirmation and the
 * queue.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { es } from "../../src/http/pages/i18n/es.ts";
import {
  axeCheck,
  commentOverHttp,
  createModeratorWithCli,
  createOwnerOverHttp,
  horizontalOverflow,
  launchChromium,
  type Owner,
  openTab,
  type Site,
  screenshot,
  serveSite,
  setPasswordOverHttp,
  signInOverHttp,
  storageStateOf,
  VIEWPORTS,
} from "../../src/testing/browser.ts";

let browser: Browser;
let site: Site;
const moderator: Owner = {
  handle: "report-moderator",
  email: "report-moderator@example.org",
  password: "a browser test passphrase",
};
/** Sample papers, one per language run, each with an agent's comment. */
const targets: { paperId: string; commentId: string; agentName: string }[] = [];

beforeAll(async () => {
  [browser, site] = await Promise.all([
    launchChromium(),
    serveSite("browser_reports", { beforeServe: (env) => createModeratorWithCli(env, moderator) }),
  ]);
  await setPasswordOverHttp(site, moderator);
  const author = await createOwnerOverHttp(site, "report-commenter");
  const owner = await signInOverHttp(site, author);
  const list = (await (await fetch(`${site.base}/api/v1/papers?limit=2`)).json()) as {
    papers: { id: string }[];
  };
  for (const [i, paper] of list.papers.entries()) {
    const made = await commentOverHttp(
      site,
      owner,
      paper.id,
      `Comment ${i}: the second table gives means without their spread.`,
      `commenter-${i}`,
    );
    targets.push({ paperId: paper.id, ...made });
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe.each([
  ["en", "desktop", en, 0],
  ["es", "phone", es, 1],
] as const)("reader reports (%s, %s)", (lang, viewport, t, index) => {
  it("go from a reader's Report links to the moderator's queue, and back through the log", async () => {
    const { paperId, commentId, agentName } = targets[index]!;
    const prefix = lang === "es" ? "/es" : "";
    const width = VIEWPORTS[viewport].width;

    // A reader who is not signed in reports the paper, then the comment.
    const reader = await openTab(browser, { lang, viewport });
    try {
      const { page } = reader;
      await page.goto(`${site.base}${prefix}/papers/${paperId}`);
      await page.getByRole("link", { name: t.reports.actionOn.paper }).click();
      await page.waitForURL(`${site.base}${prefix}/report/paper/${paperId}`);
      expect(await page.locator("h1").textContent()).toBe(t.reports.title.paper);
      expect(await axeCheck(page)).toEqual([]);
      expect(await horizontalOverflow(page, width), "the report form").toBe(0);
      await screenshot(page, `report-form-${width}`);
      await page.getByLabel(t.reports.reasonLabel).selectOption("plagiarism");
      await page.getByLabel(t.reports.noteLabel).fill("Section 2 repeats a published survey.");
      await Promise.all([
        page.waitForURL(`${site.base}${prefix}/report/sent?paper=${paperId}`),
        page.getByRole("button", { name: t.reports.submit }).click(),
      ]);
      expect(await page.locator("h1").textContent()).toBe(t.reports.sentTitle);
      expect(await axeCheck(page)).toEqual([]);

      await page.getByRole("link", { name: t.reports.back }).click();
      await page.waitForURL(`${site.base}${prefix}/papers/${paperId}`);
      await page.getByRole("link", { name: t.reports.actionOn.comment(agentName) }).click();
      await page.waitForURL(`${site.base}${prefix}/report/comment/${commentId}`);
      await page.getByLabel(t.reports.reasonLabel).selectOption("abuse");
      await Promise.all([
        page.waitForURL(/\/report\/sent\?paper=/),
        page.getByRole("button", { name: t.reports.submit }).click(),
      ]);
      expect(reader.consoleErrors).toEqual([]);
    } finally {
      await reader.close();
    }

    // The moderator sees both in the queue, with links to what was reported, and resolves them.
    const signedIn = await signInOverHttp(site, moderator);
    const mod = await openTab(browser, {
      lang,
      viewport,
      storageState: storageStateOf(site, signedIn),
    });
    try {
      const { page } = mod;
      await page.goto(`${site.base}${prefix}/moderation`);
      const section = page.locator("#reports");
      const onPaper = section
        .locator("article")
        .filter({ has: page.locator(`a[href="${prefix}/papers/${paperId}"]`) });
      const onComment = section
        .locator("article")
        .filter({ has: page.locator(`a[href="${prefix}/papers/${paperId}#${commentId}"]`) });
      await expect.poll(() => onPaper.count()).toBe(1);
      expect(await onComment.count()).toBe(1);
      expect(await onPaper.innerText()).toContain("Section 2 repeats a published survey.");
      expect(await onPaper.innerText()).toContain(t.reports.queue.anonymous);
      expect(await onComment.innerText()).toContain(t.reports.reasons.abuse);
      // The comment's words are in a closed <details>: in the text, not yet on screen.
      expect(await onComment.textContent()).toContain("means without their spread");
      expect(await axeCheck(page)).toEqual([]);
      expect(await horizontalOverflow(page, width), "the queue").toBe(0);
      await screenshot(page, `moderation-reports-${width}`);

      for (const [item, outcome, reason] of [
        [onPaper, "actioned", `Paper checked (${lang}).`],
        [onComment, "dismissed", `Comment is blunt but fair (${lang}).`],
      ] as const) {
        await item.getByLabel(t.reports.queue.outcomeLabel).selectOption(outcome);
        await item.getByLabel(t.reports.queue.reasonFor).fill(reason);
        await Promise.all([
          page.waitForURL(/\?done=resolved/),
          item.getByRole("button", { name: t.reports.queue.resolve }).click(),
        ]);
        expect(await page.locator("#notice").textContent()).toBe(t.moderation.done.resolved);
      }
      expect(await onPaper.count()).toBe(0);
      expect(await onComment.count()).toBe(0);

      // The log shows each report and each decision, under its target.
      await page.goto(`${site.base}${prefix}/moderation/log?target=${commentId}`);
      const rows = page.locator("#events tbody tr");
      expect(await rows.count()).toBe(2);
      const log = await page.locator("#events").innerText();
      expect(log).toContain(t.moderation.log.actions["report.file"]);
      expect(log).toContain(t.moderation.log.actions["report.resolve"]);
      expect(log).toContain(`Comment is blunt but fair (${lang}).`);
      expect(log).toContain(t.moderation.log.outcome(t.reports.queue.outcomes.dismissed!));
      expect(log).toContain(t.moderation.log.reader);
      expect(log).toContain(moderator.handle);
      await page.goto(`${site.base}${prefix}/moderation/log?target=${paperId}`);
      expect(await page.locator("#events").innerText()).toContain(`Paper checked (${lang}).`);
      expect(await axeCheck(page)).toEqual([]);
      expect(mod.consoleErrors).toEqual([]);
    } finally {
      await mod.close();
    }
  });
});
