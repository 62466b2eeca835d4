/**
 * @module Features of the built-in sparse channel: stemmed words, word bigrams and character
 * 4-grams, hashed into one sparse space; extraction and vectors.
 */

/**
 * Dimensions of the hashed feature space. pgvector's `sparsevec` allows up to 10^9; 2^29
 * keeps collisions negligible (a few hundred thousand distinct grams in a large archive).
 */
export const GRAM_DIMS = 2 ** 29;
const GRAM_MASK = GRAM_DIMS - 1;
/** Stored weights are a unit vector times this, rounded: integers print and parse fast. */
const STORED_SCALE = 100_000;

const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * `text` as character grams see it: lower-cased, NFKC-normalised, every run of non-word
 * characters folded to one space, the whole padded with a space.
 */
export function foldText(text: string): string {
  return ` ${text.toLowerCase().normalize("NFKC").replace(NOT_WORD, " ").trim()} `;
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const SURROGATE = /[\ud800-\udfff]/;
const wordChars = new Map<number, boolean>();

/** Whether a (non-surrogate) UTF-16 code unit is a letter, mark or number. */
function isWordUnit(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  let word = wordChars.get(c);
  if (word === undefined) {
    word = WORD_CHAR.test(String.fromCharCode(c));
    wordChars.set(c, word);
  }
  return word;
}

/**
 * The ids of the character 4-grams of `foldText(text)`, in order. Text without surrogate
 * pairs (nearly all) is folded and hashed in one pass over its code units, with no
 * intermediate strings: folding with a Unicode regular expression cost more than the
 * hashing. Text with surrogate pairs takes the general path over code points.
 */
export function gramIds(text: string): Int32Array {
  const lowered = text.toLowerCase().normalize("NFKC");
  if (SURROGATE.test(lowered)) return gramIdsOfPoints(foldText(text));
  // The folded text is a space, the words separated by one space, and a space; the last
  // three units are kept to hash each 4-gram as its fourth unit arrives.
  const out = new Int32Array(lowered.length + 2);
  let n = 0;
  let u1 = 0;
  let u2 = 0;
  let u3 = 32;
  let seen = 1;
  let started = false;
  let gap = false;
  for (let i = 0; i <= lowered.length; i++) {
    const last = i === lowered.length;
    const c = last ? 32 : lowered.charCodeAt(i);
    if (!last && !isWordUnit(c)) {
      gap = true;
      continue;
    }
    for (let k = !last && gap && started ? 2 : 1; k > 0; k--) {
      const u = k === 2 ? 32 : c;
      if (++seen >= 4) {
        let h = FNV_OFFSET;
        h = Math.imul(h ^ u1, FNV_PRIME);
        h = Math.imul(h ^ u2, FNV_PRIME);
        h = Math.imul(h ^ u3, FNV_PRIME);
        h = Math.imul(h ^ u, FNV_PRIME);
        out[n++] = ((h >>> 0) & GRAM_MASK) + 1;
      }
      u1 = u2;
      u2 = u3;
      u3 = u;
    }
    started = true;
    gap = false;
  }
  return out.subarray(0, n);
}

/** The general path of `gramIds`: 4-grams of code points (surrogate pairs kept whole). */
function gramIdsOfPoints(folded: string): Int32Array {
  const units: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < folded.length; i++) {
    const code = folded.charCodeAt(i);
    const low = folded.charCodeAt(i + 1);
    starts.push(units.length);
    units.push(code);
    if (code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      units.push(low);
      i++;
    }
  }
  starts.push(units.length);
  const out = new Int32Array(Math.max(0, starts.length - 4));
  for (let g = 0; g + 4 < starts.length; g++) {
    let h = FNV_OFFSET;
    for (let u = starts[g]!; u < starts[g + 4]!; u++) h = Math.imul(h ^ units[u]!, FNV_PRIME);
    out[g] = ((h >>> 0) & GRAM_MASK) + 1;
  }
  return out;
}

/**
 * Counts the character 4-grams of `text` (see `foldText`), so grams span word boundaries
 * (" the", "e ca") and catch morphology the English stemmer misses ("immuno" in
 * "immunotherapy" and "immunology"). Keys are hashed gram ids (see `gramId`), computed
 * without building the gram strings, because indexing spends most of its time here.
 */
export function countGrams(
  text: string,
  into: Map<number, number> = new Map(),
): Map<number, number> {
  for (const id of gramIds(text)) into.set(id, (into.get(id) ?? 0) + 1);
  return into;
}

/** Prefixes that keep word and bigram features apart from character grams (which never hold control characters). */
const WORD = "\u0001";
const BIGRAM = "\u0002";

/**
 * Counts word and word-bigram features of a lexeme sequence: PostgreSQL's English lexemes
 * (stemmed, stop words dropped) in text order, as `lexemeSequence` in SQL returns them, so
 * documents and queries go through the same analyser as BM25. A bigram joins neighbours in
 * the sequence (stop words between them do not break it: "effect of vitamin" gives
 * "effect vitamin").
 */
export function countLexemes(
  sequence: readonly string[],
  into: Map<number, number> = new Map(),
): Map<number, number> {
  for (let i = 0; i < sequence.length; i++) {
    const word = gramId(WORD + sequence[i]);
    into.set(word, (into.get(word) ?? 0) + 1);
    if (i === 0) continue;
    const pair = gramId(`${BIGRAM}${sequence[i - 1]} ${sequence[i]}`);
    into.set(pair, (into.get(pair) ?? 0) + 1);
  }
  return into;
}

/** Every feature of one text: character 4-grams of the raw text, words and bigrams of its lexemes. */
export function countFeatures(
  text: string,
  lexemes: readonly string[],
  into: Map<number, number> = new Map(),
): Map<number, number> {
  return countLexemes(lexemes, countGrams(text, into));
}

/** FNV-1a (32-bit) of a feature string's UTF-16 code units, folded into [1, GRAM_DIMS]. */
export function gramId(gram: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < gram.length; i++) h = Math.imul(h ^ gram.charCodeAt(i), FNV_PRIME);
  return ((h >>> 0) & GRAM_MASK) + 1;
}

/**
 * A chunk's stored gram vector in pgvector's text form: sublinear term frequency
 * (1 + ln tf), scaled to unit length (times a constant, which no ranking sees: channels are
 * z-scored per query). IDF is deliberately left out and applied to the query instead, so a
 * stored vector never goes stale as the archive grows.
 */
export function storedGramVector(counts: Map<number, number>): string {
  const ids = Int32Array.from(counts.keys()).sort();
  const weights = new Float64Array(ids.length);
  let norm = 0;
  for (let i = 0; i < ids.length; i++) {
    const w = 1 + Math.log(counts.get(ids[i]!)!);
    weights[i] = w;
    norm += w * w;
  }
  const scale = norm > 0 ? STORED_SCALE / Math.sqrt(norm) : 0;
  const parts = new Array<string>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    parts[i] = `${ids[i]}:${Math.max(1, Math.round(weights[i]! * scale))}`;
  }
  return `{${parts.join(",")}}/${GRAM_DIMS}`;
}

/** pgvector's text form of a sparse vector with arbitrary weights, indices ascending. */
export function toSparsevec(weights: Map<number, number>): string {
  const ids = Int32Array.from(weights.keys()).sort();
  const parts = Array.from(ids, (id) => `${id}:${Number(weights.get(id)!.toPrecision(7))}`);
  return `{${parts.join(",")}}/${GRAM_DIMS}`;
}
