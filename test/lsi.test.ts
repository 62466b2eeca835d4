/** @module The LSI probe's linear algebra (eval/lib/lsi.ts, ADR 0033) against known answers. */
import { describe, expect, it } from "vitest";
import { type Csr, randomizedSvd, symmetricEigen } from "../eval/lib/lsi.ts";

/** A sparse matrix from dense rows. */
function csr(rows: number[][]): Csr {
  const ptr = [0];
  const idx: number[] = [];
  const val: number[] = [];
  for (const row of rows) {
    row.forEach((v, c) => {
      if (v !== 0) {
        idx.push(c);
        val.push(v);
      }
    });
    ptr.push(idx.length);
  }
  return {
    rows: rows.length,
    cols: rows[0]!.length,
    ptr: Int32Array.from(ptr),
    idx: Int32Array.from(idx),
    val: Float64Array.from(val),
  };
}

describe("symmetricEigen", () => {
  it("finds the eigenvalues, largest first, and eigenvectors that satisfy S v = λ v", () => {
    const s = [
      [2, 1, 0],
      [1, 2, 0],
      [0, 0, 5],
    ].map((r) => Float64Array.from(r));
    const { values, vectors } = symmetricEigen(s);
    expect(values.map((v) => Number(v.toFixed(10)))).toEqual([5, 3, 1]);
    for (const [j, v] of vectors.entries()) {
      for (let i = 0; i < 3; i++) {
        const sv = s[i]!.reduce((sum, x, k) => sum + x * v[k]!, 0);
        expect(sv).toBeCloseTo(values[j]! * v[i]!, 10);
      }
    }
  });
});

describe("randomizedSvd", () => {
  it("recovers the top singular values and right singular vectors of a diagonal matrix", () => {
    const sigma = [9, 7, 5, 4, 3, 2, 1.5, 1, 0.5, 0.25];
    const rows = sigma.map((s, i) => Array.from({ length: 14 }, (_, c) => (c === i ? s : 0)));
    const { basis, sigma: found } = randomizedSvd(csr(rows), 4, { oversample: 4 });
    expect(found.map((s) => Number(s.toFixed(8)))).toEqual([9, 7, 5, 4]);
    for (const [j, column] of basis.entries()) {
      expect(Math.abs(column[j]!)).toBeCloseTo(1, 8);
      expect(column.reduce((sum, x) => sum + x * x, 0)).toBeCloseTo(1, 8);
    }
  });

  it("matches the exact decomposition of a dense matrix with mixed terms", () => {
    // AᵀA's eigenvalues are the squared singular values; compare through symmetricEigen.
    const a = [
      [1, 2, 0, 0, 1],
      [0, 1, 3, 0, 0],
      [2, 0, 0, 1, 0],
      [0, 0, 1, 2, 2],
      [1, 1, 1, 1, 1],
      [0, 3, 0, 0, 1],
    ];
    const ata = Array.from({ length: 5 }, (_, i) =>
      Float64Array.from({ length: 5 }, (_, j) =>
        a.reduce((sum, row) => sum + row[i]! * row[j]!, 0),
      ),
    );
    const exact = symmetricEigen(ata).values.map(Math.sqrt);
    const { basis, sigma } = randomizedSvd(csr(a), 3, { oversample: 2, power: 4 });
    for (let j = 0; j < 3; j++) {
      expect(sigma[j]).toBeCloseTo(exact[j]!, 6);
      // ‖A v‖ = σ for a right singular vector v.
      const av = a.map((row) => row.reduce((sum, x, c) => sum + x * basis[j]![c]!, 0));
      expect(Math.sqrt(av.reduce((sum, x) => sum + x * x, 0))).toBeCloseTo(sigma[j]!, 6);
    }
  });
});
