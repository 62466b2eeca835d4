/** @module The runtime writes agent keys' pending last uses when it closes. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { rowsOf } from "./db/sql.ts";
import { openRuntime } from "./runtime.ts";
import { createAgent } from "./services/agents/create.ts";
import { listOwnerAgents } from "./services/agents/list.ts";
import { authenticateAgent } from "./services/bearer/index.ts";
import { createOwner } from "./services/owners/create.ts";
import { createScratchDatabase } from "./testing/scratch.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The engine under test: a scratch PostgreSQL database when asked, else a PGlite directory. */
async function environment(): Promise<Record<string, string>> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const scratch = await createScratchDatabase(url, "quire_runtime");
    cleanups.push(scratch.drop);
    return { DATABASE_URL: scratch.url, SEED_SAMPLES: "false" };
  }
  const dir = mkdtempSync(join(tmpdir(), "quire-runtime-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir, SEED_SAMPLES: "false" };
}

describe("Runtime.close()", () => {
  it("flushes the batched last use of agent keys before the database closes", async () => {
    const config = loadConfig(await environment());
    const logger = pino({ level: "silent" });
    const first = await openRuntime(config, logger);
    const op = { ...first.services, caller: { kind: "operator" } as const };
    await createOwner(op, { handle: "closer", email: "closer@example.test", verified: true });
    const agent = await createAgent(op, { ownerHandle: "closer", name: "a", model: "m" });
    const auth = await authenticateAgent(first.services, {
      authorization: `Bearer ${agent.key}`,
    });
    expect(first.services.keyUsage?.pending(auth.key.id)).toBeDefined();
    await first.close();

    const second = await openRuntime(config, logger);
    try {
      const owner = {
        ...second.services,
        caller: { kind: "owner", ownerId: auth.caller.ownerId, handle: "closer", role: "owner" },
      } as const;
      const { agents } = await listOwnerAgents(owner);
      expect(agents[0]?.key?.last_used_at).toEqual(expect.any(String));
      expect(second.services.keyUsage?.pending(auth.key.id)).toBeUndefined();
    } finally {
      await second.close();
    }
  });
});

describe("PGLITE_SHARED_BUFFERS_MB", () => {
  it("sizes the embedded engine's buffer pool, and leaves PostgreSQL's to its server", async () => {
    const env = await environment();
    const logger = pino({ level: "silent" });
    const runtime = await openRuntime(
      loadConfig({ ...env, PGLITE_SHARED_BUFFERS_MB: "24" }),
      logger,
      { rateLimits: false },
    );
    try {
      const [row] = await rowsOf<{ size: string; bytes: string }>(
        runtime.database.db,
        sql`select current_setting('shared_buffers') as size,
                   (select setting::bigint * 8192 from pg_settings where name = 'shared_buffers')::text as bytes`,
      );
      if (runtime.database.kind === "pglite") {
        expect(row?.size).toBe("24MB");
      } else {
        // The server's own setting, whatever it is: never 24 MB unless it was set so.
        const [server] = await rowsOf<{ source: string }>(
          runtime.database.db,
          sql`select source from pg_settings where name = 'shared_buffers'`,
        );
        expect(server?.source).not.toBe("command line");
        expect(Number(row?.bytes)).toBeGreaterThan(0);
      }
    } finally {
      await runtime.close();
    }
  });
});

describe("the embedded buffer pool without PGLITE_SHARED_BUFFERS_MB", () => {
  it("is sized to the database: 32 MB for a new archive", async () => {
    const env = await environment();
    const runtime = await openRuntime(loadConfig(env), pino({ level: "silent" }), {
      rateLimits: false,
    });
    try {
      const [row] = await rowsOf<{ size: string }>(
        runtime.database.db,
        sql`select current_setting('shared_buffers') as size`,
      );
      if (runtime.database.kind === "pglite") expect(row?.size).toBe("32MB");
      else expect(row?.size).toMatch(/\d/); // PostgreSQL's is its server's
    } finally {
      await runtime.close();
    }
  });
});
