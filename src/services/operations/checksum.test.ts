/**
 * @module Table checksums on the engine under test: independent of row order and of the
 * session's time zone, changed by any changed, missing or extra row; generated columns
 * can be left out.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../../db/client.ts";
import { createTestDatabase } from "../../testing/db.ts";
import { readCatalog, type TableInfo } from "./catalog.ts";
import { tableChecksums } from "./checksum.ts";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  for (const name of ["sums_a", "sums_b"]) {
    await database.db.execute(
      sql.raw(`create table ${name} (id integer primary key, at timestamptz, note text,
        shout text generated always as (upper(note)) stored)`),
    );
  }
  await database.db.execute(sql`insert into sums_a (id, at, note) values
    (1, '2026-01-02T03:04:05.123456Z', 'one'), (2, null, 'two'), (3, '2026-05-06T00:00:00Z', null)`);
  // The same rows, inserted in another order.
  await database.db.execute(sql`insert into sums_b (id, at, note) values
    (3, '2026-05-06T00:00:00Z', null), (1, '2026-01-02T03:04:05.123456Z', 'one'), (2, null, 'two')`);
});
afterAll(async () => {
  await database?.close();
});

async function sums(options?: { generated: boolean }, db: Db = database.db) {
  const catalog = await readCatalog(db);
  const tables = ["sums_a", "sums_b"].map((n) => catalog.tables.get(n) as TableInfo);
  const [a, b] = await tableChecksums(db, tables, options);
  return { a: a as { rows: number; checksum: string }, b: b as { rows: number; checksum: string } };
}

describe("tableChecksums", () => {
  it("is the same for the same rows in any order, whatever the session's time zone", async () => {
    const { a, b } = await sums();
    expect(a.rows).toBe(3);
    expect(a.checksum).toBe(b.checksum);
    const inLima = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'America/Lima'`);
      return sums(undefined, tx);
    });
    expect(inLima.a.checksum).toBe(a.checksum);
  });

  it("changes with any changed, missing or extra row", async () => {
    const { a } = await sums();
    await database.db.execute(
      sql`update sums_b set at = at + interval '1 microsecond' where id = 1`,
    );
    expect((await sums()).b.checksum).not.toBe(a.checksum);
    await database.db.execute(
      sql`update sums_b set at = at - interval '1 microsecond' where id = 1`,
    );
    expect((await sums()).b.checksum).toBe(a.checksum);
    await database.db.execute(sql`delete from sums_b where id = 2`);
    expect((await sums()).b).toMatchObject({ rows: 2 });
    await database.db.execute(
      sql`insert into sums_b (id, at, note) values (2, null, 'two'), (4, null, null)`,
    );
    expect((await sums()).b.checksum).not.toBe(a.checksum);
    await database.db.execute(sql`delete from sums_b where id = 4`);
    expect((await sums()).b.checksum).toBe(a.checksum);
  });

  it("leaves generated columns out when asked", async () => {
    const all = await sums();
    const stored = await sums({ generated: false });
    expect(stored.a.checksum).not.toBe(all.a.checksum);
    expect(stored.a.checksum).toBe(stored.b.checksum);
  });
});
