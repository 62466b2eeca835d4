/** @module Test support: a real database per test file (PGlite, or PostgreSQL when asked). */
import { existsSync, readFileSync } from "node:fs";
import { pino } from "pino";
import { type Database, openDatabase } from "../db/client.ts";
import type { Caller, Clock, ServiceContext } from "../services/context.ts";
import {
  BUCKET_NAMES,
  BUCKETS,
  type Bucket,
  type BucketOverrides,
  createMemoryRateLimits,
  type RateLimits,
} from "../services/ratelimit/limits.ts";
import { OPERATIONS } from "../services/ratelimit/policy.ts";
import { createScratchDatabase } from "./scratch.ts";

/**
 * A fresh, migrated database. With TEST_DATABASE_URL set, a new PostgreSQL database is
 * created on that server for this file and dropped at close; otherwise an in-memory PGlite.
 * Both start from the run's migrated template when there is one (test/global-setup.ts); the
 * migrator still runs, finding nothing to do.
 * Never shared between files, so tests can't see each other's data.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const template = pgliteTemplate();
    return openDatabase({ dataDir: "memory://", ...(template ? { loadDataDir: template } : {}) });
  }
  const scratch = await createScratchDatabase(url, "quire_test", {
    template: process.env.QUIRE_TEST_PG_TEMPLATE,
  });
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

let template: Blob | null | undefined;

/**
 * The migrated data directory test/global-setup.ts dumped for this run, read once per file
 * (absent when a test runs outside vitest's global setup: then each database migrates).
 */
function pgliteTemplate(): Blob | null {
  if (template === undefined) {
    const file = process.env.QUIRE_TEST_PGLITE_TEMPLATE;
    template = file && existsSync(file) ? new Blob([readFileSync(file)]) : null;
  }
  return template;
}

/**
 * A clock tests can move. What is scheduled on it runs when `set` or `advance` moves it to or
 * past the due time (in due order, synchronously, each at most once); what a run schedules
 * anew waits for the next move.
 */
export function fixedClock(start = new Date("2026-11-02T12:00:00.000Z")): Clock & {
  set(d: Date): void;
  advance(ms: number): void;
} {
  let now = start.getTime();
  let timers: { at: number; run: () => void }[] = [];
  const fire = () => {
    const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
    timers = timers.filter((t) => t.at > now);
    for (const timer of due) timer.run();
  };
  return {
    now: () => new Date(now),
    schedule(ms, run) {
      const timer = { at: now + Math.max(0, ms), run };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    set: (d) => {
      now = d.getTime();
      fire();
    },
    advance: (ms) => {
      now += ms;
      fire();
    },
  };
}

const ACCOUNT_THROTTLES = new Set<Bucket>([...OPERATIONS["sign-in-failure"], ...OPERATIONS.mail]);

/**
 * Quotas for tests that are not about rate limits: the contract's windows with 10,000 times
 * the requests, so a file that makes hundreds of requests through one app never meets a 429.
 * The account throttles (sign-in failures, mail) keep their real quotas: tests of accounts
 * rely on them, and no test signs in or mails that often by accident.
 */
export const RELAXED_LIMITS: BucketOverrides = Object.fromEntries(
  BUCKET_NAMES.filter((b) => !ACCOUNT_THROTTLES.has(b)).map((b) => [
    b,
    { points: BUCKETS[b].points * 10_000, windowSeconds: BUCKETS[b].windowSeconds },
  ]),
);

/**
 * A fresh in-process store with relaxed quotas: the default of `testContext` and
 * `createTestApp`. Tests about limits opt in to the contract's exact quotas by passing
 * `rateLimits: createMemoryRateLimits()` (or a Redis store) in the overrides.
 */
function relaxedRateLimits(): RateLimits {
  return createMemoryRateLimits({ overrides: RELAXED_LIMITS });
}

/**
 * The contract's exact per-agent quotas (comments, reviews) with relaxed per-IP ones, for
 * tests about per-agent limits: one test client sends every request from one address, so
 * the exact `writes` bucket (30 a minute per IP) would otherwise refuse first.
 */
export function perAgentRateLimits(): RateLimits {
  const { comments: _comments, reviews: _reviews, ...perIp } = RELAXED_LIMITS;
  return createMemoryRateLimits({ overrides: perIp });
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
      filesMaxBytes: 2048 * 1024 * 1024,
      keyPrefix: "quire",
    },
    caller: overrides.caller ?? { kind: "anonymous" },
    ...(overrides.readDb ? { readDb: overrides.readDb } : {}),
    ...(overrides.embedder ? { embedder: overrides.embedder } : {}),
    ...(overrides.search ? { search: overrides.search } : {}),
    ...(overrides.screener ? { screener: overrides.screener } : {}),
    ...(overrides.translator ? { translator: overrides.translator } : {}),
    ...(overrides.latex ? { latex: overrides.latex } : {}),
    rateLimits: overrides.rateLimits ?? relaxedRateLimits(),
    ...(overrides.mailer ? { mailer: overrides.mailer } : {}),
    ...(overrides.keyUsage ? { keyUsage: overrides.keyUsage } : {}),
    ...(overrides.clientMetadata ? { clientMetadata: overrides.clientMetadata } : {}),
  };
}

export const operator: Caller = { kind: "operator" };

export function as(ctx: ServiceContext, caller: Caller): ServiceContext {
  return { ...ctx, caller };
}
