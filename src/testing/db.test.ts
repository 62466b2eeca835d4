/** @module createTestDatabase: fresh, migrated, isolated, and copied from the run's template. */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { rowsOf } from "../db/sql.ts";
import { createTestDatabase } from "./db.ts";

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function fresh(): Promise<Database> {
  const database = await createTestDatabase();
  opened.push(database);
  return database;
}

describe("createTestDatabase", () => {
  it("starts from the migrated template test/global-setup.ts made for this run", () => {
    const template = process.env.TEST_DATABASE_URL
      ? process.env.QUIRE_TEST_PG_TEMPLATE
      : process.env.QUIRE_TEST_PGLITE_TEMPLATE;
    expect(template).toBeTruthy();
  });

  it("gives each caller its own migrated database: a row in one is not in the other", async () => {
    const a = await fresh();
    const b = await fresh();
    for (const database of [a, b]) {
      const [tables] = await rowsOf<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from information_schema.tables where table_name = 'papers'`,
      );
      expect(tables?.n).toBe(1);
    }
    await a.db.execute(
      sql`insert into owners (id, handle, email) values ('own_template_test', 'template-test', 't@example.test')`,
    );
    const count = async (database: Database) =>
      (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from owners`))[0]?.n;
    expect(await count(a)).toBe(1);
    expect(await count(b)).toBe(0);
  });
});
