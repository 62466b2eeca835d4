/** @module Interpolating a ranking with its expansions, on its own. */
import { describe, expect, it } from "vitest";
import { interpolate, type Ranked } from "./expansion.ts";

const make = (chunkId: number, fused: number) => ({ chunkId, fused });

describe("interpolate", () => {
  const first: Ranked[] = [make(1, 2), make(2, 1), make(3, 0)];

  it("keeps the first ranking when no expansion has weight or results", () => {
    expect(interpolate(first, [{ ranking: [make(9, 5)], weight: 0 }], make)).toEqual(first);
    expect(interpolate(first, [{ ranking: [], weight: 0.3 }], make)).toEqual(first);
  });

  it("mixes z-scores by weight; a passage one ranking missed gets that ranking's lowest score", () => {
    const out = interpolate(first, [{ ranking: [make(3, 3), make(4, 1)], weight: 0.5 }], make);
    // 3: 0.5·0 + 0.5·3 = 1.5; 1: 0.5·2 + 0.5·1 = 1.5 (tie: lower id first); 4: 0 + 0.5 = 0.5.
    expect(out.map((r) => [r.chunkId, r.fused])).toEqual([
      [1, 1.5],
      [3, 1.5],
      [2, 1],
      [4, 0.5],
    ]);
  });
});
