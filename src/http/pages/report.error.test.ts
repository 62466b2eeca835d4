/** @module Reader reports through the pages, refused: bad input is a 400 page in the reader's language, unknown targets 404. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_NOTE_MAX } from "../../services/reports/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { reportablePaper, reportCount } from "../../testing/reports.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, moderatorClient } from "./moderation.test-helpers.ts";
import { fileThroughForm } from "./report.test-helpers.ts";

let test: TestApp;
let target: Awaited<ReturnType<typeof reportablePaper>>;

beforeAll(async () => {
  test = await createTestApp();
  target = await reportablePaper(test.ctx);
});
afterAll(async () => test.close());

const stored = () => reportCount(test.ctx);

describe("the report form refuses bad input with a 400 page in the reader's language", () => {
  it.each([
    ["en", "no reason", { note: "Kept as typed." }, "reason"],
    ["es", "an unknown reason", { reason: "boring", note: "Kept as typed." }, "reason"],
    ["en", "other without a note", { reason: "other" }, "noteRequired"],
    ["es", "other with a blank note", { reason: "other", note: "   " }, "noteRequired"],
    [
      "en",
      "a note too long",
      { reason: "spam", note: "x".repeat(REPORT_NOTE_MAX + 1) },
      "noteLong",
    ],
  ] as const)("%s, %s", async (lang, _what, fields, key) => {
    const t = lang === "es" ? es : en;
    const before = await stored();
    const res = await fileThroughForm(
      new PageClient(test),
      `comment/${target.commentId}`,
      fields,
      lang,
    );
    expect(res.status).toBe(400);
    expect(htmlLang(res.html)).toBe(lang);
    const message = t.reports.errors[key];
    expect(res.html).toContain(
      escaped(typeof message === "function" ? message(REPORT_NOTE_MAX) : message),
    );
    expect(res.html).toContain('id="report-form"');
    if (key === "reason") expect(res.html).toContain("Kept as typed.");
    expect(await stored()).toBe(before);
  });

  it("answers 404 for an unknown kind of target, an unknown id and a removed paper, on GET and POST", async () => {
    const client = new PageClient(test);
    for (const path of [
      "/report/author/2611.00001",
      "/report/comment/cmt_0000000000000000000000",
      "/es/report/review/rev_0000000000000000000000",
      "/report/paper/2611.99999",
      `/report/paper/${target.commentId}`,
    ]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(htmlLang(res.html)).toBe(path.startsWith("/es/") ? "es" : "en");
    }
    const form = await client.get(`/report/paper/${target.paperId}`);
    const token = /name="_csrf" value="([^"]+)"/.exec(form.html)?.[1] ?? "";
    const before = await stored();
    const res = await client.post("/report/comment/cmt_0000000000000000000000", {
      _csrf: token,
      reason: "spam",
    });
    expect(res.status).toBe(404);
    expect(await stored()).toBe(before);
  });

  it("answers 400 in Spanish for an id too long to be one", async () => {
    const res = await new PageClient(test).get(`/es/report/comment/cmt_${"x".repeat(70)}`);
    expect(res.status).toBe(400);
    expect(htmlLang(res.html)).toBe("es");
    expect(res.html).toContain(es.errorPage[400]);
  });
});

describe("resolving refuses bad input", () => {
  it("asks for a reason and an outcome (400), and answers 409 when someone resolved it first", async () => {
    const filed = await fileThroughForm(new PageClient(test), `paper/${target.paperId}`, {
      reason: "spam",
    });
    expect(filed.status).toBe(303);
    const { client } = await moderatorClient(test, { lang: "es" });
    const queue = await client.get("/es/moderation");
    const id = /id="report-(rpt_[0-9A-Za-z]{22})"/.exec(queue.html)?.[1];
    const action = `/es/moderation/reports/${id}/resolve`;
    const noReason = await client.submit("/es/moderation", action, {
      outcome: "actioned",
      reason: " ",
    });
    expect(noReason.status).toBe(400);
    expect(htmlLang(noReason.html)).toBe("es");
    expect(noReason.html).toContain(es.moderation.errors.reasonRequired);
    expect(noReason.html).toContain(`id="resolve-${id}-error"`);
    const badOutcome = await client.submit("/es/moderation", action, {
      outcome: "shrug",
      reason: "Fine.",
    });
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.html).toContain(es.reports.queue.outcomeRequired);
    const done = await client.submit("/es/moderation", action, {
      outcome: "actioned",
      reason: "Retirado.",
    });
    expect(done.status).toBe(303);
    const page = await client.get("/es/moderation");
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    const twice = await client.post(action, {
      _csrf: token,
      outcome: "actioned",
      reason: "Otra vez.",
    });
    expect(twice.status).toBe(409);
    expect(twice.html).toContain(escaped(es.moderation.errors.stale));
    const unknown = await client.post("/es/moderation/reports/rpt_0000000000000000000000/resolve", {
      _csrf: token,
      outcome: "actioned",
      reason: "x",
    });
    expect(unknown.status).toBe(404);
    expect(htmlLang(unknown.html)).toBe("es");
  });
});
