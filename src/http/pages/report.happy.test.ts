/** @module Reader reports through the pages: the Report links, the form in both languages, the moderators' queue and log. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { reportablePaper } from "../../testing/reports.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, headingsInOrder, moderatorClient } from "./moderation.test-helpers.ts";
import { fileThroughForm } from "./report.test-helpers.ts";

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

describe("the Report links", () => {
  it("appear on the paper, each comment and each review, as plain links named for screen readers", async () => {
    const { paperId, commentId, reviewId } = await reportablePaper(test.ctx);
    const page = await new PageClient(test).get(`/papers/${paperId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`href="/report/paper/${paperId}"`);
    expect(page.html).toContain(`href="/report/comment/${commentId}"`);
    expect(page.html).toContain(`href="/report/review/${reviewId}"`);
    expect(page.html).toContain(`aria-label="${escaped(en.reports.actionOn.paper)}"`);
    const spanish = await new PageClient(test).get(`/es/papers/${paperId}`);
    expect(spanish.html).toContain(`href="/es/report/comment/${commentId}"`);
    expect(spanish.html).toContain(`>${es.reports.action}</a>`);
  });
});

describe("the report form", () => {
  it.each([
    ["en", en],
    ["es", es],
  ] as const)(
    "is a page in %s with the reasons, and sends a report to the queue",
    async (lang, t) => {
      const { paperId, commentId } = await reportablePaper(test.ctx);
      const prefix = lang === "es" ? "/es" : "";
      const reader = new PageClient(test);
      const form = await reader.get(`${prefix}/report/comment/${commentId}`);
      expect(form.status).toBe(200);
      expect(htmlLang(form.html)).toBe(lang);
      expect(form.html).toContain(t.reports.title.comment);
      expect(form.html).toContain(t.reports.reasons.plagiarism);
      expect(form.html).toContain(`href="${prefix}/papers/${paperId}#${commentId}"`);
      expect(headingsInOrder(form.html)).toBe(true);

      const sent = await fileThroughForm(
        reader,
        `comment/${commentId}`,
        { reason: "abuse", note: `Insults the authors (${lang}).` },
        lang,
      );
      expect(sent.status).toBe(303);
      expect(sent.location).toBe(`${prefix}/report/sent?paper=${paperId}`);
      const done = await reader.get(sent.location!);
      expect(done.status).toBe(200);
      expect(htmlLang(done.html)).toBe(lang);
      expect(done.html).toContain(t.reports.sentTitle.replace(":", ":"));
      expect(done.html).toContain(`href="${prefix}/papers/${paperId}"`);

      const { client: moderator } = await moderatorClient(test, { lang });
      const queue = await moderator.get(`${prefix}/moderation`);
      expect(queue.status).toBe(200);
      const item = /<article[^>]*id="report-rpt_[^"]+"[\s\S]*?<\/article>/.exec(
        queue.html.slice(queue.html.indexOf('id="reports"')),
      );
      expect(queue.html).toContain(t.reports.queue.title(0).replace("(0)", ""));
      expect(queue.html).toContain(`Insults the authors (${lang}).`);
      expect(queue.html).toContain(`href="${prefix}/papers/${paperId}#${commentId}"`);
      expect(queue.html).toContain(t.reports.reasons.abuse);
      expect(item).toBeTruthy();
    },
  );

  it("keeps the paper page's version out of a paper report, and a signed-in reader's handle in the queue", async () => {
    const { paperId } = await reportablePaper(test.ctx);
    const { client: reader, handle } = await moderatorClient(test);
    const sent = await fileThroughForm(reader, `paper/${paperId}v1`, { reason: "plagiarism" });
    expect(sent.status).toBe(303);
    const queue = await reader.get("/moderation");
    const at = queue.html.indexOf(`href="/papers/${paperId}" class="report-target"`);
    expect(at).toBeGreaterThan(0);
    expect(queue.html.slice(at, at + 2000)).toContain(handle);
  });
});

describe("resolving", () => {
  it("takes the report out of the queue and shows it in the log, with its outcome", async () => {
    const { paperId, reviewId } = await reportablePaper(test.ctx);
    const reader = new PageClient(test);
    await fileThroughForm(reader, `review/${reviewId}`, { reason: "fabrication" });
    const { client: moderator, handle } = await moderatorClient(test, { lang: "es" });
    const queue = await moderator.get("/es/moderation");
    const article = queue.html
      .split("<article")
      .find((part) => part.includes(`href="/es/papers/${paperId}#${reviewId}"`));
    const id = /^[^>]*id="report-(rpt_[0-9A-Za-z]{22})"/.exec(article ?? "")?.[1];
    expect(id).toBeTruthy();
    const action = `/es/moderation/reports/${id}/resolve`;
    const res = await moderator.submit("/es/moderation", action, {
      outcome: "dismissed",
      reason: "La revisión se sostiene.",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/es/moderation?done=resolved#reports");
    const after = await moderator.get(res.location!);
    expect(after.html).toContain(es.moderation.done.resolved);
    expect(after.html).not.toContain(`id="report-${id}"`);
    const log = await moderator.get(`/es/moderation/log?target=${reviewId}`);
    expect(log.status).toBe(200);
    expect(log.html).toContain(es.moderation.log.actions["report.resolve"]);
    expect(log.html).toContain(es.moderation.log.actions["report.file"]);
    expect(log.html).toContain(es.moderation.log.outcome(es.reports.queue.outcomes.dismissed!));
    expect(log.html).toContain("La revisión se sostiene.");
    expect(log.html).toContain(es.moderation.log.reader);
    expect(log.html).toContain(handle);
    expect(log.html).toContain(es.reports.reasons.fabrication);
    expect(log.html).toContain(`href="/es/papers/${paperId}#${reviewId}"`);
  });
});
