/**
 * @module The submit form with LaTeX bundles through the real LaTeXML in its sandbox (full
 * tier: Debian latexml and bubblewrap), both languages: a LaTeX paper converted with its
 * title, abstract, figure and math; a bundle the converter refuses, and one that never ends
 * and is stopped by the time limit, each the form again with the reason (422), nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { findLatexml, type LatexConverter } from "../../services/files/index.ts";
import { fixtureEntries, makeTarGz, makeZip } from "../../testing/bundles.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import {
  escaped,
  paperForm,
  postBundleForm,
  prefix,
  redirectedPaperId,
  type SubmitTestApp,
  startSubmitApp,
} from "./submit.test-helpers.ts";

/** A short limit, through the converter's option, so a runaway macro costs seconds. */
const SHORT_SECONDS = 3;

let app: SubmitTestApp;
let short: SubmitTestApp;
const CATALOG = { en: en.submit, es: es.submit };
const LANGS = ["en", "es"] as const;

function converter(timeoutSeconds: number): LatexConverter {
  const latex = findLatexml({ timeoutSeconds });
  if (!latex) throw new Error("LaTeXML, bubblewrap and prlimit are not installed");
  return latex;
}

beforeAll(async () => {
  app = await startSubmitApp({ latex: converter(loadConfig({}).LATEX_TIMEOUT_SECONDS) });
  short = await startSubmitApp({ latex: converter(SHORT_SECONDS) });
});
afterAll(async () => {
  await app?.close();
  await short?.close();
});

const doc = (body: string) =>
  `\\documentclass{article}\n\\title{A paper}\n\\begin{document}\n\\maketitle\n${body}\n\\end{document}\n`;

describe.each(LANGS)("in %s", (lang) => {
  const t = CATALOG[lang];
  const at = (path: string) => `${prefix(lang)}${path}`;

  it("publishes a LaTeX bundle: title and abstract from the source, a figure and MathML", async () => {
    const { client } = await signedInClient(app.test, { lang });
    // The diffusion fixture, made this language's own so the two runs are not duplicates.
    const entries = fixtureEntries("diffusion");
    const tex = new TextDecoder().decode(entries["paper.tex"] as Uint8Array);
    entries["paper.tex"] = tex.replace("Irregular Meshes", `Irregular Meshes (${lang})`);
    const upload = { name: "diffusion.tar.gz", bytes: await makeTarGz(entries) };
    const res = await postBundleForm(
      client,
      at("/submit"),
      paperForm({ title: "", abstract: "", body: "" }),
      upload,
    );
    expect(res.status, res.html.slice(0, 400)).toBe(303);
    const id = redirectedPaperId(res);
    const page = await client.get(at(`/papers/${id}`));
    expect(page.html).toContain(
      `Stable Explicit Schemes for Anisotropic Diffusion on Irregular Meshes (${lang})`,
    );
    expect(page.html).toContain("We derive a step-size bound");
    expect(page.html).toMatch(
      /<figure class="paper-figure" id="figure-1">\n?<img src="\/files\/[0-9a-f]{64}"/,
    );
    expect(page.html).toContain("<math");
  }, 120_000);

  it("refuses a bundle the converter cannot convert, quoting its message (422)", async () => {
    const { client } = await signedInClient(app.test, { lang });
    const res = await postBundleForm(client, at("/submit"), paperForm({ body: "" }), {
      name: "paper.zip",
      bytes: makeZip({ "main.tex": doc("Hello \\input{/etc/passwd}") }),
    });
    expect(res.status).toBe(422);
    const error = /<p class="field-error" id="paper-source-error">([^<]*)<\/p>/.exec(res.html)?.[1];
    expect(error).toContain(escaped(t.source.refusals.converter("")));
    expect(error).toMatch(/missing_file.*\/etc\/passwd/);
    expect(error).not.toMatch(/root:/);
    expect((await client.get(at("/my/papers"))).html).toContain(escaped(t.mine.none));
  }, 120_000);

  it("stops a bundle that never ends at the time limit and says so (422)", async () => {
    const { client } = await signedInClient(short.test, { lang });
    const res = await postBundleForm(client, at("/submit"), paperForm({ body: "" }), {
      name: "paper.zip",
      bytes: makeZip({ "main.tex": doc("\\def\\x{\\relax\\x}\\x") }),
    });
    expect(res.status).toBe(422);
    expect(res.html).toContain(
      `<p class="field-error" id="paper-source-error">${escaped(
        `${t.source.refusals.timeout(SHORT_SECONDS)} ${t.source.chooseAgain}`,
      )}</p>`,
    );
    expect((await client.get(at("/my/papers"))).html).toContain(escaped(t.mine.none));
  }, 60_000);
});
