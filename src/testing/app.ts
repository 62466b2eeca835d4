/** @module Test support: the real app over a real test database, called in-process. */
import { Writable } from "node:stream";
import { pino } from "pino";
import { buildApp } from "../app.ts";
import type { Database } from "../db/client.ts";
import { createKeyUsage, type KeyUsage } from "../services/agents/key-usage.ts";
import type { ServiceContext } from "../services/context.ts";
import { createTestDatabase, testContext } from "./db.ts";

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  database: Database;
  ctx: ServiceContext;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  /** Agent keys' batched last uses; tests call `flush()` instead of waiting for the timer. */
  keyUsage: KeyUsage;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { trustProxy?: string[]; services?: Partial<Omit<ServiceContext, "db">> } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: "debug" }, sink);
  const keyUsage =
    options.services?.keyUsage ?? createKeyUsage({ db: database.db, logger, flushSeconds: 3600 });
  const ctx = testContext(database, { logger, keyUsage, ...options.services });
  const app = buildApp({
    services: ctx,
    logger,
    baseUrl: "http://quire.test",
    trustProxy: options.trustProxy ?? [],
  });
  return {
    app,
    database,
    ctx,
    logs,
    keyUsage,
    close: async () => {
      await keyUsage.close();
      await database.close();
    },
  };
}
