/** @module The subject picker's refusals, both languages: beside the field, in the summary, nothing stored. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import {
  escaped,
  paperForm,
  postPaperForm,
  prefix,
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

/** The error shown beside select `i`, or null. */
function fieldError(html: string, i: number): string | null {
  return (
    new RegExp(`<p class="field-error" id="paper-subjects-${i}-error">([^<]*)</p>`).exec(
      html,
    )?.[1] ?? null
  );
}

describe.each(LANGS)("subject mistakes in %s", (lang) => {
  const t = CATALOG[lang].subjects.errors;
  const at = (path: string) => `${prefix(lang)}${path}`;

  it("an unknown code, a repeat and the other fields' mistakes, all at once; nothing stored", async () => {
    const client = await owner(lang);
    const res = await postPaperForm(
      client,
      at("/submit"),
      paperForm({
        title: "Hi",
        "subjects.0": "cs.XX",
        "subjects.1": "cs.CL",
        "subjects.3": "cs.CL",
      }),
    );
    expect(res.status).toBe(400);
    expect(fieldError(res.html, 0)).toBe(escaped(t.unknown));
    expect(fieldError(res.html, 1)).toBeNull();
    expect(fieldError(res.html, 3)).toBe(escaped(t.repeated));
    expect(res.html).toContain('id="paper-title-error"');
    expect(res.html).toContain(`<a href="#paper-subjects-0">${escaped(t.unknown)}</a>`);
    expect(res.html).toContain(`<a href="#paper-subjects-3">${escaped(t.repeated)}</a>`);
    expect(res.html).toMatch(
      /<select id="paper-subjects-0" name="subjects.0" aria-describedby="paper-subjects-hint paper-subjects-0-error" aria-invalid="true">/,
    );
    const mine = await client.get(at("/my/papers"));
    expect(mine.html).toContain(escaped(CATALOG[lang].submit.mine.none));
  });

  it("a cross-list without a primary asks for the primary first", async () => {
    const client = await owner(lang);
    const res = await postPaperForm(client, at("/submit"), paperForm({ "subjects.2": "cs.LG" }));
    expect(res.status).toBe(400);
    expect(fieldError(res.html, 0)).toBe(escaped(t.primaryFirst));
    expect(fieldError(res.html, 2)).toBeNull();
    // The choice is kept for the owner to fix.
    expect(res.html).toMatch(
      /<select id="paper-subjects-2"[\s\S]*?<option value="cs.LG" selected="">/,
    );
  });
});
