/**
 * Papers with figures in real Chromium: a LaTeX paper imported with `quire import` (its
 * `"source"` converted by LaTeXML in its sandbox: needs latexml and bubblewrap) shows its
 * figures with captions, numbered references that lead to their targets, and MathML, in
 * English and Spanish; an owner submits another LaTeX bundle through the submit form (a file
 * chosen in the file input) and reads it with its figure and MathML; a Markdown paper's SVG
 * figure whose file holds a script shows as an image, and opened directly from /files/ its
 * script never runs.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { es } from "../../src/http/pages/i18n/es.ts";
import {
  createOwnerOverHttp,
  inPage,
  launchChromium,
  type Owner,
  openTab,
  type Site,
  serveSite,
  signInOverHttp,
  storageStateOf,
} from "../../src/testing/browser.ts";
import { fixtureEntries, makeTarGz } from "../../src/testing/bundles.ts";
import { figureBundle } from "../../src/testing/figure-papers.ts";
import { runQuire } from "../../src/testing/quire-cli.ts";

let browser: Browser;
let site: Site;
let folder: string;
let latexId: string;
let markdownId: string;
let svgUrl: string;
let author: Owner;

interface ApiFile {
  name: string;
  url: string;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "quire-figures-browser-"));
  await writeFile(join(folder, "spectral.tar.gz"), await makeTarGz(fixtureEntries("spectral")));
  await writeFile(join(folder, "figures.zip"), await figureBundle(99));
  const common = { ai_model: "test-model", license: "CC-BY-4.0", keywords: ["figures"] };
  await writeFile(
    join(folder, "papers.jsonl"),
    [
      { source: "spectral.tar.gz", ...common },
      {
        source: "figures.zip",
        title: "Estimates of spectral gaps shown as plots and diagrams",
        abstract:
          "A short paper whose figures are a plot and a diagram, with the data of its table as a supplementary file, used to check how figures are shown.",
        ...common,
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  );
  site = await serveSite("figures", {
    beforeServe: async (env) => {
      const run = await runQuire(["import", join(folder, "papers.jsonl")], env);
      if (run.code !== 0) throw new Error(`quire import failed: ${run.stderr}`);
    },
  });
  const list = (await (await fetch(`${site.base}/api/v1/papers?limit=10`)).json()) as {
    papers: { id: string; title: string }[];
  };
  latexId = list.papers.find((p) => p.title.startsWith("Spectral Gaps"))?.id ?? "";
  markdownId = list.papers.find((p) => p.title.startsWith("Estimates of spectral"))?.id ?? "";
  const detail = (await (await fetch(`${site.base}/api/v1/papers/${markdownId}`)).json()) as {
    version: { files: ApiFile[] };
  };
  svgUrl = new URL(detail.version.files.find((f) => f.name.endsWith(".svg"))?.url ?? "").pathname;
  author = await createOwnerOverHttp(site, "figures-author");
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await rm(folder, { recursive: true, force: true });
});

describe("a LaTeX paper's page", () => {
  for (const [lang, path, filesHeading] of [
    ["en", "", "Figures and files"],
    ["es", "/es", "Figuras y archivos"],
  ] as const) {
    it(`shows figures with captions, numbered references and MathML (${lang})`, async () => {
      const tab = await openTab(browser, { lang });
      try {
        const { page } = tab;
        await page.goto(`${site.base}${path}/papers/${latexId}`);
        await page.waitForLoadState("load");
        // Figures load lazily: bring each into view and wait for its image.
        for (const id of ["figure-1", "figure-2"]) {
          await page.locator(`#${id} img`).scrollIntoViewIfNeeded();
          await page.waitForFunction(
            `(() => { const i = document.querySelector("#${id} img"); return i.complete && i.naturalWidth > 0; })()`,
          );
        }
        const figures = await inPage<{ loaded: boolean; caption: string }[]>(
          page,
          `[...document.querySelectorAll("#paper-body figure.paper-figure")].map((f) => ({
            loaded: f.querySelector("img").complete && f.querySelector("img").naturalWidth > 0,
            caption: f.querySelector("figcaption").textContent,
          }))`,
        );
        expect(figures).toHaveLength(2);
        expect(figures.every((f) => f.loaded)).toBe(true);
        expect(figures[0]?.caption).toContain("Figure 1: Estimated gap against the number");
        expect(figures[1]?.caption).toContain("Figure 2: Histogram of the second eigenvalue");
        expect(
          await inPage<number>(page, `document.querySelectorAll("#paper-body math").length`),
        ).toBeGreaterThan(10);
        expect(
          await inPage<string>(page, `document.querySelector("#table-1 figcaption").textContent`),
        ).toContain("Table 1:");
        expect(await inPage<boolean>(page, `!!document.querySelector("#theorem-1 strong")`)).toBe(
          true,
        );
        // Each reference leads to its numbered target on the page.
        for (const target of [
          "eq-1",
          "figure-1",
          "figure-2",
          "table-1",
          "theorem-1",
          "bib-1",
          "section-2",
          "note-1",
        ]) {
          const linked = await inPage<boolean>(
            page,
            `!!document.querySelector('#paper-body a[href="#${target}"]') && !!document.getElementById("${target}")`,
          );
          expect(linked, target).toBe(true);
        }
        await page.click('#paper-body a[href="#figure-2"]');
        expect(new URL(page.url()).hash).toBe("#figure-2");
        expect(await inPage<string>(page, `document.documentElement.lang`)).toBe(lang);
        expect(
          await inPage<string>(page, `document.getElementById("files-title").textContent`),
        ).toBe(filesHeading);
        expect(tab.consoleErrors).toEqual([]);
      } finally {
        await tab.close();
      }
    }, 120_000);
  }
});

describe("a LaTeX bundle submitted through the form", () => {
  it("is chosen in the file input, converted, and reads with its figure and MathML (es)", async () => {
    const state = storageStateOf(site, await signInOverHttp(site, author));
    const tab = await openTab(browser, { lang: "es", storageState: state });
    const { page } = tab;
    const f = es.submit.form;
    try {
      await page.goto(`${site.base}/es/submit`);
      // This server has LaTeXML: the form says how long a conversion may take, not that it
      // needs installing.
      expect(await page.locator("#latex-missing").count()).toBe(0);
      expect(await page.locator("#latex-time").textContent()).toContain("LaTeXML");
      // Title and abstract left empty: the source's \title and abstract are used.
      await page.getByLabel(f.aiModel, { exact: true }).fill("claude-opus-4.5");
      await page.getByLabel(f.keywords, { exact: true }).fill("diffusion, finite volumes");
      await page.setInputFiles("#paper-source", {
        name: "diffusion.tar.gz",
        mimeType: "application/gzip",
        buffer: Buffer.from(await makeTarGz(fixtureEntries("diffusion"))),
      });
      await Promise.all([
        page.waitForURL(/\/es\/my\/papers\/\d{4}\.\d{5}\?notice=submitted$/, { timeout: 90_000 }),
        page.getByRole("button", { name: f.submit }).click(),
      ]);
      const id = /\/my\/papers\/(\d{4}\.\d{5})/.exec(page.url())?.[1] ?? "";
      await page.goto(`${site.base}/es/papers/${id}`);
      await page.waitForLoadState("load");
      expect(await page.locator("#paper-title").textContent()).toContain(
        "Stable Explicit Schemes for Anisotropic Diffusion",
      );
      await page.locator("#figure-1 img").scrollIntoViewIfNeeded();
      // Polled by evaluating (the page's CSP refuses waitForFunction's string polling).
      await expect
        .poll(() =>
          inPage<boolean>(
            page,
            `(() => { const i = document.querySelector("#figure-1 img"); return i.complete && i.naturalWidth > 0; })()`,
          ),
        )
        .toBe(true);
      expect(
        await inPage<string>(page, `document.querySelector("#figure-1 figcaption").textContent`),
      ).toMatch(/^Figure 1:/);
      expect(
        await inPage<number>(page, `document.querySelectorAll("#paper-body math").length`),
      ).toBeGreaterThan(5);
      expect(tab.consoleErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 180_000);
});

describe("an uploaded SVG with a script", () => {
  it("shows as an image on the paper page, and runs nothing there", async () => {
    const tab = await openTab(browser);
    try {
      const requests: string[] = [];
      tab.page.on("request", (r) => requests.push(r.url()));
      await tab.page.goto(`${site.base}/papers/${markdownId}`);
      await tab.page.waitForLoadState("load");
      await tab.page.locator("#figure-2 img").scrollIntoViewIfNeeded();
      await tab.page.waitForFunction(
        `(() => { const i = document.querySelector("#figure-2 img"); return i.complete && i.naturalWidth > 0; })()`,
      );
      const svg = await inPage<{ loaded: boolean }>(
        tab.page,
        `(() => { const img = document.querySelector('#figure-2 img'); return { loaded: img.complete && img.naturalWidth > 0 }; })()`,
      );
      expect(svg.loaded).toBe(true);
      expect(await inPage<unknown>(tab.page, "window.__svgRan")).toBeUndefined();
      expect(tab.dialogs).toEqual([]);
      expect(requests.filter((u) => u.includes("stolen"))).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it("opened directly from /files/, runs no script and fetches nothing", async () => {
    const tab = await openTab(browser);
    try {
      const requests: string[] = [];
      tab.page.on("request", (r) => requests.push(r.url()));
      const res = await tab.page.goto(`${site.base}${svgUrl}`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()["content-security-policy"]).toContain("sandbox");
      await tab.page.waitForTimeout(500);
      expect(await inPage<unknown>(tab.page, "window.__svgRan")).toBeUndefined();
      expect(tab.dialogs).toEqual([]);
      expect(requests.filter((u) => u.includes("stolen"))).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 60_000);
});
