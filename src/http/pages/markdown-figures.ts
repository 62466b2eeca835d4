/**
 * @module Figures, table captions and anchors in paper Markdown, as arXiv's HTML papers show
 * them (docs/files.md):
 * - a paragraph that is only an image is a `<figure>`, its alt text the `<figcaption>`;
 * - a paragraph `Table: …` right before a table is that table's caption;
 * - a paragraph, heading, figure or table caption ending in `{#kind-label}` gets that id, so
 *   `[1](#figure-1)` links to it (ids are `word-label`, never a page's own id);
 * - an image's relative path is looked up in the version's files (`files` in the render env).
 * The rules themselves are the chunker's too (services/chunks/markdown-rules.ts): what is shown
 * in a `<figcaption>` is what the context endpoint lists as a `caption` chunk.
 */
import type MarkdownIt from "markdown-it";
import {
  isFigure,
  isTableCaption,
  stripAnchor,
  TABLE_CAPTION,
} from "../../services/chunks/index.ts";

export interface FigureEnv {
  /** The version's files: path as written in the paper → URL it is served at. */
  files?: ReadonlyMap<string, string>;
}

/** Where a relative image path of the paper is served; other targets are left as they are. */
function resolveImage(src: string, env: FigureEnv): string {
  if (!env.files || /^[a-z][a-z0-9+.-]*:|^\/\/|^\/|^#/i.test(src)) return src;
  const path = decodeURIComponent(src).replace(/^\.\//, "");
  return env.files.get(path) ?? src;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function useFigures(md: MarkdownIt): void {
  md.core.ruler.push("quire_figures", (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const open = tokens[i];
      const inline = tokens[i + 1];
      if (!open || inline?.type !== "inline") continue;
      if (open.type !== "paragraph_open" && open.type !== "heading_open") continue;
      const id = stripAnchor(inline);
      if (id) open.attrSet("id", id);
      if (open.type !== "paragraph_open" || open.hidden) continue;
      if (isFigure(inline)) {
        open.meta = { ...open.meta, figure: true };
        const image = inline.children?.find((t) => t.type === "image");
        if (image) image.meta = { ...image.meta, figure: true };
        const close = tokens[i + 2];
        if (close) close.meta = { ...close.meta, figure: true };
        continue;
      }
      const first = inline.children?.[0];
      if (first && isTableCaption(tokens, i)) {
        first.content = first.content.replace(TABLE_CAPTION, "");
        open.meta = { ...open.meta, tableCaption: true };
        const close = tokens[i + 2];
        if (close) close.meta = { ...close.meta, tableCaption: true };
        let depth = 0;
        for (let j = i + 3; j < tokens.length; j++) {
          const t = tokens[j];
          if (t?.type === "table_open") depth++;
          if (t?.type === "table_close" && --depth === 0) {
            t.meta = { ...t.meta, closeFigure: true };
            break;
          }
        }
      }
    }
  });

  const paragraphOpen = md.renderer.rules.paragraph_open;
  md.renderer.rules.paragraph_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const id = token?.attrGet("id");
    const idAttr = id ? ` id="${escapeAttr(id)}"` : "";
    if (token?.meta?.figure) return `<figure class="paper-figure"${idAttr}>\n`;
    if (token?.meta?.tableCaption) return `<figure class="paper-table"${idAttr}>\n<figcaption>`;
    return paragraphOpen
      ? paragraphOpen(tokens, idx, options, env, self)
      : self.renderToken(tokens, idx, options);
  };
  const paragraphClose = md.renderer.rules.paragraph_close;
  md.renderer.rules.paragraph_close = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token?.meta?.figure) return "</figure>\n";
    if (token?.meta?.tableCaption) return "</figcaption>\n";
    return paragraphClose
      ? paragraphClose(tokens, idx, options, env, self)
      : self.renderToken(tokens, idx, options);
  };
  const tableClose = md.renderer.rules.table_close;
  md.renderer.rules.table_close = (tokens, idx, options, env, self) => {
    const base = tableClose
      ? tableClose(tokens, idx, options, env, self)
      : self.renderToken(tokens, idx, options);
    return tokens[idx]?.meta?.closeFigure ? `${base}</figure>\n` : base;
  };
  md.renderer.rules.image = (tokens, idx, options, env: FigureEnv, self) => {
    const token = tokens[idx];
    if (!token) return "";
    const src = resolveImage(token.attrGet("src") ?? "", env);
    // The caption's source (TeX as written) describes the image; KaTeX's MathML cannot sit in an attribute.
    const alt = token.content.replace(/\\([\\`*_[\]<>$|#~])/g, "$1");
    const img = `<img src="${escapeAttr(src)}" alt="${escapeAttr(alt)}" loading="lazy" decoding="async">`;
    if (!token.meta?.figure) return img;
    const caption = self.renderInline(token.children ?? [], options, env);
    return caption.trim() ? `${img}\n<figcaption>${caption}</figcaption>\n` : `${img}\n`;
  };
}
