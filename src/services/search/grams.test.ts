/** @module Character 4-grams: folding, hashing without strings, stored vectors. */
import { describe, expect, it } from "vitest";
import {
  countFeatures,
  countGrams,
  countLexemes,
  FeatureBag,
  FeatureCounter,
  GRAM_DIMS,
  gramId,
  storedVector,
  toSparsevec,
} from "./grams.ts";

function naive(text: string): Map<number, number> {
  const folded = ` ${text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, " ")
    .trim()} `;
  const chars = Array.from(folded);
  const out = new Map<number, number>();
  for (let i = 0; i + 4 <= chars.length; i++) {
    const id = gramId(chars.slice(i, i + 4).join(""));
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

describe("countGrams", () => {
  it("folds case, punctuation and spacing, and pads the ends", () => {
    const grams = countGrams("The  CAT-sat!");
    expect(grams).toEqual(naive(" the cat sat "));
    expect(grams.get(gramId(" the"))).toBe(1);
    expect(grams.get(gramId("cat "))).toBe(1);
    expect(grams.get(gramId("t sa"))).toBe(1);
  });

  it("counts repeats", () => {
    expect(countGrams("abab abab").get(gramId("abab"))).toBe(2);
  });

  it.each([
    ["accents and NFKC", "Ｃａｆé ﬁne naïve"],
    ["astral characters", "𝒳 ray 🧪 tests 𝔸𝔹ℂ"],
    ["CJK and Greek", "蛋白质 folding αβγ-sheets"],
    ["a short word", "ox"],
    ["nothing but punctuation", "!?…"],
  ])("hashes exactly like the gram strings would (%s)", (_name, text) => {
    expect(countGrams(text)).toEqual(naive(text));
  });

  it("keeps ids within the sparse vector's dimensions", () => {
    for (const id of countGrams("immunotherapy and immunology of melanoma").keys()) {
      expect(id).toBeGreaterThanOrEqual(1);
      expect(id).toBeLessThanOrEqual(GRAM_DIMS);
    }
  });
});

describe("countLexemes", () => {
  it("counts each stemmed word and each pair of neighbours", () => {
    const features = countLexemes(["vitamin", "d", "deficienc", "vitamin"]);
    expect(features.get(gramId("\u0001vitamin"))).toBe(2);
    expect(features.get(gramId("\u0001d"))).toBe(1);
    expect(features.get(gramId("\u0002vitamin d"))).toBe(1);
    expect(features.get(gramId("\u0002d deficienc"))).toBe(1);
    expect(features.get(gramId("\u0002deficienc vitamin"))).toBe(1);
    expect([...features.values()].reduce((a, b) => a + b, 0)).toBe(4 + 3);
  });

  it("never shares a feature with a character gram of the same letters", () => {
    const words = countLexemes(["cell"]);
    const grams = countGrams("cell");
    for (const id of words.keys()) expect(grams.has(id)).toBe(false);
  });

  it("countFeatures is the grams of the text plus the words and bigrams of its lexemes", () => {
    const both = countFeatures("Vitamin D", ["vitamin", "d"]);
    const expected = countLexemes(["vitamin", "d"], countGrams("Vitamin D"));
    expect(both).toEqual(expected);
    expect(countFeatures("", [])).toEqual(new Map());
  });
});

describe("stored vectors", () => {
  it("are sublinear TF scaled to a fixed norm, indices ascending, in pgvector text form", () => {
    const text = storedVector(Int32Array.from([3, 7]), [Math.E ** 2, 1]);
    expect(text).toMatch(/^\{3:\d+,7:\d+\}\/536870912$/);
    const [, a, b] = /\{3:(\d+),7:(\d+)\}/.exec(text)!.map(Number);
    expect(a! / b!).toBeCloseTo(3, 3);
    expect(Math.hypot(a!, b!)).toBeCloseTo(100_000, -1);
  });

  it("toSparsevec writes weights with seven significant digits", () => {
    expect(toSparsevec(new Map([[9, 1 / 3]]))).toBe("{9:0.3333333}/536870912");
  });
});

describe("rebuild features", () => {
  const text =
    "Vitamin D deficiency and immunotherapy: the effect of vitamin D on T-cells (Ωmega-3, naïve) 😀 ok";
  const title = "Vitamin D and immunology";
  const lexemes = [
    "vitamin",
    "d",
    "defici",
    "immunotherapi",
    "effect",
    "vitamin",
    "d",
    "t",
    "cell",
  ];
  const titleLexemes = ["vitamin", "d", "immunolog"];

  it("FeatureBag counts what countGrams and countLexemes count, ids ascending", () => {
    const expected = countLexemes(
      titleLexemes,
      countGrams(title, countLexemes(lexemes, countGrams(text))),
    );
    const bag = new FeatureBag();
    bag.addGrams("left over from the chunk before");
    const { ids, counts } = bag
      .clear()
      .addGrams(text)
      .addLexemes(lexemes)
      .addGrams(title)
      .addLexemes(titleLexemes)
      .counted();
    expect(ids.length).toBe(expected.size);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(new Map(Array.from(ids, (id, i) => [id, counts[i]!]))).toEqual(expected);
  });

  it("storedVector writes what template strings would, large counts included", () => {
    const ids = Int32Array.from([1, 10, 99, 12_345, GRAM_DIMS]);
    const counts = Int32Array.from([1, 2, 70, 1, 1000]);
    const weights = Array.from(counts, (c) => 1 + Math.log(c));
    const scale = 100_000 / Math.hypot(...weights);
    const parts = Array.from(
      ids,
      (id, i) => `${id}:${Math.max(1, Math.round(weights[i]! * scale))}`,
    );
    expect(storedVector(ids, counts)).toBe(`{${parts.join(",")}}/${GRAM_DIMS}`);
    expect(storedVector(new Int32Array(0), new Int32Array(0))).toBe(`{}/${GRAM_DIMS}`);
  });

  it("FeatureCounter adds up counts across growth, ids ascending", () => {
    const counter = new FeatureCounter();
    const expected = new Map<number, number>();
    for (let i = 0; i < 200_000; i++) {
      const id = 1 + ((i * 7919) % 150_001) * 3;
      counter.add(id);
      expected.set(id, (expected.get(id) ?? 0) + 1);
    }
    counter.add(5, 4);
    expected.set(5, (expected.get(5) ?? 0) + 4);
    const { ids, counts } = counter.entries();
    expect(counter.size).toBe(expected.size);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(new Map(Array.from(ids, (id, i) => [id, counts[i]!]))).toEqual(expected);
    expect(counter.get(5)).toBe(expected.get(5));
    expect(counter.get(2)).toBe(0);
  });
});
