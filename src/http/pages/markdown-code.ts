/**
 * @module Fenced code in paper Markdown highlighted on the server by highlight.js (ADR 0016):
 * spans with `hljs-*` classes that site.css colours for both themes; no script reaches the
 * reader. Only the fence's named language is used (no guessing), and a language highlight.js
 * does not know, or none, leaves the code plain.
 */
import { createRequire } from "node:module";

/**
 * The part of highlight.js used here. It is loaded with `require`, not `import`, because its
 * type declarations pull the DOM library into the whole program (its `Headers`, `BodyInit`…
 * then clash with Node's).
 */
interface HighlightJs {
  getLanguage(name: string): object | undefined;
  registerLanguage(name: string, language: unknown): void;
  highlight(
    code: string,
    options: { language: string; ignoreIllegals: boolean },
  ): { value: string };
}

const require = createRequire(import.meta.url);
const hljs = require("highlight.js/lib/common") as HighlightJs;
// Languages research code is often written in, beyond highlight.js's common set.
for (const name of ["haskell", "julia", "latex", "matlab", "scala"]) {
  hljs.registerLanguage(name, require(`highlight.js/lib/languages/${name}`));
}

/**
 * The highlighted HTML of `code` in the fence's language (the info string's first word), or
 * "" to let markdown-it escape it as plain text. highlight.js escapes the text it wraps.
 */
export function highlightCode(code: string, info: string): string {
  const language = info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (!language || !hljs.getLanguage(language)) return "";
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
