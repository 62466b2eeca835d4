import { describe, expect, it } from "vitest";
import { hashesEqual, hashKey, keyShapeProblem, mintKey } from "./keys.ts";

describe("agent keys", () => {
  it("mints quire_sk_ + 43 base62 characters, with a hash and a short hint", () => {
    const minted = mintKey("quire");
    expect(minted.key).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
    expect(minted.hash).toBe(hashKey(minted.key));
    expect(minted.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.hint).toBe(`${minted.key.slice(0, 13)}…`);
    expect(minted.hint).not.toContain(minted.key.slice(13, 20));
    expect(keyShapeProblem(minted.key, "quire")).toBeNull();
  });

  it("never repeats", () => {
    const keys = new Set(Array.from({ length: 500 }, () => mintKey("quire").key));
    expect(keys.size).toBe(500);
  });

  it("says what is wrong with a malformed key", () => {
    expect(keyShapeProblem("sk-abc", "quire")).toContain('starts with "quire_sk_"');
    expect(keyShapeProblem("quire_sk_abc!", "quire")).toContain("base62");
    expect(keyShapeProblem("quire_sk_abc", "quire")).toContain("43");
  });

  it("compares hashes in constant time and only equal-length hex", () => {
    const h = hashKey("x");
    expect(hashesEqual(h, h)).toBe(true);
    expect(hashesEqual(h, hashKey("y"))).toBe(false);
    expect(hashesEqual(h, "")).toBe(false);
  });
});
