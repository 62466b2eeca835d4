/**
 * @module /moderation/papers/{id}/subjects, both languages: the form, the change seen at once in
 * lists and on the paper, the log entry, refusals beside their fields, and nobody else's way in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { publishPaper } from "../../testing/factories.ts";
import { eventsFor, paperRow } from "../../testing/moderation.ts";
import { csrfTokenIn, htmlLang, type PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, moderatorClient } from "./moderation.test-helpers.ts";
import { signedInClient } from "./pages.test-helpers.ts";

let test: TestApp;
const CATALOG = { en, es } as const;
const LANGS = ["en", "es"] as const;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

/** Loads the form page and posts its form with the CSRF token. */
async function post(client: PageClient, path: string, fields: Record<string, string>) {
  const page = await client.get(path);
  return client.post(path, { _csrf: csrfTokenIn(page.html, path), ...fields });
}

const listedIds = async (subject: string) =>
  (
    (await (await test.app.request(`/api/v1/papers?subject=${subject}`)).json()) as {
      papers: { id: string }[];
    }
  ).papers.map((p) => p.id);

describe.each(LANGS)("in %s", (lang) => {
  const t = CATALOG[lang].subjects;
  const at = (path: string) => (lang === "es" ? `/es${path}` : path);

  it("a moderator changes the subjects: logged, and every list and page shows it at once", async () => {
    const { client, handle } = await moderatorClient(test, { lang });
    const { paper_id: id } = await publishPaper(test.ctx, { subjects: ["cs.CL", "cs.LG"] });
    const paper = await client.get(at(`/papers/${id}`));
    expect(paper.html).toContain(`href="${at(`/moderation/papers/${id}/subjects`)}"`);
    expect(paper.html).toContain(escaped(t.paper.change));

    const path = at(`/moderation/papers/${id}/subjects`);
    const form = await client.get(path);
    expect(form.status).toBe(200);
    expect(htmlLang(form.html)).toBe(lang);
    expect(form.html).toContain(escaped(t.moderation.title(id)));
    expect(form.html).toMatch(
      /<select id="mod-subjects-0"[\s\S]*?<option value="cs.CL" selected="">/,
    );
    expect(form.html).toMatch(
      /<select id="mod-subjects-1"[\s\S]*?<option value="cs.LG" selected="">/,
    );

    const res = await post(client, path, {
      "subjects.0": "cs.IR",
      "subjects.1": "cs.CL",
      reason: "Retrieval, first of all.",
    });
    expect(res.status, res.html).toBe(303);
    expect(res.location).toBe(`${path}?done=changed`);
    const done = await client.get(res.location as string);
    expect(done.html).toContain(escaped(t.moderation.done));

    expect((await paperRow(test.ctx, id)).subjects).toEqual(["cs.IR", "cs.CL"]);
    expect(await listedIds("cs.IR")).toContain(id);
    expect(await listedIds("cs.LG")).not.toContain(id);
    const shown = await client.get(at(`/papers/${id}`));
    expect(shown.html).toMatch(
      /id="paper-subjects">[\s\S]*data-subject="cs.IR"[\s\S]*data-subject="cs.CL"/,
    );
    const [event] = await eventsFor(test.ctx, id);
    expect(event).toMatchObject({ action: "paper.subjects", actor: handle });
    const log = await client.get(at(`/moderation/log?target=${id}`));
    expect(log.html).toContain(escaped(CATALOG[lang].moderation.log.actions["paper.subjects"]!));
    expect(log.html).toContain("cs.CL, cs.LG → cs.IR, cs.CL");

    const again = await post(client, path, {
      "subjects.0": "cs.IR",
      "subjects.1": "cs.CL",
      reason: "Same.",
    });
    expect(again.location).toBe(`${path}?done=unchanged`);
    expect(await eventsFor(test.ctx, id)).toHaveLength(1);
  });

  it("shows the screener's suggestion for a paper without subjects and starts the picker from it", async () => {
    const { client } = await moderatorClient(test, { lang });
    const text = (n: number) => ({
      title: `Glacier calving fronts of fjord ${lang} ${n} seen by radar interferometry`,
      abstract: `Radar interferometry tracks calving fronts of tidewater glaciers in fjord ${n}: ice velocity, terminus retreat and iceberg discharge measured from repeat satellite passes (${lang}).`,
      keywords: [],
    });
    for (const n of [1, 2, 3])
      await publishPaper(test.ctx, { ...text(n), subjects: ["physics.geo-ph"] });
    const { paper_id: id } = await publishPaper(test.ctx, text(4));
    const form = await client.get(at(`/moderation/papers/${id}/subjects`));
    expect(form.html).toContain(escaped(t.moderation.none));
    expect(form.html).toMatch(/id="suggested-subject">[^<]*physics\.geo-ph/);
    expect(form.html).toMatch(
      /<select id="mod-subjects-0"[\s\S]*?<option value="physics.geo-ph" selected="">/,
    );
    expect((await paperRow(test.ctx, id)).subjects).toEqual([]);
  });

  it("refuses a missing reason and a repeated subject beside their fields; nothing changes", async () => {
    const { client } = await moderatorClient(test, { lang });
    const { paper_id: id } = await publishPaper(test.ctx, { subjects: ["cs.CL"] });
    const path = at(`/moderation/papers/${id}/subjects`);
    const res = await post(client, path, { "subjects.0": "cs.AI", "subjects.1": "cs.AI" });
    expect(res.status).toBe(400);
    expect(res.html).toContain(
      `<p class="field-error" id="mod-subjects-1-error">${escaped(t.errors.repeated)}</p>`,
    );
    expect(res.html).toContain(escaped(CATALOG[lang].moderation.errors.reasonRequired));
    expect(res.html).toMatch(
      /<select id="mod-subjects-1"[\s\S]*?<option value="cs.AI" selected="">/,
    );
    const none = await post(client, path, { reason: "Nothing fits." });
    expect(none.status).toBe(400);
    expect(none.html).toContain(escaped(t.errors.required));
    expect((await paperRow(test.ctx, id)).subjects).toEqual(["cs.CL"]);
  });

  it("is a 404 for owners who are not moderators, and asks the signed-out to sign in", async () => {
    const { paper_id: id } = await publishPaper(test.ctx, { subjects: ["cs.CL"] });
    const path = at(`/moderation/papers/${id}/subjects`);
    const { client } = await signedInClient(test, { lang });
    expect((await client.get(path)).status).toBe(404);
    const paper = await client.get(at(`/papers/${id}`));
    expect(paper.html).not.toContain('/subjects"');
    const token = csrfTokenIn((await client.get(at("/submit"))).html);
    const refused = await client.post(path, { _csrf: token, "subjects.0": "cs.AI", reason: "x" });
    expect(refused.status).toBe(404);
    expect((await paperRow(test.ctx, id)).subjects).toEqual(["cs.CL"]);
    const anonymous = await test.app.request(path, { headers: { accept: "text/html" } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toContain("/sign-in?notice=sign-in-needed");
  });
});
