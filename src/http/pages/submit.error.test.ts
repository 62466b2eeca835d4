/** @module Submission pages, both languages: sign-in, verification, validation, size, states. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import {
  escaped,
  paperForm,
  postPaperForm,
  prefix,
  redirectedPaperId,
  type SubmitTestApp,
  startSubmitApp,
} from "./submit.test-helpers.ts";
import { PAPER_FORM_MAX_BYTES } from "./submit-parts.tsx";

let app: SubmitTestApp;
const CATALOG = { en: en.submit, es: es.submit };
const LANGS = ["en", "es"] as const;

beforeAll(async () => {
  app = await startSubmitApp();
});
afterAll(async () => app.close());
beforeEach(() => {
  app.llm.behaviour = { kind: "verdict", verdict: "pass" };
});

describe.each(LANGS)("in %s", (lang) => {
  const t = CATALOG[lang];
  const at = (path: string) => `${prefix(lang)}${path}`;

  it("sends signed-out visitors to sign in, coming back afterwards", async () => {
    const client = new PageClient(app.test);
    for (const path of [
      "/submit",
      "/my/papers",
      "/my/papers/2611.00001",
      "/papers/2611.00001/revise",
      "/papers/2611.00001/withdraw",
    ]) {
      const res = await client.get(at(path));
      expect(res.status).toBe(302);
      expect(res.location).toBe(`${at("/sign-in")}?notice=sign-in-needed&next=${path}`);
      const signIn = await client.get(res.location as string);
      expect(signIn.html).toContain(`name="next" value="${path}"`);
    }
  });

  it("explains to an unverified owner why they cannot submit, and refuses the form", async () => {
    const { client } = await signedInClient(app.test, { verified: false, lang });
    const res = await client.get(at("/submit"));
    expect(res.status).toBe(200);
    expect(res.html).toContain(escaped(t.unverified.text));
    expect(res.html).not.toContain('id="paper-form"');
    // No paper form to take a token from: the session's token from the sign-out form.
    const page = await client.get(at("/agents"));
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    const refused = await client.post(at("/submit"), { _csrf: token, ...paperForm() });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(escaped(t.unverified.text));
  });

  it("lists every field error beside its field, keeping what was typed (400)", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const res = await postPaperForm(client, at("/submit"), {
      ...paperForm(),
      title: "Hi",
      abstract: "",
      ai_model: "",
      keywords: `ok, ${"k".repeat(51)}`,
      body: "Kept <b>as typed</b>",
    });
    expect(res.status).toBe(400);
    const e = t.errors;
    for (const [field, message] of [
      ["title", e.tooShort(5)],
      ["abstract", e.required],
      ["ai_model", e.required],
      ["keywords", e.keywordTooLong(50)],
    ] as const) {
      expect(res.html).toContain(
        `<p class="field-error" id="paper-${field}-error">${escaped(message)}</p>`,
      );
      expect(res.html).toContain(`<a href="#paper-${field}">${escaped(message)}</a>`);
    }
    expect(res.html).toContain("Kept &lt;b&gt;as typed&lt;/b&gt;</textarea>");
    expect(res.html).toContain('value="Hi"');
  });

  it("answers an oversized form with a friendly 413 that states the bounds", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const page = await client.get(at("/submit"));
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    const res = await client.post(at("/submit"), {
      _csrf: token,
      ...paperForm(),
      body: "x".repeat(PAPER_FORM_MAX_BYTES + 1),
    });
    expect(res.status).toBe(413);
    expect(res.html).toContain(escaped(t.tooLarge.title));
    expect(res.html).toContain(`href="${at("/submit")}"`);
  });

  it("asks for a changelog on a new version", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const id = redirectedPaperId(await postPaperForm(client, at("/submit"), paperForm()));
    const res = await postPaperForm(client, at(`/papers/${id}/revise`), {
      ...paperForm(),
      changelog: "  ",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(
      `<p class="field-error" id="paper-changelog-error">${escaped(t.errors.required)}</p>`,
    );
  });

  it("keeps a new version's form when the model is unavailable (503, nothing saved)", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const id = redirectedPaperId(await postPaperForm(client, at("/submit"), paperForm()));
    app.llm.behaviour = { kind: "status", status: 502 };
    const fields: Record<string, string> = { ...paperForm(), changelog: "Second try." };
    const res = await postPaperForm(client, at(`/papers/${id}/revise`), fields);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(res.html).toContain(escaped(t.outcome.unavailableText));
    expect(res.html).toContain(`value="${escaped(fields.title as string)}"`);
    const api = (await (await app.test.app.request(`/api/v1/papers/${id}`)).json()) as {
      version: { version: number };
    };
    expect(api.version.version).toBe(1);
  });

  it("explains why a withdrawn paper cannot be revised or withdrawn again (409)", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const id = redirectedPaperId(await postPaperForm(client, at("/submit"), paperForm()));
    await postPaperForm(client, at(`/papers/${id}/withdraw`), {});
    const revise = await client.get(at(`/papers/${id}/revise`));
    expect(revise.status).toBe(409);
    expect(revise.html).toContain(escaped(t.revise.notPublished(t.status.withdrawn)));
    const posted = await client.post(at(`/papers/${id}/revise`), {
      _csrf: /name="_csrf" value="([^"]+)"/.exec(revise.html)?.[1] ?? "",
      ...paperForm(),
      changelog: "Back again.",
    });
    expect(posted.status).toBe(409);
    const again = await client.get(at(`/papers/${id}/withdraw`));
    expect(again.status).toBe(409);
    expect(again.html).toContain(escaped(t.withdraw.already));
  });

  it("refuses a withdrawal reason over its bound, keeping the paper published", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const id = redirectedPaperId(await postPaperForm(client, at("/submit"), paperForm()));
    const res = await postPaperForm(client, at(`/papers/${id}/withdraw`), {
      reason: "r".repeat(1001),
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(escaped(t.errors.tooLong(1000)));
    expect((await app.test.app.request(`/api/v1/papers/${id}`)).status).toBe(200);
  });

  it("answers 404 for papers that do not exist or are not the owner's", async () => {
    const { client } = await signedInClient(app.test, { lang });
    for (const path of [
      "/my/papers/2611.99999",
      "/my/papers/not-an-id",
      "/papers/2611.99999/revise",
      "/papers/2611.99999/withdraw",
    ]) {
      expect((await client.get(at(path))).status).toBe(404);
    }
  });
});
