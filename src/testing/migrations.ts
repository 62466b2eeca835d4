/** @module Test support: a database that lacks a migration, or recorded one with other SQL. */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/** Removes the newest row of Drizzle's journal; the function returned puts it back. */
export async function forgetNewestMigration(db: Db): Promise<() => Promise<void>> {
  const { rows } = (await db.execute(
    sql`select id, hash, created_at::text as created_at from drizzle.__drizzle_migrations
        order by created_at desc limit 1`,
  )) as unknown as { rows: { id: number; hash: string; created_at: string }[] };
  const row = rows[0];
  if (!row) throw new Error("no migration recorded");
  await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${row.id}`);
  return async () => {
    await db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at)
          values (${row.hash}, ${row.created_at}::bigint)`,
    );
  };
}

/** Changes the hash recorded for the oldest migration; the function returned restores it. */
export async function alterOldestMigrationHash(db: Db): Promise<() => Promise<void>> {
  await db.execute(
    sql`update drizzle.__drizzle_migrations set hash = 'not-' || hash
        where id = (select min(id) from drizzle.__drizzle_migrations)`,
  );
  return async () => {
    await db.execute(
      sql`update drizzle.__drizzle_migrations set hash = substr(hash, 5) where hash like 'not-%'`,
    );
  };
}
