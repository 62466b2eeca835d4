/**
 * @module Instances that start together on one PostgreSQL database take turns at startup
 * work (the startup lock), so they never race to migrate. These tests always use
 * PostgreSQL (TEST_DATABASE_URL's server, else the local default), because the race only
 * exists there; PGlite's exclusive() is a pass-through, tested below too.
 */

import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchDatabase } from "../testing/scratch.ts";
import {
  bufferPoolFor,
  type Database,
  openDatabase,
  ReplicaNeedsPostgres,
  STARTUP_LOCK_KEY,
} from "./client.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function scratchUrl(): Promise<string> {
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_client");
  cleanups.push(scratch.drop);
  return scratch.url;
}

async function open(url: string, migrate = true): Promise<Database> {
  const database = await openDatabase({ databaseUrl: url, poolSize: 2, migrate });
  cleanups.push(() => database.close());
  return database;
}

describe("openDatabase on PostgreSQL", () => {
  it("three processes' worth of openDatabase at once on an empty database all succeed, migrating once", async () => {
    const url = await scratchUrl();
    const opened = await Promise.all([open(url), open(url), open(url)]);
    expect(opened.map((d) => d.kind)).toEqual(["postgres", "postgres", "postgres"]);
    const applied = await opened[0]!.db.execute(
      sql`select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations`,
    );
    const row = (applied as unknown as { rows: { n: number; distinct_n: number }[] }).rows[0]!;
    expect(row.n).toBeGreaterThan(0);
    expect(row.n).toBe(row.distinct_n);
  });
});

describe("Database.exclusive", () => {
  it("on PostgreSQL, a second holder waits until the first is done, even with a pool of one", async () => {
    const url = await scratchUrl();
    const first = await openDatabase({ databaseUrl: url, poolSize: 1, migrate: false });
    const second = await openDatabase({ databaseUrl: url, poolSize: 1, migrate: false });
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const one = first.exclusive(async () => {
      events.push("first in");
      // The work may use the whole pool: the lock has a connection of its own.
      await first.db.execute(sql`select 1`);
      entered();
      await held;
      events.push("first out");
      return 1;
    });
    await inside;
    const two = second.exclusive(async () => {
      events.push("second in");
      return 2;
    });
    // Wait until PostgreSQL shows the second session queued on the lock.
    for (;;) {
      const waiting = await first.db.execute(
        sql`select count(*)::int as n from pg_locks
            where locktype = 'advisory' and objid = ${STARTUP_LOCK_KEY} and not granted
              and database = (select oid from pg_database where datname = current_database())`,
      );
      if ((waiting as unknown as { rows: { n: number }[] }).rows[0]!.n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(events).toEqual(["first in"]);
    release();
    expect(await Promise.all([one, two])).toEqual([1, 2]);
    expect(events).toEqual(["first in", "first out", "second in"]);
  });

  it("on PostgreSQL, releases the lock when the work throws", async () => {
    const url = await scratchUrl();
    const database = await open(url, false);
    await expect(
      database.exclusive(async () => {
        throw new Error("startup work failed");
      }),
    ).rejects.toThrow("startup work failed");
    expect(await database.exclusive(async () => "again")).toBe("again");
  });

  it("on PGlite, just runs the work (one process per data directory already)", async () => {
    const database = await openDatabase({ dataDir: "memory://", migrate: false });
    cleanups.push(() => database.close());
    expect(await database.exclusive(async () => "ran")).toBe("ran");
  });
});

describe("openDatabase with a read replica", () => {
  it("refuses one for the embedded engine, which has no replicas", async () => {
    await expect(
      openDatabase({ dataDir: "memory://", readUrl: "postgres://postgres@127.0.0.1:5432/x" }),
    ).rejects.toThrow(ReplicaNeedsPostgres);
  });

  it("without one, public reads use the primary's Drizzle instance", async () => {
    const database = await openDatabase({ dataDir: "memory://", migrate: false });
    try {
      expect(database.readDb).toBe(database.db);
      expect(database.replica).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});

describe("bufferPoolFor", () => {
  it("gives the smallest power of two that holds base/, between 32 and 128 MB", () => {
    const dir = mkdtempSync(join(tmpdir(), "quire-pool-"));
    try {
      expect(bufferPoolFor(dir)).toBe(32); // no database yet
      const file = (path: string, mb: number) => {
        mkdirSync(join(dir, "base", path, ".."), { recursive: true });
        writeFileSync(join(dir, "base", path), "");
        truncateSync(join(dir, "base", path), mb * 2 ** 20); // sparse: sizes without the bytes
      };
      file("1/100", 20);
      expect(bufferPoolFor(dir)).toBe(32);
      file("5/200", 20);
      expect(bufferPoolFor(dir)).toBe(64);
      file("5/201", 30);
      expect(bufferPoolFor(dir)).toBe(128);
      file("5/202", 500);
      expect(bufferPoolFor(dir)).toBe(128);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
