/** @module Tests for fingerprints: normalisation, FNV/SimHash correctness and bands (distances on SciFact: fingerprint.many.test.ts). */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ABSTRACT_1500 } from "./fingerprint.test-helpers.ts";
import {
  fingerprint,
  hammingDistance,
  NEAR_DUPLICATE_MAX_DISTANCE,
  normalizeForFingerprint,
  SIMHASH_BAND_COUNT,
  simhashBands,
} from "./fingerprint.ts";

const MASK64 = (1n << 64n) - 1n;

/** Reference FNV-1a 64 in BigInt, straight from the specification. */
function fnv1a64Reference(s: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(s)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & MASK64;
  }
  return h;
}

/** Reference SimHash for plain lowercase ASCII text (tokens are the space-separated words). */
function simhashReference(words: string[]): bigint {
  const shingles: string[] = [];
  if (words.length < 3) shingles.push(words.join(" "));
  for (let i = 0; i + 3 <= words.length; i++) shingles.push(words.slice(i, i + 3).join(" "));
  const counts = new Array<number>(64).fill(0);
  for (const shingle of shingles) {
    const h = fnv1a64Reference(shingle);
    for (let b = 0; b < 64; b++) counts[b]! += (h >> BigInt(b)) & 1n ? 1 : -1;
  }
  let out = 0n;
  for (let b = 0; b < 64; b++) if (counts[b]! > 0) out |= 1n << BigInt(b);
  return BigInt.asIntN(64, out);
}

describe("normalizeForFingerprint", () => {
  it("folds case, width, whitespace and Markdown punctuation", () => {
    expect(normalizeForFingerprint("  # The **Quick**\n\n_brown_   `fox`  ")).toBe(
      "the quick brown fox",
    );
    expect(normalizeForFingerprint("ＡＢＣ ﬁnd")).toBe("abc find");
    expect(normalizeForFingerprint("- item one\n- item two\n1. item three")).toBe(
      "item one item two item three",
    );
    expect(normalizeForFingerprint("a [link](http://x.org) and > quote")).toBe(
      "a link http://x.org and quote",
    );
  });

  it("drops invisible characters so hiding them does not change the fingerprint", () => {
    expect(normalizeForFingerprint("ig\u200bnore\u00ad this\u202e")).toBe("ignore this");
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        const once = normalizeForFingerprint(s);
        expect(normalizeForFingerprint(once)).toBe(once);
      }),
    );
  });
});

describe("fingerprint", () => {
  const doc = { title: "A Study of Things", abstract: ABSTRACT_1500, body: "" };

  it("hashes the normalised title, abstract and body with sha256", () => {
    const fp = fingerprint(doc);
    const expected = createHash("sha256")
      .update(`${normalizeForFingerprint(doc.title)}\n${normalizeForFingerprint(doc.abstract)}\n`)
      .digest("hex");
    expect(fp.contentHash).toBe(expected);
    expect(fp.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is stable under whitespace, case and Markdown changes", () => {
    const reformatted = {
      title: "  a study   of THINGS ",
      abstract: `**${ABSTRACT_1500.toUpperCase().replaceAll(" ", "\n  ")}**`,
      body: "",
    };
    const a = fingerprint(doc);
    const b = fingerprint(reformatted);
    expect(b.contentHash).toBe(a.contentHash);
    expect(b.simhash).toBe(a.simhash);
    expect(b.bands).toEqual(a.bands);
  });

  it("distinguishes which field text belongs to in the content hash", () => {
    const a = fingerprint({ title: "Title one", abstract: "x y", body: "" });
    const b = fingerprint({ title: "Title", abstract: "one x y", body: "" });
    expect(a.contentHash).not.toBe(b.contentHash);
  });

  it("implements FNV-1a 64 exactly (published test vectors via one-word documents)", () => {
    expect(fnv1a64Reference("a")).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64Reference("foobar")).toBe(0x85944171f73967e8n);
    expect(fingerprint({ title: "a", abstract: "", body: "" }).simhash).toBe(
      BigInt.asIntN(64, 0xaf63dc4c8601ec8cn),
    );
    expect(fingerprint({ title: "foobar", abstract: "", body: "" }).simhash).toBe(
      BigInt.asIntN(64, 0x85944171f73967e8n),
    );
  });

  it("matches a BigInt reference SimHash over word 3-shingles", () => {
    const words = fc.constantFrom("alpha", "beta", "gamma", "delta", "río", "日本", "x1");
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 40 }), (ws) => {
        const text = ws.join(" ");
        const tokens = normalizeForFingerprint(text)
          .replace(/[\p{sc=Han}]/gu, " $& ")
          .split(" ")
          .filter(Boolean);
        expect(fingerprint({ title: "", abstract: text, body: "" }).simhash).toBe(
          simhashReference(tokens),
        );
      }),
    );
  });

  it("uses abstract+body when there is a body, title+abstract otherwise", () => {
    const withBody = fingerprint({ title: "T one", abstract: "a b c", body: "d e f" });
    const otherTitle = fingerprint({ title: "T two", abstract: "a b c", body: "d e f" });
    expect(otherTitle.simhash).toBe(withBody.simhash);
    expect(otherTitle.contentHash).not.toBe(withBody.contentHash);
    const noBody = fingerprint({ title: "T one", abstract: "a b c", body: "" });
    expect(noBody.simhash).toBe(simhashReference(["t", "one", "a", "b", "c"]));
  });

  it("returns a signed 64-bit simhash and bands that reassemble it", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const fp = fingerprint({ title: s, abstract: s, body: s });
        expect(fp.simhash).toBe(BigInt.asIntN(64, fp.simhash));
        expect(fp.bands).toHaveLength(SIMHASH_BAND_COUNT);
        let rebuilt = 0n;
        let shift = 0n;
        const base = Math.floor(64 / SIMHASH_BAND_COUNT);
        fp.bands.forEach((band, i) => {
          const width = BigInt(base + (i < 64 % SIMHASH_BAND_COUNT ? 1 : 0));
          expect(band).toBeGreaterThanOrEqual(0);
          expect(BigInt(band)).toBeLessThan(1n << width);
          rebuilt |= BigInt(band) << shift;
          shift += width;
        });
        expect(shift).toBe(64n);
        expect(BigInt.asIntN(64, rebuilt)).toBe(fp.simhash);
      }),
    );
  });

  it("handles empty and non-Latin documents", () => {
    expect(fingerprint({ title: "", abstract: "", body: "" }).simhash).toBe(0n);
    const zh = fingerprint({ title: "", abstract: "本文提出了一种新的方法。", body: "" });
    expect(zh.simhash).not.toBe(0n);
  });
});

describe("hammingDistance", () => {
  it("counts differing bits of signed or unsigned 64-bit values", () => {
    expect(hammingDistance(0n, 0n)).toBe(0);
    expect(hammingDistance(0n, -1n)).toBe(64);
    expect(hammingDistance(-1n, BigInt.asUintN(64, -1n))).toBe(0);
    expect(hammingDistance(0b1011n, 0b0110n)).toBe(3);
    expect(hammingDistance(1n << 63n, 0n)).toBe(1);
  });

  it("is symmetric and agrees with a BigInt popcount", () => {
    const u64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
    fc.assert(
      fc.property(u64, u64, (a, b) => {
        const x = BigInt.asUintN(64, a ^ b);
        const expected = x.toString(2).replaceAll("0", "").length;
        expect(hammingDistance(a, b)).toBe(expected);
        expect(hammingDistance(b, a)).toBe(expected);
      }),
    );
  });
});

describe("LSH bands", () => {
  const u64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });

  it(`share a band whenever two hashes are within distance ${NEAR_DUPLICATE_MAX_DISTANCE}`, () => {
    fc.assert(
      fc.property(
        u64,
        fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: NEAR_DUPLICATE_MAX_DISTANCE }),
        (h, bits) => {
          let other = BigInt.asUintN(64, h);
          for (const b of bits) other ^= 1n << BigInt(b);
          const signed = BigInt.asIntN(64, other);
          expect(hammingDistance(h, signed)).toBe(bits.length);
          const a = simhashBands(h);
          const b = simhashBands(signed);
          expect(a.some((band, i) => band === b[i])).toBe(true);
        },
      ),
    );
  });

  it("needs all of its bands: one more flipped bit can miss every band", () => {
    let other = 0n;
    let shift = 0;
    const base = Math.floor(64 / SIMHASH_BAND_COUNT);
    for (let i = 0; i < SIMHASH_BAND_COUNT; i++) {
      other |= 1n << BigInt(shift);
      shift += base + (i < 64 % SIMHASH_BAND_COUNT ? 1 : 0);
    }
    const flipped = BigInt.asIntN(64, other);
    expect(hammingDistance(0n, flipped)).toBe(NEAR_DUPLICATE_MAX_DISTANCE + 1);
    const a = simhashBands(0n);
    const b = simhashBands(flipped);
    expect(a.some((band, i) => band === b[i])).toBe(false);
  });
});

describe("performance", () => {
  it("fingerprints a 100 KB body in well under 50 ms", () => {
    const paragraph = `${ABSTRACT_1500}\n\n`;
    const body = paragraph.repeat(Math.ceil(100_000 / paragraph.length)).slice(0, 100_000);
    const doc = { title: "Title", abstract: ABSTRACT_1500, body };
    fingerprint(doc);
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 10; i++) {
      const cpuStart = process.cpuUsage();
      fingerprint(doc);
      const used = process.cpuUsage(cpuStart);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    console.info(`fingerprint of a 100 KB body: ${best.toFixed(1)} ms CPU (best of 10)`);
    expect(best).toBeLessThan(50);
  });
});
