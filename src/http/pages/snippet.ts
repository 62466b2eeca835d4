/**
 * @module Search snippets: a verbatim quote shown as plain text (Markdown syntax removed),
 * cut around its first highlighted word, split into marked and unmarked runs.
 */

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * Markdown syntax that is dropped from a snippet: heading hashes, blockquote and list
 * markers at line starts, emphasis and code markers, link and image brackets with their
 * targets, table pipes and rule lines. What is left is the words a reader reads.
 */
const SYNTAX: RegExp[] = [
  /^[ \t]*#{1,6}[ \t]+/gmu,
  /^[ \t]*>[ \t]?/gmu,
  /^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+/gmu,
  /^[ \t]*(?:[-*_=|:][ \t]*){3,}$/gmu,
  /\*{1,3}|~~|`+|(?<![\p{L}\p{N}])_{1,3}|_{1,3}(?![\p{L}\p{N}])/gu,
  /!?\[(?=[^\]\n]*\]\()/gu,
  /\]\([^)\s]*\)/gu,
  /\|/gu,
];

/**
 * The snippet of `quote` (code points) with `highlights` (code point ranges into the
 * verbatim quote) kept on the words they cover after the syntax is removed; whitespace
 * runs become one space. At most `max` characters, starting a little before the first
 * highlight when it would otherwise be cut off, with an ellipsis where text was left out.
 */
export function snippetParts(
  quote: string,
  highlights: readonly (readonly [number, number])[],
  max: number,
): SnippetPart[] {
  const points = Array.from(quote);
  const keep = new Array<boolean>(points.length).fill(true);
  const unitToPoint = new Map<number, number>();
  let unit = 0;
  points.forEach((ch, i) => {
    unitToPoint.set(unit, i);
    unit += ch.length;
  });
  unitToPoint.set(unit, points.length);
  for (const pattern of SYNTAX) {
    for (const m of quote.matchAll(pattern)) {
      const from = unitToPoint.get(m.index) ?? 0;
      const to = unitToPoint.get(m.index + m[0].length) ?? points.length;
      for (let i = from; i < to; i++) keep[i] = false;
    }
  }
  const marked = new Array<boolean>(points.length).fill(false);
  for (const [a, b] of highlights) {
    for (let i = Math.max(0, a); i < Math.min(points.length, b); i++) marked[i] = true;
  }
  // The kept characters, whitespace folded, each with its mark.
  const chars: { ch: string; mark: boolean }[] = [];
  for (let i = 0; i < points.length; i++) {
    if (!keep[i]) continue;
    const ch = points[i]!;
    if (/\s/u.test(ch)) {
      if (chars.length > 0 && chars[chars.length - 1]!.ch !== " ")
        chars.push({ ch: " ", mark: false });
      continue;
    }
    chars.push({ ch, mark: marked[i]! });
  }
  while (chars.length > 0 && chars[chars.length - 1]!.ch === " ") chars.pop();
  let start = 0;
  const first = chars.findIndex((c) => c.mark);
  if (chars.length > max && first > max - 60) {
    start = Math.max(0, first - 60);
    while (start > 0 && chars[start - 1]!.ch !== " ") start--;
  }
  const end = Math.min(chars.length, start + max);
  const parts: SnippetPart[] = [];
  const push = (text: string, mark: boolean) => {
    const last = parts[parts.length - 1];
    if (last && last.mark === mark) last.text += text;
    else parts.push({ text, mark });
  };
  if (start > 0) push("…", false);
  for (let i = start; i < end; i++) push(chars[i]!.ch, chars[i]!.mark);
  if (end < chars.length) push("…", false);
  return parts;
}
