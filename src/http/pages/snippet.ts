/**
 * @module Search snippets: a verbatim quote shown as plain text (Markdown syntax removed,
 * math and code exactly as written), cut between words around its first highlighted word,
 * split into marked and unmarked runs.
 */

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * Markdown syntax that is dropped from a snippet: heading hashes, blockquote and list
 * markers at line starts, emphasis and code markers, link and image brackets with their
 * targets, rule lines and table borders. What is left is the words a reader reads. An
 * underscore is emphasis only at a word's edge (`_word_`), never inside a word (`x_1`,
 * `snake_case`) or before a brace (`\sum_{i}`); a pipe only in a table row.
 */
const SYNTAX: RegExp[] = [
  /^[ \t]*#{1,6}[ \t]+/gmu,
  /^[ \t]*>[ \t]?/gmu,
  /^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+/gmu,
  /^[ \t]*(?:[-*_=|:][ \t]*){3,}$/gmu,
  /\*{1,3}|~~|`+/gu,
  /(?<![\p{L}\p{N}_\\])_{1,3}(?=[^\s_])|(?<=[^\s_\\])_{1,3}(?![\p{L}\p{N}_{])/gu,
  /!?\[(?=[^\]\n]*\]\()/gu,
  /\]\([^)\s]*\)/gu,
];

/**
 * What is shown exactly, syntax and all: math (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) and the
 * inside of code spans. A snippet never changes a formula: `\sum_{i=1}^{n} |x_i|` stays so.
 */
const VERBATIM: RegExp[] = [
  /\$\$[\s\S]+?\$\$/gu,
  /(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$/gu,
  /\\\([\s\S]+?\\\)/gu,
  /\\\[[\s\S]+?\\\]/gu,
  /(?<=`)[^`\n]+(?=`)/gu,
];

/** The pipes of table rows (lines that start with `|`): cell borders, not text. */
function tablePipes(quote: string): number[] {
  const at: number[] = [];
  let offset = 0;
  for (const line of quote.split("\n")) {
    if (/^[ \t]*\|/.test(line)) {
      for (let i = line.indexOf("|"); i >= 0; i = line.indexOf("|", i + 1)) at.push(offset + i);
    }
    offset += line.length + 1;
  }
  return at;
}

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
  const verbatim = new Array<boolean>(points.length).fill(false);
  for (const pattern of VERBATIM) {
    for (const m of quote.matchAll(pattern)) {
      const from = unitToPoint.get(m.index) ?? 0;
      const to = unitToPoint.get(m.index + m[0].length) ?? points.length;
      for (let i = from; i < to; i++) verbatim[i] = true;
    }
  }
  const drop = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (!verbatim[i]) keep[i] = false;
  };
  for (const pattern of SYNTAX) {
    for (const m of quote.matchAll(pattern)) {
      drop(unitToPoint.get(m.index) ?? 0, unitToPoint.get(m.index + m[0].length) ?? points.length);
    }
  }
  for (const unit of tablePipes(quote)) {
    const at = unitToPoint.get(unit) ?? 0;
    drop(at, at + 1);
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
  let firstEnd = first;
  while (firstEnd >= 0 && firstEnd < chars.length && chars[firstEnd]!.mark) firstEnd++;
  if (chars.length > max && first >= 0 && (first > max - 60 || firstEnd > max)) {
    start = Math.max(0, first - Math.min(60, Math.floor(max / 3)));
    while (start > 0 && chars[start - 1]!.ch !== " ") start--;
    if (firstEnd - start > max) start = first;
  }
  let end = Math.min(chars.length, start + max);
  // Cut between words, never inside one (nor inside a highlighted word).
  if (end < chars.length) {
    let space = end;
    while (space > start && chars[space]!.ch !== " ") space--;
    if (space > start) end = space;
  }
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
