/**
 * @module bench:latex — which converter turns AI-written LaTeX papers into Quire's pages
 * best, and how fast: LaTeXML (Quire's pipeline: latexmlc in its bubblewrap sandbox, its HTML
 * turned into the paper Markdown, rendered by the page's renderer) against pandoc (LaTeX to
 * HTML5 with MathML, in the same sandbox). Each fixture paper of test/fixtures/latex/ is
 * scored on what a reader of arXiv's HTML papers expects — numbered sections, numbered
 * equations and their resolved \ref, figures with numbered captions and resolved refs, tables
 * with captions, theorems with their numbers, citations resolved against a bibliography,
 * footnotes, MathML — and timed (wall clock per conversion, p50 and p95). Writes
 * bench/results/latex.json and .md (ADR 0046 quotes them).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { renderMarkdown } from "../src/http/pages/markdown.ts";
import { prepareSource } from "../src/services/files/bundle.ts";
import { findLatexml, sandboxArgs } from "../src/services/files/latex.ts";
import { fixtureEntries, makeZip } from "../src/testing/bundles.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, samples } from "./lib/smoke.ts";

const REPEATS = orSmoke(3, 1);
const FIXTURES = orSmoke(readdirSync("test/fixtures/latex"), ["spectral"]);

/** A feature and how to see it in the final HTML of each converter. */
const FEATURES: { name: string; in: RegExp; test: (html: string) => boolean }[] = [
  {
    name: "numbered sections",
    in: /\\section\{/,
    test: (h) => /<h[1-4][^>]*>\s*(<span[^>]*>)?1(<\/span>)?\s/.test(h),
  },
  {
    name: "equation numbers",
    in: /\\begin\{(equation|align)\}/,
    test: (h) => /id="eq-1"|\\tag\{1\}|>\(1\)</.test(h) && /<math/.test(h),
  },
  {
    name: "equation \\ref resolved",
    in: /\\eqref\{/,
    test: (h) => /href="#[^"]+">(<span[^>]*>)?\(?1\)?</.test(h) && !/\[eq:[^\]]*\]/.test(h),
  },
  {
    name: "figures with numbered captions",
    in: /\\includegraphics/,
    test: (h) => /<figure[^>]*>[\s\S]*?<img[\s\S]*?<figcaption>[^<]*Figure\s*1/.test(h),
  },
  {
    name: "figure \\ref resolved",
    in: /Figure~\\ref/,
    test: (h) => /Figure\s*<a href="#[^"]+">(<span[^>]*>)?1</.test(h),
  },
  {
    name: "tables with captions",
    in: /\\begin\{table\}/,
    test: (h) => /(<caption>|<figcaption>)[^<]*Table\s*1/.test(h) && /<table/.test(h),
  },
  {
    name: "theorems numbered",
    in: /\\newtheorem/,
    test: (h) =>
      /<strong>(Theorem|Proposition|Lemma|Definition|Corollary)\s*\d+(\.\d+)?\.?\s*<\/strong>/.test(
        h,
      ),
  },
  {
    name: "citations resolved",
    in: /\\cite\{/,
    test: (h) => /\[<a href="#[^"]+">1<\/a>/.test(h) && !/\[\?\]/.test(h),
  },
  {
    name: "bibliography",
    in: /thebibliography|\\bibliography\{/,
    test: (h) => /\[1\][^<]*[A-Z]\./.test(h),
  },
  { name: "footnotes", in: /\\footnote\{/, test: (h) => /note-1|footnote|fn1/.test(h) },
  { name: "MathML", in: /\$/, test: (h) => /<math[\s>]/.test(h) },
];

function sum(counts: Map<string, number>): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function laTeXML(name: string): Promise<{ html: string; ms: number }> {
  const started = performance.now();
  // Only the converter's own setting: the rest of a server's configuration does not apply.
  const { LATEX_TIMEOUT_SECONDS } = loadConfig({
    LATEX_TIMEOUT_SECONDS: process.env.LATEX_TIMEOUT_SECONDS,
  });
  const latex = findLatexml({ timeoutSeconds: LATEX_TIMEOUT_SECONDS });
  if (!latex)
    throw new Error("LaTeXML, bubblewrap and prlimit are needed (Debian latexml, bubblewrap)");
  const source = await prepareSource(makeZip(fixtureEntries(name)), { latex });
  const html = renderMarkdown(source.body, {
    topHeading: 3,
    files: new Map(source.files.map((f) => [f.name, `/files/${f.sha256}`])),
  });
  return { html, ms: performance.now() - started };
}

async function pandoc(name: string): Promise<{ html: string; ms: number }> {
  const started = performance.now();
  const entries = fixtureEntries(name);
  const dir = await mkdtemp(join(tmpdir(), "quire-bench-pandoc-"));
  try {
    for (const [path, content] of Object.entries(entries)) {
      await mkdir(join(dir, dirname(path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    const main = Object.keys(entries).find((p) => p.endsWith(".tex")) ?? "main.tex";
    await new Promise<void>((resolve, reject) => {
      execFile(
        "/usr/bin/prlimit",
        sandboxArgs(dir, [
          "/usr/bin/pandoc",
          "-f",
          "latex",
          "-t",
          "html5",
          "--mathml",
          "--number-sections",
          "-o",
          "/work/out.html",
          `/work/${main}`,
        ]),
        { timeout: 60_000 },
        (error) => (error ? reject(error) : resolve()),
      );
    });
    return { html: await readFile(join(dir, "out.html"), "utf8"), ms: performance.now() - started };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const converters = [
  {
    name: "LaTeXML 0.8.7 → Markdown → page",
    run: laTeXML,
    available: existsSync("/usr/bin/latexmlc"),
  },
  { name: "pandoc 2.17 (HTML5 + MathML)", run: pandoc, available: existsSync("/usr/bin/pandoc") },
];

const fidelity: Record<string, string | number>[] = [];
const timing: Record<string, string | number>[] = [];
for (const converter of converters) {
  if (!converter.available)
    throw new Error(`${converter.name} is not installed (.ci/run installs it)`);
  const times: number[] = [];
  const passed = new Map<string, number>();
  const applicable = new Map<string, number>();
  for (const fixture of FIXTURES) {
    for (let i = 0; i < REPEATS; i++) {
      const { html, ms } = await converter.run(fixture);
      times.push(ms);
      if (i === 0) {
        // A feature counts for the papers whose source uses it.
        const tex = Object.entries(fixtureEntries(fixture))
          .filter(([path]) => path.endsWith(".tex"))
          .map(([, bytes]) => new TextDecoder().decode(bytes as Uint8Array))
          .join("\n");
        for (const f of FEATURES.filter((x) => x.in.test(tex))) {
          applicable.set(f.name, (applicable.get(f.name) ?? 0) + 1);
          if (f.test(html)) passed.set(f.name, (passed.get(f.name) ?? 0) + 1);
        }
      }
    }
  }
  samples(converter.name, times.length);
  fidelity.push({
    converter: converter.name,
    ...Object.fromEntries(
      FEATURES.map((f) => [f.name, `${passed.get(f.name) ?? 0}/${applicable.get(f.name) ?? 0}`]),
    ),
    total: `${sum(passed)}/${sum(applicable)}`,
  });
  timing.push({
    converter: converter.name,
    conversions: times.length,
    p50Ms: Math.round(figure(`${converter.name} p50`, percentile(times, 50))),
    p95Ms: Math.round(figure(`${converter.name} p95`, percentile(times, 95))),
    maxMs: Math.round(figure(`${converter.name} max`, Math.max(...times))),
  });
  console.log(converter.name, timing.at(-1), fidelity.at(-1));
}

const file = writeResult("latex", {
  settings: { fixtures: FIXTURES, repeats: REPEATS, features: FEATURES.map((f) => f.name) },
  fidelity,
  timing,
});
console.log(`wrote ${file}`);
