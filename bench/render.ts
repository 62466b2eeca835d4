/**
 * @module bench:render — CPU time of rendering a paper body to HTML: markdown-it alone (the
 * baseline), Quire's renderer (KaTeX MathML and highlight.js), and markdown-it with Shiki
 * highlighting instead (the alternative ADR 0016 weighed). Prints best and median ms and each
 * one's ratio to the baseline, all in this process, and writes them to bench/results/render.json
 * and .md. `--smoke` runs each case once on a small body.
 */
import MarkdownIt from "markdown-it";
import { createHighlighter } from "shiki";
import { renderMarkdown } from "../src/http/pages/markdown.ts";
import { highlightCode } from "../src/http/pages/markdown-code.ts";
import { cpuMs } from "./lib/cpu.ts";
import { writeResult } from "./lib/results.ts";
import { figure, SMOKE } from "./lib/smoke.ts";

const smoke = SMOKE;
const sections = smoke ? 2 : 40;

const section = (i: number) => `## Section ${i}

The estimator in section ${i} weighs each observation $x_j$ by $w_j = e^{-\\lambda t_j}$, so that
the total \\(\\sum_j w_j x_j\\) favours recent data.

$$
\\hat{\\theta}_${i} = \\arg\\min_{\\theta} \\sum_{j=1}^{n} w_j \\left( y_j - f_\\theta(x_j) \\right)^2 + \\lambda \\lVert \\theta \\rVert_2^2
$$

\`\`\`python
def weighted_loss(theta, xs, ys, ws, lam=${i}):
    """Squared error with an L2 penalty."""
    total = sum(w * (y - model(theta, x)) ** 2 for x, y, w in zip(xs, ys, ws))
    return total + lam * sum(t * t for t in theta)
\`\`\`

| run | n | error |
|---|---|---|
| a${i} | ${i * 10} | 0.${i} |
`;
const body = Array.from({ length: sections }, (_, i) => section(i)).join("\n");

const plain = new MarkdownIt({ html: false });
const highlighter = await createHighlighter({ themes: ["github-light"], langs: ["python"] });
const withShiki = new MarkdownIt({
  html: false,
  highlight: (code, lang) =>
    lang === "python" ? highlighter.codeToHtml(code, { lang, theme: "github-light" }) : "",
});

const withHljs = new MarkdownIt({ html: false, highlight: highlightCode });

const cases: [string, () => string][] = [
  ["markdown-it alone (baseline)", () => plain.render(body)],
  ["markdown-it + highlight.js (no math)", () => withHljs.render(body)],
  ["Quire: KaTeX MathML + highlight.js", () => renderMarkdown(body)],
  ["markdown-it + Shiki (no math)", () => withShiki.render(body)],
];

console.log(`body: ${body.length.toLocaleString("en")} characters, ${sections} sections`);
console.log(
  "case".padEnd(38),
  "best ms".padStart(8),
  "median ms".padStart(10),
  "× baseline".padStart(11),
);
let baseline = 0;
const rows: { case: string; bestMs: number; medianMs: number; vsBaseline: number }[] = [];
for (const [name, run] of cases) {
  run();
  const { best, median } = cpuMs(run, smoke ? 1 : 15);
  if (!baseline) baseline = median;
  console.log(
    name.padEnd(38),
    best.toFixed(2).padStart(8),
    median.toFixed(2).padStart(10),
    (median / baseline).toFixed(1).padStart(11),
  );
  rows.push({
    case: name,
    bestMs: best,
    medianMs: median,
    vsBaseline: figure(name, median / baseline),
  });
}
writeResult("render", {
  settings: { characters: body.length, sections, repeats: smoke ? 1 : 15 },
  cases: rows,
});
highlighter.dispose();
