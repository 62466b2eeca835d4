/**
 * @module Paper Markdown's renderer (markdown.ts), loaded with the first page that shows a
 * paper's text rather than at start-up: markdown-it, KaTeX and highlight.js are a tenth of
 * the modules a start would otherwise load (docs/adr/0026-start-up.md).
 */
import { once } from "../../lazy.ts";

/** `renderMarkdown` of markdown.ts, once its module (and the packages it uses) has loaded. */
export const markdownRenderer = once(async () => (await import("./markdown.ts")).renderMarkdown);
