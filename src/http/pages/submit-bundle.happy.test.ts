/**
 * @module The paper forms with a source bundle, both languages: what the form offers (from
 * the files domain's bounds), a Markdown bundle with a figure published through the form,
 * a preview, and revisions with and without a bundle. LaTeX is full tier
 * (submit-bundle.latex.test.ts, test/browser/figures.e2e.test.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BUNDLE_LIMITS,
  FIGURE_TYPES,
  type LatexConverter,
  SOURCE_TYPES,
  SUPPLEMENTARY_TYPES,
} from "../../services/files/index.ts";
import type { PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import {
  escaped,
  markdownBundle,
  paperForm,
  postBundleForm,
  prefix,
  redirectedPaperId,
  type SubmitTestApp,
  startSubmitApp,
} from "./submit.test-helpers.ts";
import { formatBytes } from "./submit-source.tsx";

let app: SubmitTestApp;
const CATALOG = { en, es };
const LANGS = ["en", "es"] as const;

beforeAll(async () => {
  app = await startSubmitApp();
});
afterAll(async () => app.close());
beforeEach(() => {
  app.llm.behaviour = { kind: "verdict", verdict: "pass" };
});

async function owner(lang: "en" | "es", test = app): Promise<PageClient> {
  return (await signedInClient(test.test, { lang })).client;
}

interface ApiVersion {
  version: {
    version: number;
    body: string;
    files: { name: string; role: string; media_type: string; sha256: string }[];
  };
}

async function apiPaper(id: string): Promise<ApiVersion> {
  return (await (await app.test.app.request(`/api/v1/papers/${id}`)).json()) as ApiVersion;
}

const list = (types: Record<string, string>) =>
  Object.keys(types)
    .map((ext) => `.${ext}`)
    .join(", ");

describe.each(LANGS)("in %s", (lang) => {
  const t = CATALOG[lang].submit;
  const locale = CATALOG[lang].meta.dateLocale;
  const at = (path: string) => `${prefix(lang)}${path}`;

  it("offers a bundle: a multipart form with a file input, what a bundle may hold, and that LaTeX needs LaTeXML here", async () => {
    const client = await owner(lang);
    const res = await client.get(at("/submit"));
    expect(res.status).toBe(200);
    expect(res.html).toContain('enctype="multipart/form-data"');
    expect(res.html).toMatch(
      /<input type="file" id="paper-source" name="source" accept=".zip,.tar.gz,.tgz"/,
    );
    expect(res.html).toContain(escaped(t.source.hint));
    // This app has no LaTeX converter, as /readyz reports: the form says what LaTeX needs.
    expect(res.html).toContain(
      `<p class="warning" id="latex-missing">${escaped(t.source.latexMissing)}</p>`,
    );
    // The types and sizes are the files domain's, rendered, never restated.
    expect(res.html).toContain(escaped(t.source.figures(list(FIGURE_TYPES))));
    expect(res.html).toContain(escaped(t.source.supplementary(list(SUPPLEMENTARY_TYPES))));
    expect(res.html).toContain(escaped(t.source.sources(list(SOURCE_TYPES))));
    const size = (n: number) => formatBytes(locale, n);
    expect(res.html).toContain(
      escaped(
        t.source.sizes(
          size(BUNDLE_LIMITS.compressedMax),
          size(BUNDLE_LIMITS.fileMax),
          size(BUNDLE_LIMITS.totalMax),
        ),
      ),
    );
    expect(size(BUNDLE_LIMITS.compressedMax)).toBe("20 MiB");
    expect(res.html).toContain(
      escaped(t.source.counts(BUNDLE_LIMITS.entriesMax, BUNDLE_LIMITS.keptMax)),
    );
  });

  it("publishes a Markdown bundle with a PNG figure: the paper shows it in a <figure>", async () => {
    const client = await owner(lang);
    const { upload, body } = await markdownBundle();
    const res = await postBundleForm(client, at("/submit"), paperForm({ body: "" }), upload);
    expect(res.status).toBe(303);
    const id = redirectedPaperId(res);
    const api = await apiPaper(id);
    expect(api.version.body).toBe(body);
    expect(api.version.files.map((f) => [f.name, f.role, f.media_type])).toEqual([
      ["figures/plot.png", "figure", "image/png"],
      ["data/estimates.csv", "supplementary", "text/csv"],
    ]);
    const png = api.version.files[0]?.sha256 ?? "";
    const page = await client.get(at(`/papers/${id}`));
    expect(page.status).toBe(200);
    expect(page.html).toContain('<figure class="paper-figure" id="figure-1">');
    expect(page.html).toContain(`<img src="/files/${png}"`);
    expect(page.html).toMatch(/<figcaption>Figure 1: Estimated gap against steps\.<\/figcaption>/);
    const figure = await app.test.app.request(`/files/${png}`);
    expect(figure.status).toBe(200);
    expect(figure.headers.get("content-type")).toBe("image/png");
  });

  it("takes the main file the form names when the bundle has several", async () => {
    const client = await owner(lang);
    const { upload, body } = await markdownBundle({ "notes.md": "# Notes\n\nScratch." });
    const res = await postBundleForm(
      client,
      at("/submit"),
      { ...paperForm({ body: "" }), main: "paper.md" },
      upload,
    );
    expect(res.status).toBe(303);
    expect((await apiPaper(redirectedPaperId(res))).version.body).toBe(body);
  });

  it("says a preview does not read the bundle, and keeps what was typed", async () => {
    const client = await owner(lang);
    const { upload } = await markdownBundle();
    const fields = paperForm({ body: "" });
    const res = await postBundleForm(client, at("/submit"), fields, upload, "preview");
    expect(res.status).toBe(200);
    expect(res.html).toContain(escaped(t.source.notPreviewed("paper.zip")));
    expect(res.html).toContain(`value="${escaped(fields.title as string)}"`);
  });

  it("revises with a new bundle, and keeps the figures when only the text changes", async () => {
    const client = await owner(lang);
    const first = await markdownBundle();
    const id = redirectedPaperId(
      await postBundleForm(client, at("/submit"), paperForm({ body: "" }), first.upload),
    );
    const form = await client.get(at(`/papers/${id}/revise`));
    expect(form.html).toContain(escaped(`${t.source.hint} ${t.source.reviseHint}`));

    // The text edited in the form, no bundle: the figures stay.
    const edited = `${first.body}\nOne more sentence about the estimate.\n`;
    const typed = await postBundleForm(
      client,
      at(`/papers/${id}/revise`),
      { ...paperForm({ body: edited }), changelog: "A sentence more." },
      null,
    );
    expect(typed.status).toBe(303);
    const v2 = await apiPaper(id);
    expect(v2.version.version).toBe(2);
    expect(v2.version.files.map((f) => f.name)).toEqual(["figures/plot.png", "data/estimates.csv"]);
    expect((await client.get(at(`/papers/${id}`))).html).toContain(
      `<img src="/files/${v2.version.files[0]?.sha256}"`,
    );

    // A new bundle: its text and files are the version's.
    const second = await markdownBundle({ "data/more.csv": "d\n4\n" });
    const bundled = await postBundleForm(
      client,
      at(`/papers/${id}/revise`),
      { ...paperForm({ body: "" }), changelog: "New data." },
      second.upload,
    );
    expect(bundled.status).toBe(303);
    const v3 = await apiPaper(id);
    expect(v3.version).toMatchObject({ version: 3, body: second.body });
    expect(v3.version.files.map((f) => f.name)).toEqual([
      "figures/plot.png",
      "data/estimates.csv",
      "data/more.csv",
    ]);
  });
});

describe("on a server with a LaTeX converter", () => {
  let withLatex: SubmitTestApp;
  beforeAll(async () => {
    // The form only asks the port whether there is one, and its time limit.
    const latex: LatexConverter = {
      timeoutSeconds: 42,
      convert: () => Promise.reject(new Error("not called")),
    };
    withLatex = await startSubmitApp({ latex });
  });
  afterAll(async () => withLatex.close());

  it.each(LANGS)(
    "says how long a conversion may take, not that LaTeX needs LaTeXML (%s)",
    async (lang) => {
      const client = await owner(lang, withLatex);
      const res = await client.get(`${prefix(lang)}/submit`);
      expect(res.html).toContain(escaped(CATALOG[lang].submit.source.latexTime(42)));
      expect(res.html).not.toContain('id="latex-missing"');
    },
  );
});
