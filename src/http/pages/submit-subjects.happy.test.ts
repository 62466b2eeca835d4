/** @module The submission form's subject picker, both languages: shown, submitted, kept and changed on revision. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishPaper } from "../../testing/factories.ts";
import { htmlLang, type PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import { subjectLabel } from "./subject-parts.tsx";
import {
  escaped,
  paperForm,
  postPaperForm,
  prefix,
  redirectedPaperId,
  type SubmitTestApp,
  startSubmitApp,
} from "./submit.test-helpers.ts";

let app: SubmitTestApp;
const CATALOG = { en, es } as const;
const LANGS = ["en", "es"] as const;

beforeAll(async () => {
  app = await startSubmitApp();
});
afterAll(async () => app.close());

async function owner(lang: "en" | "es"): Promise<PageClient> {
  return (await signedInClient(app.test, { lang })).client;
}

async function subjectsOf(id: string): Promise<string[]> {
  const res = await app.test.app.request(`/api/v1/papers/${id}`);
  return ((await res.json()) as { paper: { subjects: string[] } }).paper.subjects;
}

/** The value selected in each of the picker's selects, "" for none. */
function selected(html: string): string[] {
  return [0, 1, 2, 3, 4].map((i) => {
    const select = new RegExp(`<select id="paper-subjects-${i}"[\\s\\S]*?</select>`).exec(
      html,
    )?.[0];
    expect(select, `select ${i}`).toBeDefined();
    return /<option value="([^"]*)" selected="">/.exec(select as string)?.[1] ?? "";
  });
}

describe.each(LANGS)("the subject picker in %s", (lang) => {
  const t = CATALOG[lang].subjects;
  const at = (path: string) => `${prefix(lang)}${path}`;

  it("offers a primary and four cross-lists, grouped by arXiv's groups, named in the page's language", async () => {
    const client = await owner(lang);
    const res = await client.get(at("/submit"));
    expect(res.status).toBe(200);
    expect(htmlLang(res.html)).toBe(lang);
    expect(res.html).toContain(`<legend>${escaped(t.picker.legend)}</legend>`);
    expect(res.html).toContain(
      `<label for="paper-subjects-0">${escaped(t.picker.primary)}</label>`,
    );
    expect(res.html).toContain(
      `<label for="paper-subjects-4">${escaped(t.picker.cross(4))}</label>`,
    );
    for (let i = 0; i < 5; i++) expect(res.html).toContain(`name="subjects.${i}"`);
    expect(res.html).not.toContain('name="subjects.5"');
    const group = lang === "en" ? "Computer Science" : "Ciencias de la computación";
    const name = lang === "en" ? "Computation and Language" : "Computación y lenguaje";
    expect(res.html).toContain(`<optgroup label="${escaped(group)}">`);
    expect(res.html).toContain(`<option value="cs.CL">${escaped(name)} (cs.CL)</option>`);
    expect(selected(res.html)).toEqual(["", "", "", "", ""]);
    expect(res.html).toContain('aria-describedby="paper-subjects-hint"');
  });

  it("submits the chosen subjects in order, empty cross-lists skipped, and previews them", async () => {
    const client = await owner(lang);
    const fields = paperForm({ "subjects.0": "cs.CL", "subjects.2": "cs.LG" });
    const preview = await postPaperForm(client, at("/submit"), fields, "preview");
    expect(preview.status).toBe(200);
    expect(selected(preview.html)).toEqual(["cs.CL", "", "cs.LG", "", ""]);
    expect(preview.html).toMatch(/class="preview-subjects"[\s\S]*data-subject="cs.LG"/);
    const res = await postPaperForm(client, at("/submit"), fields);
    expect(res.status, res.html).toBe(303);
    expect(await subjectsOf(redirectedPaperId(res))).toEqual(["cs.CL", "cs.LG"]);
  });

  it("a paper without subjects is fine: they are optional", async () => {
    const client = await owner(lang);
    const res = await postPaperForm(client, at("/submit"), paperForm());
    expect(res.status, res.html).toBe(303);
    expect(await subjectsOf(redirectedPaperId(res))).toEqual([]);
  });

  it("a paper without subjects shows the screener's suggestion on My papers, and the revise picker starts from it", async () => {
    const text = (n: number) => ({
      title: `Tidal marsh accretion under sea level rise at estuary ${lang} ${n}`,
      abstract: `Sediment cores and elevation tables measure tidal marsh accretion against sea level rise in estuary ${n}; vegetation, sediment supply and tidal range set whether the marsh keeps pace (${lang}).`,
      keywords: [],
    });
    for (const n of [1, 2, 3]) {
      await publishPaper(app.test.ctx, { ...text(n), subjects: ["physics.ao-ph"] });
    }
    const client = await owner(lang);
    const res = await postPaperForm(
      client,
      at("/submit"),
      paperForm({ title: text(4).title, abstract: text(4).abstract, keywords: "" }),
    );
    expect(res.status, res.html).toBe(303);
    const id = redirectedPaperId(res);
    expect(await subjectsOf(id)).toEqual([]);
    const mine = await client.get(at("/my/papers"));
    const name = subjectLabel({ t: CATALOG[lang], lang } as never, "physics.ao-ph");
    expect(mine.html).toContain(escaped(t.suggestion.line(name)));
    const form = await client.get(at(`/papers/${id}/revise`));
    expect(selected(form.html)).toEqual(["physics.ao-ph", "", "", "", ""]);
    // Public reads never carry it.
    const api = await (await app.test.app.request(`/api/v1/papers/${id}`)).text();
    expect(api).not.toContain("suggest");
  });

  it("the revision form shows the paper's subjects, keeps them when left empty, changes them when chosen", async () => {
    const client = await owner(lang);
    const first = await postPaperForm(
      client,
      at("/submit"),
      paperForm({ "subjects.0": "hep-th", "subjects.1": "gr-qc" }),
    );
    const id = redirectedPaperId(first);
    const form = await client.get(at(`/papers/${id}/revise`));
    expect(selected(form.html)).toEqual(["hep-th", "gr-qc", "", "", ""]);
    expect(form.html).toContain(escaped(t.picker.reviseHint));
    const kept = await postPaperForm(
      client,
      at(`/papers/${id}/revise`),
      paperForm({ changelog: "Same subjects." }),
    );
    expect(kept.status, kept.html).toBe(303);
    expect(await subjectsOf(id)).toEqual(["hep-th", "gr-qc"]);
    const moved = await postPaperForm(
      client,
      at(`/papers/${id}/revise`),
      paperForm({ changelog: "New subjects.", "subjects.0": "quant-ph", "subjects.1": "hep-th" }),
    );
    expect(moved.status, moved.html).toBe(303);
    expect(await subjectsOf(id)).toEqual(["quant-ph", "hep-th"]);
  });
});
