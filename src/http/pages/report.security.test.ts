/** @module Reader reports through the pages: CSRF, the per-address limit, who may resolve, and reader text kept inert. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimits } from "../../services/ratelimit/limits.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { RELAXED_LIMITS } from "../../testing/db.ts";
import { csrfTokenIn, htmlLang, PageClient } from "../../testing/page-client.ts";
import { reportablePaper, reportCount } from "../../testing/reports.ts";
import { moderatorClient } from "./moderation.test-helpers.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import { fileThroughForm } from "./report.test-helpers.ts";

let test: TestApp;
let target: Awaited<ReturnType<typeof reportablePaper>>;

beforeAll(async () => {
  test = await createTestApp();
  target = await reportablePaper(test.ctx);
});
afterAll(async () => test.close());

describe("CSRF", () => {
  it("refuses a report without the form's token, with another browser's, or from another site (403)", async () => {
    const path = `/report/paper/${target.paperId}`;
    const before = await reportCount(test.ctx);
    const reader = new PageClient(test);
    const page = await reader.get(path);
    const token = csrfTokenIn(page.html, path);
    const other = new PageClient(test);
    const otherToken = csrfTokenIn((await other.get(path)).html, path);
    const attempts: Record<string, string>[] = [
      {},
      { _csrf: "" },
      { _csrf: otherToken },
      { _csrf: `${token}x` },
    ];
    for (const fields of attempts) {
      const res = await reader.post(path, { reason: "spam", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(403);
    }
    const crossSite = await reader.post(
      path,
      { _csrf: token, reason: "spam" },
      { "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    expect(await reportCount(test.ctx)).toBe(before);
    // The same form with its own token goes through.
    expect((await reader.post(path, { _csrf: token, reason: "spam" })).status).toBe(303);
  });

  it("refuses a resolve without the moderator's session token", async () => {
    const { client } = await moderatorClient(test);
    await fileThroughForm(new PageClient(test), `paper/${target.paperId}`, { reason: "spam" });
    const queue = await client.get("/moderation");
    const id = /id="report-(rpt_[0-9A-Za-z]{22})"/.exec(queue.html)?.[1];
    const res = await client.post(`/moderation/reports/${id}/resolve`, {
      outcome: "dismissed",
      reason: "No token.",
    });
    expect(res.status).toBe(403);
    expect((await client.get("/moderation")).html).toContain(`id="report-${id}"`);
  });
});

describe("who may resolve", () => {
  it("sends signed-out visitors to sign in and answers 404 to owners who are not moderators", async () => {
    await fileThroughForm(new PageClient(test), `comment/${target.commentId}`, { reason: "spam" });
    const { client: moderator } = await moderatorClient(test);
    const id = /id="report-(rpt_[0-9A-Za-z]{22})"/.exec(
      (await moderator.get("/moderation")).html,
    )?.[1];
    const action = `/moderation/reports/${id}/resolve`;

    const anonymous = new PageClient(test);
    const page = await anonymous.get(`/report/paper/${target.paperId}`);
    const signedOut = await anonymous.post(action, {
      _csrf: csrfTokenIn(page.html),
      outcome: "dismissed",
      reason: "Not mine to decide.",
    });
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toMatch(/^\/sign-in\?notice=sign-in-needed/);

    const { client: owner } = await signedInClient(test);
    const ownerPage = await owner.get(`/report/paper/${target.paperId}`);
    const refused = await owner.post(action, {
      _csrf: csrfTokenIn(ownerPage.html),
      outcome: "dismissed",
      reason: "Not mine to decide.",
    });
    expect(refused.status).toBe(404);
    expect((await owner.get("/moderation")).status).toBe(404);
    expect((await moderator.get("/moderation")).html).toContain(`id="report-${id}"`);
  });
});

describe("reader text", () => {
  it("is shown as text in the queue and the log, never as markup", async () => {
    const note = `<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & more`;
    const res = await fileThroughForm(new PageClient(test), `review/${target.reviewId}`, {
      reason: "other",
      note,
    });
    expect(res.status).toBe(303);
    const { client } = await moderatorClient(test);
    for (const path of ["/moderation", `/moderation/log?target=${target.reviewId}`]) {
      const html = (await client.get(path)).html;
      expect(html, path).toContain(
        "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;",
      );
      expect(html, path).not.toContain("<script>alert(1)");
      expect(html, path).not.toContain("<img src=x");
    }
  });
});

describe("the per-address limit", () => {
  it("takes 10 reports an hour from one address, then answers 429 in the reader's language with Retry-After", async () => {
    const limited = await createTestApp({
      services: {
        rateLimits: createMemoryRateLimits({
          overrides: { ...RELAXED_LIMITS, reports: { points: 10, windowSeconds: 3600 } },
        }),
      },
    });
    try {
      const paper = await reportablePaper(limited.ctx);
      const reader = new PageClient(limited);
      for (let i = 0; i < 10; i++) {
        const res = await fileThroughForm(
          reader,
          `paper/${paper.paperId}`,
          { reason: "spam" },
          "es",
        );
        expect(res.status, `report ${i + 1}`).toBe(303);
      }
      const before = await reportCount(limited.ctx);
      const refused = await fileThroughForm(
        reader,
        `comment/${paper.commentId}`,
        { reason: "abuse", note: "One too many." },
        "es",
      );
      expect(refused.status).toBe(429);
      expect(htmlLang(refused.html)).toBe("es");
      expect(refused.html).toContain(
        "Demasiadas peticiones (denuncias desde tu dirección): el límite es 10 por hora.",
      );
      expect(refused.html).toContain("One too many.");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
      expect(refused.headers.get("ratelimit-policy")).toContain('"reports";q=10;w=3600');
      expect(await reportCount(limited.ctx)).toBe(before);
    } finally {
      await limited.close();
    }
  });
});
