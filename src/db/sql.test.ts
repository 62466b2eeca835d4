/**
 * @module Splitting a request's statements across connections: how many run at once on
 * each engine, and how values are cut into parts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../testing/db.ts";
import type { Database } from "./client.ts";
import { slices, statementsAtOnce, withTransaction } from "./sql.ts";

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

describe("statementsAtOnce", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("is the wanted number on a PostgreSQL pool, 1 on PGlite and in a transaction", async () => {
    const expected = database.kind === "postgres" ? 2 : 1;
    expect(statementsAtOnce(database.db, 2)).toBe(expected);
    expect(statementsAtOnce(database.db, 0)).toBe(1);
    const inside = await withTransaction(database.db, async (tx) => statementsAtOnce(tx, 2));
    expect(inside).toBe(1);
  });
});
