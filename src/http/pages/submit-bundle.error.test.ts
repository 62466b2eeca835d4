/**
 * @module The paper forms refusing a source bundle, both languages: each refusal is the form
 * again with the reason beside the file input, a 4xx (never a 5xx), and nothing stored.
 * The converter's own refusals (LaTeXML) are full tier: submit-bundle.latex.test.ts.
 */
// biome-ignore lint/style/noRestrictedImports: tests check that a refusal stores no row.
import { count } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
// biome-ignore lint/style/noRestrictedImports: tests check that a refusal stores no row.
import { files, papers, screeningResults } from "../../db/schema/index.ts";
import { BUNDLE_LIMITS } from "../../services/files/index.ts";
import { makeTarGz, makeZip } from "../../testing/bundles.ts";
import type { PageClient, PageResponse } from "../../testing/page-client.ts";
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
  type Upload,
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

async function owner(lang: "en" | "es"): Promise<PageClient> {
  return (await signedInClient(app.test, { lang })).client;
}

/** Rows a submission would write: papers, files and screening records. */
async function stored(): Promise<number[]> {
  const db = app.test.database.db;
  return Promise.all(
    [papers, files, screeningResults].map(
      async (table) => (await db.select({ n: count() }).from(table))[0]?.n ?? 0,
    ),
  );
}

const LATEX = `\\documentclass{article}\n\\title{A title}\n\\begin{document}\nHello.\n\\end{document}\n`;

describe.each(LANGS)("in %s", (lang) => {
  const t = CATALOG[lang].submit;
  const r = t.source.refusals;
  const size = (n: number) => formatBytes(CATALOG[lang].meta.dateLocale, n);
  const at = (path: string) => `${prefix(lang)}${path}`;

  /** The form again, with the refusal beside the file input and in the summary; nothing stored. */
  async function expectRefused(
    send: (client: PageClient, fields: Record<string, string>) => Promise<PageResponse>,
    status: number,
    message: string,
  ): Promise<void> {
    const client = await owner(lang);
    const fields = paperForm({ body: "" });
    const before = await stored();
    const res = await send(client, fields);
    expect(res.status).toBe(status);
    const shown = escaped(`${message} ${t.source.chooseAgain}`);
    expect(res.html).toContain(`<p class="field-error" id="paper-source-error">${shown}</p>`);
    expect(res.html).toContain(`<a href="#paper-source">${shown}</a>`);
    expect(res.html).toContain('aria-invalid="true"');
    // What was typed is kept; the file must be chosen again (browsers never refill it).
    expect(res.html).toContain(`value="${escaped(fields.title as string)}"`);
    expect(res.html).toContain('id="paper-form"');
    expect(await stored()).toEqual(before);
  }

  const refusedUpload = (upload: Upload, status: number, message: string) =>
    expectRefused(
      (client, fields) => postBundleForm(client, at("/submit"), fields, upload),
      status,
      message,
    );

  it("refuses a file that is not an archive (422)", async () => {
    await refusedUpload(
      { name: "paper.zip", bytes: new TextEncoder().encode("just text") },
      422,
      r.not_archive,
    );
  });

  it("refuses an archive that cannot be read (422)", async () => {
    const cut = makeZip({ "paper.md": "x".repeat(5000) }).slice(0, 40);
    await refusedUpload(
      { name: "paper.zip", bytes: cut },
      422,
      r.unreadable("zip", "invalid zip data"),
    );
  });

  it("refuses a bundle over the archive bound, from the files domain's limit (413)", async () => {
    const big = new Uint8Array(BUNDLE_LIMITS.compressedMax + 1);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    await refusedUpload(
      { name: "big.zip", bytes: big },
      413,
      r.too_large(size(BUNDLE_LIMITS.compressedMax)),
    );
  });

  it("refuses a LaTeX bundle when this server has no LaTeX converter (422)", async () => {
    await refusedUpload(
      { name: "paper.tar.gz", bytes: await makeTarGz({ "main.tex": LATEX }) },
      422,
      r.latex_unavailable,
    );
  });

  it("refuses a bundle with a file of a type Quire does not keep, naming it (422)", async () => {
    const { upload } = await markdownBundle({ "tools/run.exe": "MZ" });
    await refusedUpload(upload, 422, r.unknown_types("tools/run.exe"));
  });

  it("refuses a bundle whose text shows a figure it does not hold (422)", async () => {
    const bytes = makeZip({
      "paper.md": "## Results\n\n![Figure 1: Missing.](figures/missing.png)\n",
    });
    await refusedUpload({ name: "paper.zip", bytes }, 422, r.figure_missing("figures/missing.png"));
  });

  it("refuses a bundle with path traversal (422)", async () => {
    await refusedUpload(
      { name: "paper.zip", bytes: makeZip({ "../evil.md": "x" }) },
      422,
      r.bad_path.leaves("../evil.md"),
    );
  });

  it("refuses a body typed and a bundle together (400)", async () => {
    const { upload } = await markdownBundle();
    await expectRefused(
      (client, fields) =>
        postBundleForm(client, at("/submit"), { ...fields, body: "## Typed\n\nText." }, upload),
      400,
      r.body_and_source,
    );
  });

  it("refuses a bundle on the revision form too, keeping the published version", async () => {
    const client = await owner(lang);
    const id = redirectedPaperId(await postBundleForm(client, at("/submit"), paperForm(), null));
    const res = await postBundleForm(
      client,
      at(`/papers/${id}/revise`),
      { ...paperForm({ body: "" }), changelog: "From LaTeX now." },
      { name: "paper.zip", bytes: makeZip({ "main.tex": LATEX }) },
    );
    expect(res.status).toBe(422);
    expect(res.html).toContain(escaped(`${r.latex_unavailable} ${t.source.chooseAgain}`));
    const api = (await (await app.test.app.request(`/api/v1/papers/${id}`)).json()) as {
      version: { version: number };
    };
    expect(api.version.version).toBe(1);
  });

  it("answers a form over its own cap (the bundle bound and the text) with the 413 page", async () => {
    const client = await owner(lang);
    const before = await stored();
    const page = await client.get(at("/submit"));
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    const form = new FormData();
    form.append("_csrf", token);
    form.append("source", new File([new Uint8Array(BUNDLE_LIMITS.compressedMax * 2)], "huge.zip"));
    const res = await client.request(at("/submit"), { method: "POST", body: form });
    expect(res.status).toBe(413);
    expect(res.html).toContain(escaped(t.tooLarge.title));
    expect(res.html).toContain(size(BUNDLE_LIMITS.compressedMax));
    expect(await stored()).toEqual(before);
  });

  it("refuses text that is not UTF-8 beside a file, naming the field (400)", async () => {
    const client = await owner(lang);
    const page = await client.get(at("/submit"));
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    const { upload } = await markdownBundle();
    const boundary = "----quire-test-boundary";
    const part = (head: string, content: Uint8Array | string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`),
        Buffer.from(content),
        Buffer.from("\r\n"),
      ]);
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="_csrf"', token),
      part('Content-Disposition: form-data; name="title"', Uint8Array.from([0x41, 0xc3, 0x28])),
      part(
        'Content-Disposition: form-data; name="source"; filename="paper.zip"\r\nContent-Type: application/zip',
        upload.bytes,
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const res = await client.request(at("/submit"), {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(
      `<p id="error-fields">${escaped(CATALOG[lang].errorPage.notUtf8Fields)} <code>title</code></p>`,
    );
  });
});
