/**
 * @module TeX in paper Markdown (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) typeset on the server as
 * MathML by KaTeX: no script, stylesheet or font reaches the reader for it (ADR 0016). A
 * formula KaTeX cannot parse is shown as its TeX source, never as an error.
 */
import { tex } from "@mdit/plugin-tex";
import katex from "katex";
import type MarkdownIt from "markdown-it";

/**
 * `trust: false` keeps `\href`, `\url`, `\includegraphics` and `\html…` inert (shown in red as
 * source), so a formula can never carry a link or markup; `maxSize` and `maxExpand` bound what
 * one formula may cost to lay out or expand.
 */
const KATEX_OPTIONS = {
  output: "mathml",
  throwOnError: true,
  trust: false,
  strict: "ignore",
  maxSize: 20,
  maxExpand: 500,
} as const;

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * One formula as MathML; display formulas sit in a focusable box that scrolls sideways on its
 * own (a wide equation on a phone). When KaTeX rejects the TeX, the source is shown as code.
 */
export function renderTex(source: string, displayMode: boolean): string {
  let body: string;
  try {
    body = katex.renderToString(source, { ...KATEX_OPTIONS, displayMode });
  } catch {
    const code = `<code class="math-source">${escapeHtml(source.trim())}</code>`;
    if (!displayMode) return code;
    body = code;
  }
  if (!displayMode) return body;
  // A numbered equation (`\tag{2}`) is the target of the paper's `[2](#eq-2)` links.
  const tag = /\\tag\*?\{([A-Za-z0-9.]{1,20})\}/.exec(source)?.[1];
  const id = tag ? ` id="eq-${tag}"` : "";
  return `<div class="math-display"${id} tabindex="0">${body}</div>\n`;
}

/** Adds the four TeX delimiters to a markdown-it instance. */
export function useTexMath(md: MarkdownIt): void {
  md.use(tex, {
    delimiters: "all",
    render: (source, displayMode) => renderTex(source, displayMode),
  });
}
