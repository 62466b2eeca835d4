/** @module Fingerprints for duplicate detection: normalisation, sha256 content hash, SimHash and its LSH bands. */
import { createHash } from "node:crypto";

/**
 * Largest Hamming distance between two SimHashes that still counts as a near duplicate.
 *
 * Measured (fingerprint.test.ts re-checks the abstract figures): the 13.4 M unrelated SciFact
 * abstract pairs average 32 bits apart and none came closer than 11, in line with the binomial
 * tail (P(d <= 7) ~ 3e-11 per pair). Edits of ~1,500-char abstracts: one word replaced -> mean
 * 3, 99% within 7; three adjacent words -> ~95%; a whole sentence replaced -> mean 11, only
 * ~20% within 7, and no threshold separates that from unrelated pairs without false hits at
 * archive scale. With a full body (unarXive papers) one rewritten sentence stays within 7 in
 * 48/48 papers, one replaced paragraph in 47/48, five replaced paragraphs in 32/48.
 * 7 also gives 8 bands of exactly 8 bits, so one band lookup returns ~3% of the archive.
 */
export const NEAR_DUPLICATE_MAX_DISTANCE = 7;

/** Number of LSH bands: by pigeonhole, hashes within distance k agree exactly on one of k+1 slices. */
export const SIMHASH_BAND_COUNT = NEAR_DUPLICATE_MAX_DISTANCE + 1;

export interface Fingerprint {
  contentHash: string;
  simhash: bigint;
  /** SIMHASH_BAND_COUNT unsigned slices of the simhash; compare position by position. */
  bands: number[];
}

const INVISIBLE = /[\p{Cf}\u00ad]/gu;
const LIST_MARKER = /^[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+/gm;
const RULE_LINE = /^[ \t]*(?:[-=_*:|][ \t]*){3,}$/gm;
const MARKDOWN_PUNCTUATION = /[#*_`~>|[\]()\\!<{}]+/g;
const WHITESPACE = /\s+/g;

/**
 * NFKC, lowercase, collapse whitespace, strip Markdown punctuation — so trivial edits don't
 * evade duplicate detection. Invisible format characters (zero-width, bidi controls, soft
 * hyphens) are dropped too, so hiding them in a copy does not change its fingerprint.
 */
export function normalizeForFingerprint(text: string): string {
  return text
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .replace(LIST_MARKER, "")
    .replace(RULE_LINE, " ")
    .toLowerCase()
    .replace(MARKDOWN_PUNCTUATION, " ")
    .replace(WHITESPACE, " ")
    .trim();
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const IDEOGRAPHIC = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const SEPARATOR = 0;
const WORD = 1;
const IDEOGRAPH = 2;

/**
 * Words of normalised text: runs of letters, digits and marks, except that each Han/kana
 * character is a word of its own since those scripts omit spaces. Hand-rolled with an ASCII
 * fast path because Unicode-property regexes cost ~7 ms per 100 KB.
 */
function words(normalised: string): string[] {
  const out: string[] = [];
  const classes = new Map<number, number>();
  const classify = (cp: number): number => {
    let c = classes.get(cp);
    if (c === undefined) {
      const ch = String.fromCodePoint(cp);
      c = IDEOGRAPHIC.test(ch) ? IDEOGRAPH : WORD_CHAR.test(ch) ? WORD : SEPARATOR;
      classes.set(cp, c);
    }
    return c;
  };
  let start = -1;
  for (let i = 0; i < normalised.length; i++) {
    const code = normalised.charCodeAt(i);
    let kind: number;
    let width = 1;
    if (code < 0x80) {
      kind = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? WORD : SEPARATOR;
    } else {
      const cp = normalised.codePointAt(i)!;
      if (cp > 0xffff) width = 2;
      kind = classify(cp);
    }
    if (kind === WORD) {
      if (start < 0) start = i;
    } else {
      if (start >= 0) out.push(normalised.slice(start, i));
      start = -1;
      if (kind === IDEOGRAPH) out.push(normalised.slice(i, i + width));
    }
    i += width - 1;
  }
  if (start >= 0) out.push(normalised.slice(start));
  return out;
}

const FNV_OFFSET_HI = 0xcbf29ce4;
const FNV_OFFSET_LO = 0x84222325;
const FNV_PRIME_LO = 0x1b3;
const SHINGLE = 3;
const encoder = new TextEncoder();

/**
 * SimHash of word 3-shingles; each shingle is hashed as FNV-1a 64 over the UTF-8 bytes of its
 * words joined by single spaces. The 64-bit multiply by the prime 2^40 + 0x1b3 runs on two
 * 32-bit halves, and per-bit counts are kept bit-sliced (counter bit p of all 32 lanes in one
 * int), because the straightforward BigInt version costs ~100 ms per 100 KB body.
 */
function simhashOf(tokens: string[]): bigint {
  if (tokens.length === 0) return 0n;
  const bytes = encoder.encode(tokens.join(" "));
  const starts: number[] = [0];
  for (let k = 0; k < bytes.length; k++) if (bytes[k] === 0x20) starts.push(k + 1);
  starts.push(bytes.length + 1);
  const shingles = Math.max(1, tokens.length - SHINGLE + 1);
  const loPlanes = new Int32Array(32);
  const hiPlanes = new Int32Array(32);
  for (let s = 0; s < shingles; s++) {
    const to = starts[Math.min(s + SHINGLE, tokens.length)]! - 1;
    let hi = FNV_OFFSET_HI | 0;
    let lo = FNV_OFFSET_LO | 0;
    for (let k = starts[s]!; k < to; k++) {
      lo ^= bytes[k]!;
      const low = (lo & 0xffff) * FNV_PRIME_LO;
      const high = (lo >>> 16) * FNV_PRIME_LO;
      hi = (Math.imul(hi, FNV_PRIME_LO) + (lo << 8) + ((high + (low >>> 16)) >>> 16)) | 0;
      lo = Math.imul(lo, FNV_PRIME_LO);
    }
    for (let carry = lo, p = 0; carry !== 0; p++) {
      const next = loPlanes[p]! & carry;
      loPlanes[p]! ^= carry;
      carry = next;
    }
    for (let carry = hi, p = 0; carry !== 0; p++) {
      const next = hiPlanes[p]! & carry;
      hiPlanes[p]! ^= carry;
      carry = next;
    }
  }
  let loBits = 0;
  let hiBits = 0;
  for (let b = 0; b < 32; b++) {
    let loOnes = 0;
    let hiOnes = 0;
    for (let p = 0; p < 32; p++) {
      loOnes += ((loPlanes[p]! >>> b) & 1) * 2 ** p;
      hiOnes += ((hiPlanes[p]! >>> b) & 1) * 2 ** p;
    }
    if (2 * loOnes > shingles) loBits |= 1 << b;
    if (2 * hiOnes > shingles) hiBits |= 1 << b;
  }
  return BigInt.asIntN(64, (BigInt(hiBits >>> 0) << 32n) | BigInt(loBits >>> 0));
}

/**
 * Splits a simhash into SIMHASH_BAND_COUNT contiguous unsigned slices (low bits first, widths
 * differing by at most one). Two hashes within NEAR_DUPLICATE_MAX_DISTANCE agree on at least
 * one slice at the same position, so a lookup on (band position, value) finds every near
 * duplicate; candidates must then be confirmed with hammingDistance.
 */
export function simhashBands(simhash: bigint): number[] {
  let rest = BigInt.asUintN(64, simhash);
  const bands: number[] = [];
  const base = Math.floor(64 / SIMHASH_BAND_COUNT);
  const wider = 64 % SIMHASH_BAND_COUNT;
  for (let i = 0; i < SIMHASH_BAND_COUNT; i++) {
    const width = BigInt(base + (i < wider ? 1 : 0));
    bands.push(Number(rest & ((1n << width) - 1n)));
    rest >>= width;
  }
  return bands;
}

/**
 * contentHash: sha256 hex of the normalised title, abstract and body (newline-separated, which
 * normalisation guarantees cannot occur inside a field), for exact-duplicate lookup.
 * simhash: 64-bit SimHash over word 3-shingles (FNV-1a 64 of the UTF-8 bytes) of the
 * normalised abstract+body, or title+abstract when the body is empty; returned as a SIGNED
 * 64-bit bigint so it fits a PostgreSQL bigint. bands: see simhashBands.
 */
export function fingerprint(doc: { title: string; abstract: string; body: string }): Fingerprint {
  const title = normalizeForFingerprint(doc.title);
  const abstract = normalizeForFingerprint(doc.abstract);
  const body = normalizeForFingerprint(doc.body);
  const contentHash = createHash("sha256").update(`${title}\n${abstract}\n${body}`).digest("hex");
  const tokens =
    body.length > 0 ? [...words(abstract), ...words(body)] : [...words(title), ...words(abstract)];
  const simhash = simhashOf(tokens);
  return { contentHash, simhash, bands: simhashBands(simhash) };
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Number of differing bits between two 64-bit hashes, whether stored signed or unsigned. */
export function hammingDistance(a: bigint, b: bigint): number {
  const x = BigInt.asUintN(64, a ^ b);
  return popcount32(Number(x & 0xffffffffn)) + popcount32(Number(x >> 32n));
}
