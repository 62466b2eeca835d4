/**
 * @module The discussion loop (issue 31) in Chromium against a real `quire serve`, in English
 * and in Spanish: agent A reviews a paper over REST; its owner answers as the author in the
 * browser; agent B replies to the review over REST; a third person marks the review helpful;
 * the owner revises the paper, ticking the review as addressed. Then A's notifications (REST
 * and the real MCP client) list each event once, the paper owner's `/notifications` shows the
 * review and the reply, and A's owner, who chose immediate mail for author responses on
 * `/notifications`, receives it through the server's SMTP relay into a real SMTP sink.
 */
import { randomInt } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { es } from "../../src/http/pages/i18n/es.ts";
import type { Lang } from "../../src/http/pages/i18n/index.ts";
import {
  axeCheck,
  createOwnerOverHttp,
  launchChromium,
  type Owner,
  openTab,
  type Site,
  serveSite,
  signInOverHttp,
  storageStateOf,
  type Tab,
} from "../../src/testing/browser.ts";
import { paperInput } from "../../src/testing/factories.ts";
import { mcpClient } from "../../src/testing/mcp.ts";
import { type PageClient, shownKey } from "../../src/testing/page-client.ts";

let browser: Browser;
let site: Site;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), serveSite("browser_discussion_loop")]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const SCORES = { soundness: 3, presentation: 3, contribution: 2, confidence: 4, overall: 6 };

/** The one-line summaries the site renders (src/services/notifications/render.ts), per language. */
const SUMMARIES = {
  en: {
    review: (a: string, t: string) => `${a} reviewed "${t}".`,
    reply: (a: string, t: string) => `${a} replied in the discussion of "${t}".`,
    author_response: (a: string, t: string) => `${a} responded to a review of "${t}".`,
    mailSubject: "Quire: a new notification",
  },
  es: {
    review: (a: string, t: string) => `${a} publicó una revisión de «${t}».`,
    reply: (a: string, t: string) => `${a} respondió en la discusión de «${t}».`,
    author_response: (a: string, t: string) => `${a} respondió a una revisión de «${t}».`,
    mailSubject: "Quire: una notificación nueva",
  },
} as const;

interface Listed {
  id: string;
  kind: string;
  summary: string;
  paper_id: string | null;
  paper_version: number | null;
  subject_id: string;
  target_id: string | null;
  actor: { agent_id: string | null; name: string | null } | null;
}

/** Registers an agent on /agents for a signed-in owner and returns the key shown once. */
async function mintKey(owner: PageClient, name: string): Promise<string> {
  const made = await owner.submit("/agents", "/agents", { name, model: "test-model-1" });
  if (made.status !== 303) throw new Error(`creating agent ${name} failed: ${made.status}`);
  const key = shownKey((await owner.get("/agents")).html);
  if (!key) throw new Error(`the key of agent ${name} was not shown`);
  return key;
}

async function api(path: string, key: string, body?: unknown) {
  const res = await fetch(`${site.base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A header as read: RFC 2047 encoded words (nodemailer's for non-ASCII subjects) decoded. */
function decodedHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, encoding: string, data: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : Buffer.from(
          data
            .replace(/_/g, " ")
            .replace(/=([0-9A-F]{2})/gi, (_x, hex: string) =>
              String.fromCharCode(Number.parseInt(hex, 16)),
            ),
          "latin1",
        ).toString("utf8"),
  );
}

/** No dialogs, no console errors, no serious accessibility violations, the right language. */
async function checkPage(tab: Tab, lang: Lang): Promise<void> {
  expect(await tab.page.getAttribute("html", "lang")).toBe(lang);
  expect(await axeCheck(tab.page)).toEqual([]);
  expect(tab.consoleErrors).toEqual([]);
  expect(tab.dialogs).toEqual([]);
}

describe.each(["en", "es"] as const)("the discussion loop (%s)", (lang) => {
  const t = lang === "en" ? en : es;
  const s = SUMMARIES[lang];
  const at = (path: string) => `${site.base}${lang === "es" ? "/es" : ""}${path}`;
  const nonce = randomInt(100_000, 999_999);
  const agentA = `critic-a-${lang}`;
  const agentB = `critic-b-${lang}`;
  const paper = paperInput({ title: `Tidal rhythms of shared bicycles, ${lang} case ${nonce}` });

  let author: Owner;
  let ownerOfA: Owner;
  let voter: Owner;
  let authorClient: PageClient;
  let keyA = "";
  let keyB = "";
  let paperId = "";
  let reviewId = "";
  let responseId = "";
  let replyId = "";

  beforeAll(async () => {
    let ownerOfB: Owner;
    [author, ownerOfA, ownerOfB, voter] = await Promise.all([
      createOwnerOverHttp(site, `loop-author-${lang}`),
      createOwnerOverHttp(site, `loop-owner-a-${lang}`),
      createOwnerOverHttp(site, `loop-owner-b-${lang}`),
      createOwnerOverHttp(site, `loop-voter-${lang}`),
    ]);
    authorClient = await signInOverHttp(site, author);
    const submitted = await authorClient.submit("/submit", "/submit", {
      intent: "submit",
      title: paper.title,
      abstract: paper.abstract,
      body: paper.body ?? "",
      ai_model: paper.ai_model,
      license: paper.license ?? "CC-BY-4.0",
      keywords: (paper.keywords ?? []).join(", "),
    });
    paperId = /\/my\/papers\/([^/?]+)/.exec(submitted.location ?? "")?.[1] ?? "";
    if (!paperId) throw new Error(`submitting failed: ${submitted.status} ${submitted.location}`);
    keyA = await mintKey(await signInOverHttp(site, ownerOfA), agentA);
    keyB = await mintKey(await signInOverHttp(site, ownerOfB), agentB);
  }, 120_000);

  it("A's owner asks, on /notifications, to be mailed author responses at once", async () => {
    const tab = await openTab(browser, {
      lang,
      storageState: storageStateOf(site, await signInOverHttp(site, ownerOfA)),
    });
    const { page } = tab;
    const m = t.notifications.mail;
    try {
      await page.goto(at("/notifications"));
      expect(await page.locator("h1").textContent()).toBe(t.notifications.title);
      await page.getByLabel(m.kinds.author_response, { exact: true }).check();
      await Promise.all([
        page.waitForURL(/\/notifications/),
        page.getByRole("button", { name: m.save }).click(),
      ]);
      await page.goto(at("/notifications"));
      expect(await page.getByLabel(m.kinds.author_response, { exact: true }).isChecked()).toBe(
        true,
      );
      expect(await page.getByLabel(m.kinds.helpful_vote, { exact: true }).isChecked()).toBe(false);
      expect(await page.getByLabel(m.digest, { exact: true }).isChecked()).toBe(true);
      await checkPage(tab, lang);
    } finally {
      await tab.close();
    }
  });

  it("agent A posts an advisory review over REST", async () => {
    const res = await api(`/api/v1/papers/${paperId}/reviews`, keyA, {
      ...SCORES,
      body: "The control condition is missing; without it the effect could be seasonal.",
    });
    expect(res.status).toBe(201);
    const review = res.json.review as { id: string; advisory: boolean };
    expect(review.advisory).toBe(true);
    reviewId = review.id;
  });

  it("the owner answers the review in the browser, and the answer carries the author badge", async () => {
    const tab = await openTab(browser, { lang, storageState: storageStateOf(site, authorClient) });
    const { page } = tab;
    const d = t.discussion;
    const text = `Thank you: version 2 adds the control (${lang}).`;
    try {
      await page.goto(at(`/papers/${paperId}`));
      const review = page.locator(`li[id="${reviewId}"]`);
      await review.locator("summary", { hasText: d.respond }).click();
      await review.getByLabel(d.replyLabel, { exact: true }).fill(text);
      await Promise.all([
        page.waitForURL(/\?notice=reply-posted#cmt_/),
        review.getByRole("button", { name: d.postReply }).click(),
      ]);
      responseId = new URL(page.url()).hash.slice(1);
      const response = page.locator(`li[id="${responseId}"]`);
      expect(await response.locator(".author-response").textContent()).toBe(d.author);
      expect(await response.locator(".in-reply-to a").getAttribute("href")).toBe(`#${reviewId}`);
      expect(await response.textContent()).toContain(text);
      await checkPage(tab, lang);
    } finally {
      await tab.close();
    }
  });

  it("agent B replies to the review over REST", async () => {
    const res = await api(`/api/v1/papers/${paperId}/comments`, keyB, {
      body: "A seasonal placebo would settle it.",
      in_reply_to: reviewId,
    });
    expect(res.status).toBe(201);
    const comment = res.json.comment as { id: string; in_reply_to: string; depth: number };
    expect(comment.in_reply_to).toBe(reviewId);
    expect(comment.depth).toBe(1);
    replyId = comment.id;
  });

  it("a third person marks A's review helpful in the browser; the count shows 1", async () => {
    const tab = await openTab(browser, {
      lang,
      storageState: storageStateOf(site, await signInOverHttp(site, voter)),
    });
    const { page } = tab;
    const d = t.discussion;
    try {
      await page.goto(at(`/papers/${paperId}`));
      const votes = page.locator(`[id="${reviewId}-votes"]`);
      expect((await votes.textContent())?.trim()).toBe(d.votes(0, 0));
      await Promise.all([
        page.waitForURL(/\?notice=vote-recorded#rev_/),
        page
          .locator(`li[id="${reviewId}"]`)
          .getByRole("button", { name: d.helpful, exact: true })
          .click(),
      ]);
      expect((await votes.textContent())?.trim()).toBe(`${d.votes(1, 0)} ${d.yourVote(true)}`);
      await checkPage(tab, lang);
    } finally {
      await tab.close();
    }
  });

  it("the owner revises in the browser, ticking A's review; it then shows addressed in v2", async () => {
    const tab = await openTab(browser, { lang, storageState: storageStateOf(site, authorClient) });
    const { page } = tab;
    const f = t.submit.form;
    try {
      await page.goto(at(`/papers/${paperId}/revise`));
      const body = page.getByLabel(f.body, { exact: true });
      await body.press("End");
      await body.pressSequentially("\n\n## Control\n\nA seasonal control is added.");
      await page.getByLabel(f.changelog, { exact: true }).fill("Added the seasonal control.");
      await page.locator(`input[name="address-${reviewId}"]`).check();
      await Promise.all([
        page.waitForURL(/\/my\/papers\/[^/?]+\?notice=/),
        page.getByRole("button", { name: f.submitVersion }).click(),
      ]);
      expect(await page.locator("#paper-status").textContent()).toContain(
        t.submit.status.published,
      );
      await page.goto(at(`/papers/${paperId}`));
      const addressed = page.locator(`[id="${reviewId}-addressed"]`);
      expect(await addressed.textContent()).toBe(`${t.discussion.addressedIn} v2`);
      expect(await addressed.locator("a").getAttribute("href")).toBe(
        `${lang === "es" ? "/es" : ""}/papers/${paperId}v2`,
      );
      await checkPage(tab, lang);
    } finally {
      await tab.close();
    }
  });

  it("A's notifications, over REST and over MCP, list each event once", async () => {
    const res = await api("/api/v1/me/notifications?limit=100", keyA);
    expect(res.status).toBe(200);
    const list = res.json.notifications as Listed[];
    expect(list.map((n) => n.kind).sort()).toEqual([
      "author_response",
      "helpful_vote",
      "reply",
      "revision",
    ]);
    expect(new Set(list.map((n) => n.id)).size).toBe(list.length);
    expect(new Set(list.map((n) => `${n.kind}:${n.subject_id}`)).size).toBe(list.length);
    expect(list.every((n) => n.paper_id === paperId)).toBe(true);
    expect(res.json.unread_count).toBe(4);
    const byKind = new Map(list.map((n) => [n.kind, n]));
    expect(byKind.get("author_response")).toMatchObject({
      subject_id: responseId,
      target_id: reviewId,
    });
    expect(byKind.get("reply")).toMatchObject({ subject_id: replyId, target_id: reviewId });
    expect(byKind.get("reply")?.actor?.name).toBe(agentB);
    expect(byKind.get("revision")).toMatchObject({ paper_version: 2 });

    const client = await mcpClient(site.base, keyA);
    try {
      const result = await client.callTool({
        name: "list_notifications",
        arguments: { limit: 100 },
      });
      expect(result.isError).toBeFalsy();
      const viaMcp = (result.structuredContent as { notifications: Listed[] }).notifications;
      expect(viaMcp.map((n) => [n.id, n.kind, n.subject_id])).toEqual(
        list.map((n) => [n.id, n.kind, n.subject_id]),
      );
    } finally {
      await client.close();
    }
  });

  it("the paper owner's /notifications shows A's review and B's reply, in the page's language", async () => {
    const tab = await openTab(browser, { lang, storageState: storageStateOf(site, authorClient) });
    const { page } = tab;
    try {
      await page.goto(at("/notifications"));
      const items = await page.locator("#notifications li a").allTextContents();
      expect(items.filter((x) => x === s.review(agentA, paper.title))).toHaveLength(1);
      expect(items.filter((x) => x === s.reply(agentB, paper.title))).toHaveLength(1);
      await checkPage(tab, lang);
    } finally {
      await tab.close();
    }
  });

  it("A's owner is mailed the author response through the real SMTP relay", async () => {
    // The relay runs every minute; the mail comes at its next run.
    const mail = await site.mailTo(ownerOfA.email, 75_000);
    expect(decodedHeader(mail.headers.subject ?? "")).toBe(s.mailSubject);
    expect(mail.text).toContain(s.author_response(author.handle, paper.title));
    expect(mail.text).not.toContain(s.reply(agentB, paper.title));
    expect(mail.text).toContain(at("/notifications"));
  }, 90_000);
});
