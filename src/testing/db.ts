/** @module Test support: a real database per test file (PGlite, or PostgreSQL when asked). */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { pino } from "pino";
import { type Database, openDatabase } from "../db/client.ts";
import type { Caller, Clock, ServiceContext } from "../services/context.ts";

/**
 * A fresh, migrated database. With TEST_DATABASE_URL set, a new PostgreSQL database is
 * created on that server for this file and dropped at close; otherwise an in-memory PGlite.
 * Never shared between files, so tests can't see each other's data.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ dataDir: "memory://" });
  const name = `quire_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** A clock tests can move. */
export function fixedClock(start = new Date("2026-11-02T12:00:00.000Z")): Clock & {
  set(d: Date): void;
  advance(ms: number): void;
} {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d) => {
      now = d.getTime();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export function testContext(
  database: Database,
  overrides: Partial<Omit<ServiceContext, "db">> = {},
): ServiceContext {
  return {
    db: database.db,
    clock: overrides.clock ?? fixedClock(),
    logger: overrides.logger ?? pino({ level: "silent" }),
    settings: overrides.settings ?? {
      baseUrl: "http://quire.test",
      chunkMaxChars: 2000,
      keyPrefix: "quire",
    },
    caller: overrides.caller ?? { kind: "anonymous" },
  };
}

export const operator: Caller = { kind: "operator" };

export function as(ctx: ServiceContext, caller: Caller): ServiceContext {
  return { ...ctx, caller };
}
