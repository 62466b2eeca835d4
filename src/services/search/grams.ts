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
function foldText(text: string): string {
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
function gramIds(text: string): Int32Array {
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
    const word = wordFeature(sequence[i]!);
    into.set(word, (into.get(word) ?? 0) + 1);
    if (i === 0) continue;
    const pair = bigramFeature(sequence[i - 1]!, sequence[i]!);
    into.set(pair, (into.get(pair) ?? 0) + 1);
  }
  return into;
}

/** FNV-1a's state after the word prefix. */
const WORD_STATE = Math.imul(FNV_OFFSET ^ WORD.charCodeAt(0), FNV_PRIME);
/** FNV-1a's state after the bigram prefix. */
const BIGRAM_STATE = Math.imul(FNV_OFFSET ^ BIGRAM.charCodeAt(0), FNV_PRIME);

/** The feature id of a lexeme as a word: `gramId(WORD + lexeme)`, without building the string. */
function wordFeature(lexeme: string): number {
  return folded(fnv(WORD_STATE, lexeme));
}

/**
 * The feature id of two neighbouring lexemes: `gramId(BIGRAM + previous + " " + lexeme)`,
 * without building the string.
 */
function bigramFeature(previous: string, lexeme: string): number {
  return folded(fnv(Math.imul(fnv(BIGRAM_STATE, previous) ^ 32, FNV_PRIME), lexeme));
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
  return folded(fnv(FNV_OFFSET, gram));
}

/** 1 + ln tf for the small term frequencies nearly every feature has. */
const LOG_TF = Float64Array.from({ length: 64 }, (_, tf) => (tf > 0 ? 1 + Math.log(tf) : 0));
const DIMS_SUFFIX = Array.from(`}/${GRAM_DIMS}`, (c) => c.charCodeAt(0));
let textBuffer = new Uint8Array(1 << 16);

/** Writes the decimal digits of a non-negative integer at `at`; returns the next position. */
function writeDigits(out: Uint8Array, at: number, n: number): number {
  let end = at;
  for (let x = n; x >= 10; x = (x / 10) | 0) end++;
  for (let k = end, x = n; k >= at; k--) {
    const q = (x / 10) | 0;
    out[k] = 48 + x - q * 10;
    x = q;
  }
  return end + 1;
}

/**
 * A chunk's stored gram vector in pgvector's text form: sublinear term frequency
 * (1 + ln tf), scaled to unit length (times a constant, which no ranking sees: channels are
 * z-scored per query). IDF is deliberately left out and applied to the query instead, so a
 * stored vector never goes stale as the archive grows.
 * Features are given as ascending ids and their counts; the text is written digit by digit
 * (formatting numbers one by one cost as much as computing the features).
 */
export function storedVector(ids: Int32Array, counts: ArrayLike<number>): string {
  const n = ids.length;
  const weights = new Float64Array(n);
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const c = counts[i]!;
    const w = c < 64 && (c | 0) === c ? LOG_TF[c]! : 1 + Math.log(c);
    weights[i] = w;
    norm += w * w;
  }
  const scale = norm > 0 ? STORED_SCALE / Math.sqrt(norm) : 0;
  // At most 10 digits an id, 6 a weight (≤ STORED_SCALE), and ":" and ",".
  if (textBuffer.length < n * 18 + 16) textBuffer = new Uint8Array(n * 36 + 16);
  const out = textBuffer;
  let p = 0;
  out[p++] = 123; // {
  for (let i = 0; i < n; i++) {
    if (i > 0) out[p++] = 44; // ,
    p = writeDigits(out, p, ids[i]!);
    out[p++] = 58; // :
    p = writeDigits(out, p, Math.max(1, Math.round(weights[i]! * scale)));
  }
  for (const c of DIMS_SUFFIX) out[p++] = c;
  return Buffer.from(out.buffer, out.byteOffset, p).toString("latin1");
}

/**
 * Collects feature ids (duplicates allowed) and counts them by sorting: the chunk features
 * of a rebuild without a Map per chunk.
 */
export class FeatureBag {
  private ids = new Int32Array(4096);
  private size = 0;

  /** Empties the bag (its storage is kept for the next chunk). */
  clear(): this {
    this.size = 0;
    return this;
  }

  private reserve(extra: number): void {
    if (this.size + extra <= this.ids.length) return;
    const grown = new Int32Array(Math.max(this.ids.length * 2, this.size + extra));
    grown.set(this.ids.subarray(0, this.size));
    this.ids = grown;
  }

  /** Adds the character 4-grams of `text` (see `gramIds`). */
  addGrams(text: string): this {
    const grams = gramIds(text);
    this.reserve(grams.length);
    this.ids.set(grams, this.size);
    this.size += grams.length;
    return this;
  }

  /** Adds the word and bigram features of a lexeme sequence (see `countLexemes`). */
  addLexemes(sequence: readonly string[]): this {
    this.reserve(sequence.length * 2);
    for (let i = 0; i < sequence.length; i++) {
      this.ids[this.size++] = wordFeature(sequence[i]!);
      if (i > 0) this.ids[this.size++] = bigramFeature(sequence[i - 1]!, sequence[i]!);
    }
    return this;
  }

  /** The distinct ids, ascending, with how often each was added. */
  counted(): { ids: Int32Array; counts: Int32Array } {
    const sorted = radixSorted(this.ids.subarray(0, this.size));
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
    const ids = new Int32Array(distinct);
    const counts = new Int32Array(distinct);
    let k = -1;
    for (let i = 0; i < sorted.length; i++) {
      if (i === 0 || sorted[i] !== sorted[i - 1]) ids[++k] = sorted[i]!;
      counts[k] = counts[k]! + 1;
    }
    return { ids, counts };
  }
}

const RADIX_BITS = 10;
const RADIX = 1 << RADIX_BITS;
const radixCounts = new Int32Array(RADIX);
let radixA = new Int32Array(4096);
let radixB = new Int32Array(4096);

/**
 * `ids` (each in [1, GRAM_DIMS], so under 2^30) sorted ascending, in a scratch buffer the next
 * call overwrites: three passes of a 10-bit radix sort, about twice as fast here as the typed
 * array's own sort.
 */
function radixSorted(ids: Int32Array): Int32Array {
  if (radixA.length < ids.length) {
    radixA = new Int32Array(ids.length * 2);
    radixB = new Int32Array(ids.length * 2);
  }
  let src = radixA.subarray(0, ids.length);
  let dst = radixB.subarray(0, ids.length);
  src.set(ids);
  for (let shift = 0; shift < 30; shift += RADIX_BITS) {
    radixCounts.fill(0);
    for (let i = 0; i < src.length; i++) {
      const d = (src[i]! >>> shift) & (RADIX - 1);
      radixCounts[d] = radixCounts[d]! + 1;
    }
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = radixCounts[d]!;
      radixCounts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < src.length; i++) {
      const v = src[i]!;
      const d = (v >>> shift) & (RADIX - 1);
      dst[radixCounts[d]!] = v;
      radixCounts[d] = radixCounts[d]! + 1;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

/** FNV-1a's state continued from `h` over `text`'s code units. */
function fnv(h: number, text: string): number {
  let state = h;
  for (let i = 0; i < text.length; i++) state = Math.imul(state ^ text.charCodeAt(i), FNV_PRIME);
  return state;
}

/** An FNV-1a state folded into a feature id in [1, GRAM_DIMS] (as `gramId`). */
function folded(h: number): number {
  return ((h >>> 0) & GRAM_MASK) + 1;
}

/**
 * Feature id → count, for the millions of distinct features a rebuild counts: open
 * addressing over two typed arrays (ids are ≥ 1, so 0 marks a free slot), several times
 * faster than Maps.
 */
export class FeatureCounter {
  private keys = new Int32Array(1 << 16);
  private values = new Int32Array(1 << 16);
  private shift = 16;
  size = 0;

  /** Adds `by` to the count of `id` (≥ 1). */
  add(id: number, by = 1): void {
    if (this.size * 2 >= this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = Math.imul(id, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const k = this.keys[slot]!;
      if (k === id) {
        this.values[slot] = this.values[slot]! + by;
        return;
      }
      if (k === 0) {
        this.keys[slot] = id;
        this.values[slot] = by;
        this.size++;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Every id and its count, ids ascending. */
  entries(): { ids: Int32Array; counts: Int32Array } {
    const ids = new Int32Array(this.size);
    let n = 0;
    for (const k of this.keys) if (k !== 0) ids[n++] = k;
    ids.sort();
    const counts = Int32Array.from(ids, (id) => this.get(id));
    return { ids, counts };
  }

  get(id: number): number {
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(id, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const k = this.keys[slot]!;
      if (k === id) return this.values[slot]!;
      if (k === 0) return 0;
    }
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.shift--;
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) this.add(keys[i]!, values[i]!);
  }
}

/** pgvector's text form of a sparse vector with arbitrary weights, indices ascending. */
export function toSparsevec(weights: Map<number, number>): string {
  const ids = Int32Array.from(weights.keys()).sort();
  const parts = Array.from(ids, (id) => `${id}:${Number(weights.get(id)!.toPrecision(7))}`);
  return `{${parts.join(",")}}/${GRAM_DIMS}`;
}
