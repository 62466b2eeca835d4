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
  const folded = foldText(text);
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
  for (let g = 0; g + 4 < starts.length; g++) {
    let h = FNV_OFFSET;
    for (let u = starts[g]!; u < starts[g + 4]!; u++) h = Math.imul(h ^ units[u]!, FNV_PRIME);
    const id = ((h >>> 0) & GRAM_MASK) + 1;
    into.set(id, (into.get(id) ?? 0) + 1);
  }
  return into;
}

/**
 * The distinct character 4-grams of `text` as strings (four code points of `foldText`),
 * each with its id: `gramId(gram)` is the id `countGrams` gives it.
 */
export function gramStrings(text: string): Map<string, number> {
  const points = [...foldText(text)];
  const out = new Map<string, number>();
  for (let g = 0; g + 4 <= points.length; g++) {
    const gram = points.slice(g, g + 4).join("");
    if (!out.has(gram)) out.set(gram, gramId(gram));
  }
  return out;
}

/** Occurrences of `needle` in `haystack`, overlapping ones included ("aaaa" holds "aaa" twice). */
export function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n++;
  return n;
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

/** Sublinear term frequency, a feature's weight before normalisation. */
function logTf(tf: number): number {
  return 1 + Math.log(tf);
}

/**
 * A feature's stored weight in a chunk whose full feature vector has Euclidean norm `norm`
 * (of the log-TF weights): the unit vector's component times a constant (no ranking sees
 * the constant: channels are z-scored per query), rounded to an integer.
 */
export function storedWeight(tf: number, norm: number): number {
  return norm > 0 ? Math.max(1, Math.round(logTf(tf) * (STORED_SCALE / norm))) : 0;
}

/**
 * What a chunk stores for the sparse channel: the Euclidean norm of its whole feature vector
 * (sublinear term frequency 1 + ln tf of words, bigrams and character 4-grams), and the
 * word and bigram part of the unit vector in pgvector's text form. Character grams, three
 * quarters of a chunk's features, are not stored: a query's are counted in its candidates'
 * text when it runs (`gramScores` in sparse.ts), with the same weights. IDF is deliberately
 * left out and applied to the query instead, so a stored vector never goes stale as the
 * archive grows.
 */
export function storedFeatures(
  words: Map<number, number>,
  grams: Map<number, number>,
): { vector: string; norm: number } {
  let squares = 0;
  for (const tf of words.values()) squares += logTf(tf) ** 2;
  for (const tf of grams.values()) squares += logTf(tf) ** 2;
  const norm = Math.sqrt(squares);
  const ids = Int32Array.from(words.keys()).sort();
  const parts = new Array<string>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    parts[i] = `${ids[i]}:${storedWeight(words.get(ids[i]!)!, norm)}`;
  }
  return { vector: `{${parts.join(",")}}/${GRAM_DIMS}`, norm };
}

/** pgvector's text form of a sparse vector with arbitrary weights, indices ascending. */
export function toSparsevec(weights: Map<number, number>): string {
  const ids = Int32Array.from(weights.keys()).sort();
  const parts = Array.from(ids, (id) => `${id}:${Number(weights.get(id)!.toPrecision(7))}`);
  return `{${parts.join(",")}}/${GRAM_DIMS}`;
}
