/** @module Fingerprint distances measured on 3,000 generated abstracts (test/fixtures/synthetic-papers.ts). */
import { describe, expect, it } from "vitest";
import { prng, syntheticPapers } from "../../../test/fixtures/synthetic-papers.ts";
import { ABSTRACT_1500 } from "./fingerprint.test-helpers.ts";
import { fingerprint, hammingDistance, NEAR_DUPLICATE_MAX_DISTANCE } from "./fingerprint.ts";

const ABSTRACT_1500_EDITED = ABSTRACT_1500.replace(
  "Calibration was good across age, sex and ethnic groups",
  "Calibration remained good across all age, sex and ethnic groups",
);

/** Abstracts we generate (test/fixtures/synthetic-papers.ts), as `{ title, text }`. */
function loadAbstracts(): { title: string; text: string }[] {
  return syntheticPapers(3000, 7).map((p) => ({ title: p.title, text: p.abstract }));
}

function summarise(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return `n=${sorted.length} mean=${mean.toFixed(2)} p50=${q(0.5)} p90=${q(0.9)} p99=${q(0.99)} max=${sorted.at(-1)}`;
}

function shareWithin(values: number[], k: number): number {
  return values.filter((d) => d <= k).length / values.length;
}

describe("near-duplicate threshold, measured on generated abstracts", () => {
  const records = loadAbstracts();
  const simhash = (abstract: string) => fingerprint({ title: "", abstract, body: "" }).simhash;

  it("keeps a lightly edited 1,500-character abstract (one sentence changed) within the threshold", () => {
    expect(ABSTRACT_1500.length).toBeGreaterThan(1450);
    expect(ABSTRACT_1500.length).toBeLessThan(1650);
    expect(ABSTRACT_1500_EDITED).not.toBe(ABSTRACT_1500);
    const d = hammingDistance(simhash(ABSTRACT_1500), simhash(ABSTRACT_1500_EDITED));
    console.info(`lightly edited 1,500-char abstract: distance ${d}`);
    expect(d).toBeLessThanOrEqual(NEAR_DUPLICATE_MAX_DISTANCE);
  });

  it("never puts two unrelated abstracts within the threshold (all 4.5 M pairs)", () => {
    const lo = new Uint32Array(records.length);
    const hi = new Uint32Array(records.length);
    records.forEach((r, i) => {
      const u = BigInt.asUintN(
        64,
        fingerprint({ title: r.title, abstract: r.text, body: "" }).simhash,
      );
      lo[i] = Number(u & 0xffffffffn);
      hi[i] = Number(u >> 32n);
    });
    const popcount = (x: number) => {
      let v = x - ((x >>> 1) & 0x55555555);
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
    };
    const histogram = new Array<number>(65).fill(0);
    for (let i = 0; i < records.length; i++) {
      for (let j = i + 1; j < records.length; j++) {
        histogram[popcount((lo[i]! ^ lo[j]!) >>> 0) + popcount((hi[i]! ^ hi[j]!) >>> 0)]!++;
      }
    }
    const pairs = histogram.reduce((a, b) => a + b, 0);
    const mean = histogram.reduce((a, n, d) => a + n * d, 0) / pairs;
    const min = histogram.findIndex((n) => n > 0);
    const tail = histogram
      .slice(0, 21)
      .map((n, d) => (n > 0 ? `${d}:${n}` : ""))
      .filter(Boolean)
      .join(" ");
    console.info(`unrelated pairs: ${pairs} mean=${mean.toFixed(2)} min=${min} tail ${tail}`);
    expect(pairs).toBe((records.length * (records.length - 1)) / 2);
    // Independent 64-bit hashes sit 32 bits apart on average; the generator's vocabulary is a
    // few hundred words, so its unrelated abstracts share more shingles and sit a little closer.
    expect(mean).toBeGreaterThan(28);
    expect(mean).toBeLessThan(33);
    expect(min).toBeGreaterThan(NEAR_DUPLICATE_MAX_DISTANCE + 2);
  });

  it("catches word-level edits of ~1,500-character abstracts, and documents sentence-level ones", () => {
    const random = prng(20240601);
    const sentences = (t: string) => t.match(/[^.!?]+[.!?]+(?:\s+|$)|[^.!?]+$/g) ?? [t];
    const donorSentences = records
      .flatMap((r) => sentences(r.text))
      .filter((s) => s.length > 60 && s.length < 250);
    const pool = records.filter((r) => r.text.length >= 1300 && r.text.length <= 1700);
    const oneWord: number[] = [];
    const threeAdjacentWords: number[] = [];
    const sentenceReplaced: number[] = [];
    const sentenceDeleted: number[] = [];
    for (const r of pool) {
      const base = simhash(r.text);
      const words = r.text.split(" ");
      const k = 1 + Math.floor(random() * (words.length - 4));
      const w1 = [...words];
      w1[k] = "modified";
      oneWord.push(hammingDistance(base, simhash(w1.join(" "))));
      const w3 = [...words];
      w3.splice(k, 3, "markedly", "raised", "levels");
      threeAdjacentWords.push(hammingDistance(base, simhash(w3.join(" "))));
      const ss = sentences(r.text);
      const si = Math.floor(random() * ss.length);
      const replaced = [...ss];
      replaced[si] = `${donorSentences[Math.floor(random() * donorSentences.length)]!.trim()} `;
      sentenceReplaced.push(hammingDistance(base, simhash(replaced.join(""))));
      const deleted = [...ss];
      deleted.splice(si, 1);
      sentenceDeleted.push(hammingDistance(base, simhash(deleted.join(""))));
    }
    const k = NEAR_DUPLICATE_MAX_DISTANCE;
    for (const [name, values] of [
      ["one word replaced", oneWord],
      ["three adjacent words replaced", threeAdjacentWords],
      ["one sentence replaced", sentenceReplaced],
      ["one sentence deleted", sentenceDeleted],
    ] as const) {
      console.info(
        `${name}: ${summarise(values)} within ${k}: ${(100 * shareWithin(values, k)).toFixed(1)}%`,
      );
    }
    expect(pool.length).toBeGreaterThan(1000);
    expect(shareWithin(oneWord, k)).toBeGreaterThan(0.97);
    expect(shareWithin(threeAdjacentWords, k)).toBeGreaterThan(0.9);
    // Whole-sentence changes of short abstracts overlap nothing unrelated but mostly exceed k.
    expect(shareWithin(sentenceReplaced, k)).toBeGreaterThan(0.1);
    expect(shareWithin(sentenceReplaced, 20)).toBeGreaterThan(0.95);
  });
});
