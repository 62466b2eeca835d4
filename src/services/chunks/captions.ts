/**
 * @module Where a body's figure and table captions are, as spans of its text. Loaded with the
 * first body that may hold one (chunk-version.ts), not at start-up: it parses with
 * markdown-it, configured as the paper page parses (html off, the page's link rule, TeX
 * delimiters), and classifies blocks by the page's own rules (markdown-rules.ts).
 */
import { tex } from "@mdit/plugin-tex";
import MarkdownIt from "markdown-it";
import { isFigure, isTableCaption, safeLinkTarget, stripAnchor } from "./markdown-rules.ts";

/** A caption inside a body: `body.slice(start, end)` (UTF-16 indices) is its text, verbatim. */
export interface CaptionSpan {
  kind: "figure" | "table";
  start: number;
  end: number;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.validateLink = safeLinkTarget;
// Only parsed here, never rendered: the delimiters must be seen as the page sees them.
md.use(tex, { delimiters: "all", render: () => "" });

/**
 * The body as markdown-it reads it (CRLF and CR as LF, NUL as U+FFFD), with where each of its
 * UTF-16 indices is in the body (null when nothing changed) and where each line starts.
 */
function normalize(body: string): { text: string; toBody: Int32Array | null; lines: number[] } {
  const text = body.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
  let toBody: Int32Array | null = null;
  if (text.length !== body.length) {
    toBody = new Int32Array(text.length + 1);
    let j = 0;
    for (let i = 0; i < text.length; i++) {
      toBody[i] = j;
      j += body.charCodeAt(j) === 0x0d && body.charCodeAt(j + 1) === 0x0a ? 2 : 1;
    }
    toBody[text.length] = j;
  }
  const lines = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) lines.push(i + 1);
  return { text, toBody, lines };
}

function isBlank(text: string): boolean {
  return text.trim() === "";
}

/**
 * The caption's text inside the paragraph's inline content (markdown-it's view: lines joined
 * with LF, trimmed, block quote markers removed): the image's alt text as written, or what
 * follows `Table:` up to the anchor; trimmed, and null when empty.
 */
function captionInContent(
  kind: CaptionSpan["kind"],
  content: string,
): { text: string; marker: string } | null {
  let text: string;
  let marker: string;
  if (kind === "figure") {
    if (!content.startsWith("![")) return null;
    const state = new md.inline.State(content, md, {}, []);
    const labelEnd = md.helpers.parseLinkLabel(state, 1, false);
    if (labelEnd < 0) return null;
    text = content.slice(2, labelEnd);
    marker = "![";
  } else {
    const m = /^Table:/.exec(content);
    if (!m) return null;
    text = content.slice(m[0].length);
    marker = m[0];
  }
  text = text.trim();
  return text === "" ? null : { text, marker };
}

/**
 * The figure and table captions of a Markdown body, in order: an image-only paragraph's alt
 * text, and a `Table:` paragraph's text before the table it captions, without the marker and
 * the `{#kind-label}` anchor. Each span is found in the body as markdown-it read it (line ends
 * as LF) and mapped back, so `body.slice(start, end)` is the caption as written, CRLF and all;
 * a caption that is not one piece of the text (alt text running over block-quoted lines) is
 * left out rather than given wrong offsets.
 */
export function findCaptions(body: string): CaptionSpan[] {
  const { text, toBody, lines } = normalize(body);
  const tokens = md.parse(text, {});
  const found: CaptionSpan[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    const inline = tokens[i + 1];
    if (open?.type !== "paragraph_open" || open.hidden || inline?.type !== "inline") continue;
    if (!open.map) continue;
    stripAnchor(inline);
    const kind = isFigure(inline) ? "figure" : isTableCaption(tokens, i) ? "table" : null;
    if (!kind) continue;
    const caption = captionInContent(kind, inline.content);
    if (!caption) continue;
    const from = lines[open.map[0]] ?? text.length;
    const to = lines[open.map[1]] ?? text.length;
    const markerAt = text.indexOf(caption.marker, from);
    if (markerAt < 0 || markerAt >= to) continue;
    const start = text.indexOf(caption.text, markerAt + caption.marker.length);
    const end = start + caption.text.length;
    if (start < 0 || end > to || !isBlank(text.slice(markerAt + caption.marker.length, start))) {
      continue;
    }
    found.push({
      kind,
      start: toBody ? (toBody[start] ?? start) : start,
      end: toBody ? (toBody[end] ?? end) : end,
    });
  }
  return found;
}
