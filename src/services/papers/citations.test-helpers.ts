/** @module What the citation tests share: the base URL, whitespace folding, brace balance. */
export const BASE = "https://quire.example";

/** Whitespace folded as the citation formats fold it. */
export const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** BibTeX counts every brace, escaped or not: a field must never close early. */
export function bracesBalanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === "{") depth++;
    if (c === "}" && --depth < 0) return false;
  }
  return depth === 0;
}
