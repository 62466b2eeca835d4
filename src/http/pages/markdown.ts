/**
 * @module Paper Markdown to safe HTML: raw HTML is never passed through (it is shown as text),
 * links and images keep only http(s), mailto, in-page and relative targets, and every link to
 * another site opens with rel="nofollow ugc noopener"; TeX is typeset as MathML (markdown-math.ts)
 * and fenced code highlighted (markdown-code.ts).
 */

import type { Token } from "markdown-it";
import MarkdownIt from "markdown-it";
import { safeLinkTarget } from "../../services/chunks/index.ts";
import { highlightCode } from "./markdown-code.ts";
import { type FigureEnv, useFigures } from "./markdown-figures.ts";
import { useTexMath } from "./markdown-math.ts";

const md = new MarkdownIt({
  html: false,
  linkify: false,
  typographer: false,
  highlight: (code, info) => highlightCode(code, info),
});
md.validateLink = safeLinkTarget;
useTexMath(md);

const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const href = token?.attrGet("href") ?? "";
  if (token && /^(?:https?:)?\/\//i.test(href)) token.attrSet("rel", "nofollow ugc noopener");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// Code blocks scroll sideways on narrow screens; a scrolling region must take keyboard focus
// (WCAG 2.1.1; axe's scrollable-region-focusable), so each <pre> is focusable.
for (const rule of ["fence", "code_block"] as const) {
  const base = md.renderer.rules[rule];
  if (!base) continue;
  md.renderer.rules[rule] = (tokens, idx, options, env, self) =>
    base(tokens, idx, options, env, self).replace(/^<pre>/, '<pre tabindex="0">');
}

/**
 * A cell that holds only a number, as papers write them: a sign, digits with separators, a
 * decimal part, an exponent, a percent sign, a ± spread, bold or inline-math marks around it.
 */
const NUMERIC_CELL =
  /^[-+\u2212\u00b1<>\u2248~]?\d[\d,.\u2009\u202f ]*(?:[eE][-+\u2212]?\d+)?\s*%?(?:\s*\u00b1\s*\d[\d,.]*\s*%?)?$/;
const EMPTY_CELL = /^(?:|-|\u2013|\u2014|n\/a)$/i;

function cellText(content: string): string {
  return content.replace(/[*_$`]/g, "").trim();
}

/**
 * Table cells get classes instead of the inline `style="text-align:…"` markdown-it writes for
 * `:--:` columns (the pages' CSP allows no inline style): `align-left|center|right` where the
 * author aligned a column, and `num` on every cell of a column whose body cells are all
 * numbers (or empty), which the stylesheet right-aligns in figures of one width.
 */
md.core.ruler.push("table_cell_classes", (state) => {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]?.type !== "table_open") continue;
    let end = i;
    while (end < tokens.length && tokens[end]?.type !== "table_close") end++;
    const cells: { token: Token; column: number; body: boolean; text: string }[] = [];
    let column = 0;
    let body = false;
    for (let j = i; j < end; j++) {
      const token = tokens[j];
      if (!token) continue;
      if (token.type === "tbody_open") body = true;
      if (token.type === "tr_open") column = 0;
      if (token.type === "th_open" || token.type === "td_open") {
        const inline = tokens[j + 1];
        const text = inline?.type === "inline" ? cellText(inline.content) : "";
        cells.push({ token, column: column++, body, text });
      }
    }
    const numeric = new Set<number>();
    const columns = new Set(cells.map((c) => c.column));
    for (const col of columns) {
      const values = cells.filter((c) => c.body && c.column === col).map((c) => c.text);
      const filled = values.filter((v) => !EMPTY_CELL.test(v));
      if (filled.length > 0 && filled.every((v) => NUMERIC_CELL.test(v))) numeric.add(col);
    }
    for (const cell of cells) {
      const classes: string[] = [];
      const style = cell.token.attrGet("style");
      const align = style ? /text-align:(left|center|right)/.exec(style)?.[1] : undefined;
      if (align) classes.push(`align-${align}`);
      else if (numeric.has(cell.column)) classes.push("num");
      if (style !== null)
        cell.token.attrs = (cell.token.attrs ?? []).filter(([k]) => k !== "style");
      if (classes.length > 0) cell.token.attrSet("class", classes.join(" "));
    }
    i = end;
  }
});

// A wide table scrolls inside its own focusable box rather than pushing the page sideways.
md.renderer.rules.table_open = () => '<div class="table-scroll" tabindex="0">\n<table>\n';
md.renderer.rules.table_close = () => "</table>\n</div>\n";
useFigures(md);

export interface RenderMarkdownOptions {
  /**
   * The level the text's shallowest heading gets (2 to 6), keeping the others below it in
   * step, so a paper's headings continue the page's outline instead of competing with its
   * `<h1>`. Without it, headings keep the levels the author wrote.
   */
  topHeading?: number;
  /** The version's files (path as the paper writes it → URL), so its figures show. */
  files?: ReadonlyMap<string, string>;
}

/** Renders a paper's Markdown (body, abstract) as HTML that is safe to embed in a page. */
export function renderMarkdown(source: string, options: RenderMarkdownOptions = {}): string {
  const env: FigureEnv = options.files ? { files: options.files } : {};
  const tokens = md.parse(source, env);
  if (options.topHeading !== undefined) {
    const levels = tokens.filter((t) => t.type === "heading_open").map((t) => Number(t.tag[1]));
    const shift = levels.length > 0 ? options.topHeading - Math.min(...levels) : 0;
    for (const token of tokens) {
      if (token.type === "heading_open" || token.type === "heading_close") {
        token.tag = `h${Math.min(6, Math.max(1, Number(token.tag[1]) + shift))}`;
      }
    }
  }
  return md.renderer.render(tokens, md.options, env);
}
