/**
 * @module Splitting a request's reads across connections: how values are cut into parts, and
 * on which engine the parts run at once.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../testing/db.ts";
import type { Database } from "./client.ts";
import { readInParts, rowsOf, slices, withTransaction } from "./sql.ts";

describe("slices", () => {
  it("cuts values into contiguous near-equal parts, in order, none empty", () => {
    const values = [1, 2, 3, 4, 5, 6, 7];
    expect(slices(values, 2)).toEqual([
      [1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(slices(values, 3)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6, 7],
    ]);
    expect(slices(values, 1)).toEqual([values]);
    expect(slices([1, 2], 5)).toEqual([[1], [2]]);
    expect(slices([], 2)).toEqual([[]]);
    expect(slices(values, 0)).toEqual([values]);
  });
});

describe("readInParts", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  /** The parts `readInParts` asked for, and its answer, reading each value back doubled. */
  async function partsOf(db: Database["db"], values: number[]) {
    const parts: number[][] = [];
    const rows = await readInParts(db, values, async (part) => {
      parts.push(part);
      const rows = await rowsOf<{ v: number }>(
        db,
        sql`select (v * 2)::int4 as v from unnest(${sql.param(part)}::int4[]) with ordinality u(v, i) order by i`,
      );
      return rows.map((r) => Number(r.v));
    });
    return { parts, rows };
  }

  it("splits a read in two on a PostgreSQL pool, not on PGlite nor in a transaction; rows in order", async () => {
    const values = [1, 2, 3, 4, 5];
    const pooled = await partsOf(database.db, values);
    expect(pooled.parts).toEqual(
      database.kind === "postgres"
        ? [
            [1, 2],
            [3, 4, 5],
          ]
        : [values],
    );
    expect(pooled.rows).toEqual([2, 4, 6, 8, 10]);
    const inside = await withTransaction(database.db, (tx) => partsOf(tx, values));
    expect(inside.parts).toEqual([values]);
    expect(inside.rows).toEqual([2, 4, 6, 8, 10]);
  });
});
