/**
 * @module The Markdown rules the paper page and the chunker share (docs/files.md): which link
 * targets a paper may use, which paragraphs are figures and which are table captions, and the
 * `{#kind-label}` anchors. The page renders by them (http/pages/markdown-figures.ts) and the
 * chunker finds captions by them (captions.ts), so a `caption` chunk is exactly what the page
 * shows in a `<figcaption>`. Types only from markdown-it: this module loads at start-up.
 */
import type Token from "markdown-it/lib/token.mjs";

/** `{#figure-1}` at the end of a block: the anchor it asks for. */
const ANCHOR = /\s*\{#([a-z]+-[A-Za-z0-9][A-Za-z0-9.-]{0,60})\}\s*$/;
/** The start of a paragraph that captions the table right after it. */
export const TABLE_CAPTION = /^Table:\s*/;

/** Schemes a link or image in a paper may use; anything else (javascript:, data:, vbscript:, file:) is dropped. */
const ALLOWED_SCHEME = /^(?:https?:|mailto:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** markdown-it's `validateLink` for papers: http(s), mailto, in-page and relative targets. */
export function safeLinkTarget(url: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const squeezed = url.replace(/[\u0000-\u0020\u007f]/g, "");
  if (squeezed.startsWith("//")) return true; // scheme-relative: follows the page's https
  return !HAS_SCHEME.test(squeezed) || ALLOWED_SCHEME.test(squeezed);
}

/**
 * Removes a trailing `{#kind-label}` from a block's inline token (its content and its last
 * text child) and returns the label, or null when there is none.
 */
export function stripAnchor(inline: Token): string | null {
  const last = inline.children?.at(-1);
  if (last?.type !== "text") return null;
  const m = ANCHOR.exec(last.content);
  if (!m?.[1]) return null;
  last.content = last.content.slice(0, m.index);
  inline.content = inline.content.replace(ANCHOR, "");
  return m[1];
}

/** A paragraph whose only content (its anchor stripped) is one image is a figure. */
export function isFigure(inline: Token): boolean {
  const kids = (inline.children ?? []).filter(
    (t) => !(t.type === "text" && t.content.trim() === "") && t.type !== "softbreak",
  );
  return kids.length === 1 && kids[0]?.type === "image";
}

/**
 * Whether the paragraph opened at `tokens[i]` (inline at i + 1, close at i + 2) is a table's
 * caption: its text starts `Table:` and a table follows it at once.
 */
export function isTableCaption(tokens: readonly Token[], i: number): boolean {
  const first = tokens[i + 1]?.children?.[0];
  return (
    first?.type === "text" &&
    TABLE_CAPTION.test(first.content) &&
    tokens[i + 3]?.type === "table_open"
  );
}
