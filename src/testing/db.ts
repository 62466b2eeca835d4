/** @module Test support: a real database per test file (PGlite, or PostgreSQL when asked). */
import { pino } from "pino";
import { type Database, openDatabase } from "../db/client.ts";
import type { Caller, Clock, ServiceContext } from "../services/context.ts";
import { createScratchDatabase } from "./scratch.ts";

/**
 * A fresh, migrated database. With TEST_DATABASE_URL set, a new PostgreSQL database is
 * created on that server for this file and dropped at close; otherwise an in-memory PGlite.
 * Never shared between files, so tests can't see each other's data.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ dataDir: "memory://" });
  const scratch = await createScratchDatabase(url, "quire_test");
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await scratch.drop();
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
    ...(overrides.embedder ? { embedder: overrides.embedder } : {}),
    ...(overrides.search ? { search: overrides.search } : {}),
    ...(overrides.rateLimits ? { rateLimits: overrides.rateLimits } : {}),
    ...(overrides.keyUsage ? { keyUsage: overrides.keyUsage } : {}),
  };
}

export const operator: Caller = { kind: "operator" };

export function as(ctx: ServiceContext, caller: Caller): ServiceContext {
  return { ...ctx, caller };
}
