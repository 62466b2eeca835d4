/** @module Row counts and content checksums of tables, computed by the same SQL on PGlite and PostgreSQL. */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf, withTransaction } from "../../db/sql.ts";
import { CANONICAL_OUTPUT, qualified, type TableInfo } from "./catalog.ts";

export interface TableChecksum {
  table: string;
  rows: number;
  /** md5 (hex) of the row count and the two hash sums; equal contents give equal values. */
  checksum: string;
}

/**
 * Each row is printed as text (every column, generated ones included, in name order, under
 * CANONICAL_OUTPUT) and hashed with md5; the table's checksum combines the row count with
 * two sums of 60-bit slices of those hashes. A sum does not depend on row order, so no
 * table is sorted and no collation is involved (PGlite's database collation is C, a
 * server's usually a locale, which orders text keys differently), and memory stays flat
 * however large the table: the same reasoning as the dataset fingerprint
 * (services/dataset/snapshot.ts). Any changed, missing or extra row changes the value.
 * With `generated: false` the columns each engine computes itself are left out: what
 * was stored, not what the engine derives from it.
 */
export async function tableChecksums(
  db: Db,
  tables: TableInfo[],
  options: { generated: boolean } = { generated: true },
): Promise<TableChecksum[]> {
  return withTransaction(db, async (t) => {
    await t.execute(CANONICAL_OUTPUT);
    const out: TableChecksum[] = [];
    for (const table of tables) {
      const columns = table.columns
        .filter((c) => options.generated || !c.generated)
        .map((c) => c.name)
        .sort()
        .map((c) => sql.identifier(c));
      const [row] = await rowsOf<{ rows: string; a: string; b: string }>(
        t,
        sql`select count(*)::text as "rows",
                   coalesce(sum(('x' || substr(h, 1, 15))::bit(60)::int8), 0)::text as "a",
                   coalesce(sum(('x' || substr(h, 16, 15))::bit(60)::int8), 0)::text as "b"
            from (select md5(row(${sql.join(columns, sql`, `)})::text) as h
                  from ${qualified(table.name)}) as hashed`,
      );
      const rows = Number(row?.rows ?? 0);
      out.push({
        table: table.name,
        rows,
        checksum: createHash("md5").update(`${rows}:${row?.a}:${row?.b}`).digest("hex"),
      });
    }
    return out;
  });
}

/**
 * Rows whose generated columns differ between two databases holding the same rows, keyed
 * by primary key: e.g. a tsvector computed by two PostgreSQL versions whose stemmers
 * differ. Empty when the table has no generated column.
 */
export async function generatedDifferences(
  a: Db,
  b: Db,
  table: TableInfo,
): Promise<{ rows: number; differing: number }> {
  const generated = table.columns.filter((c) => c.generated).map((c) => sql.identifier(c.name));
  if (generated.length === 0) return { rows: 0, differing: 0 };
  const key = sql.join(
    table.primaryKey.map((k) => sql`${sql.identifier(k)}::text`),
    sql` || ',' || `,
  );
  const read = (db: Db) =>
    withTransaction(db, async (t) => {
      await t.execute(CANONICAL_OUTPUT);
      return rowsOf<{ k: string; h: string }>(
        t,
        sql`select ${key} as k, md5(row(${sql.join(generated, sql`, `)})::text) as h
            from ${qualified(table.name)}`,
      );
    });
  const [left, right] = await Promise.all([read(a), read(b)]);
  const other = new Map(right.map((r) => [r.k, r.h]));
  let differing = 0;
  for (const r of left) if (other.get(r.k) !== r.h) differing++;
  return { rows: left.length, differing };
}
