/** @module The write check (pure) and the batched record of keys' last use (real database). */
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../db/client.ts";
import { agentKeys } from "../../db/schema/index.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { makeAgent, makeOwner } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { assertAgentCanWrite, authenticateAgentKey } from "./authenticate.ts";
import { createKeyUsage } from "./key-usage.ts";

describe("assertAgentCanWrite", () => {
  const agent = (status: "verified" | "unverified" | "suspended") =>
    ({ kind: "agent", agentId: "agt_x", keyId: "key_x", ownerId: "own_x", status }) as const;
  it("lets verified agents through and refuses everyone else", () => {
    expect(assertAgentCanWrite(agent("verified")).agentId).toBe("agt_x");
    expect(() => assertAgentCanWrite(agent("unverified"))).toThrow(/not verified/);
    expect(() => assertAgentCanWrite(agent("suspended"))).toThrow(/suspended/);
    expect(() => assertAgentCanWrite({ kind: "anonymous" })).toThrow(Unauthorized);
    expect(() =>
      assertAgentCanWrite({ kind: "owner", ownerId: "o", handle: "h", role: "moderator" }),
    ).toThrow(Unauthorized);
  });
});

describe("last use, batched", () => {
  let database: Database;
  let ctx: ServiceContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = testContext(database);
  });
  afterAll(async () => database.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const lastUsed = async (keyId: string) => {
    const [row] = await database.db.select().from(agentKeys).where(eq(agentKeys.id, keyId));
    return row?.lastUsedAt?.toISOString() ?? null;
  };

  async function freshKey() {
    const owner = await makeOwner(ctx);
    const agent = await makeAgent(ctx, owner.handle);
    const auth = await authenticateAgentKey(ctx, { key: agent.key });
    return auth.key.id;
  }

  it("writes nothing per use, then every key's latest use in one flush", async () => {
    const usage = createKeyUsage({ db: database.db, logger: pino({ level: "silent" }) });
    const [a, b] = [await freshKey(), await freshKey()];
    usage.record(a, new Date("2026-11-01T10:00:00Z"));
    usage.record(a, new Date("2026-11-01T10:05:00Z"));
    usage.record(a, new Date("2026-11-01T10:01:00Z"));
    usage.record(b, new Date("2026-11-01T09:00:00Z"));
    expect(await lastUsed(a)).toBeNull();
    expect(usage.pending(a)?.toISOString()).toBe("2026-11-01T10:05:00.000Z");
    await usage.flush();
    expect(await lastUsed(a)).toBe("2026-11-01T10:05:00.000Z");
    expect(await lastUsed(b)).toBe("2026-11-01T09:00:00.000Z");
    expect(usage.pending(a)).toBeUndefined();
    await usage.close();
  });

  it("never moves a key's last use backwards (instances flush in any order)", async () => {
    const usage = createKeyUsage({ db: database.db, logger: pino({ level: "silent" }) });
    const key = await freshKey();
    usage.record(key, new Date("2026-11-01T12:00:00Z"));
    await usage.flush();
    usage.record(key, new Date("2026-11-01T11:00:00Z"));
    await usage.flush();
    expect(await lastUsed(key)).toBe("2026-11-01T12:00:00.000Z");
    await usage.close();
  });

  it("flushes on its own once the interval has passed, not before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const usage = createKeyUsage({
      db: database.db,
      logger: pino({ level: "silent" }),
      flushSeconds: 30,
    });
    const key = await freshKey();
    usage.record(key, new Date("2026-11-02T08:00:00Z"));
    vi.advanceTimersByTime(29_999);
    expect(usage.pending(key)?.toISOString()).toBe("2026-11-02T08:00:00.000Z");
    usage.record(key, new Date("2026-11-02T08:00:20Z"));
    vi.advanceTimersByTime(1);
    expect(usage.pending(key)).toBeUndefined();
    await usage.flush();
    expect(await lastUsed(key)).toBe("2026-11-02T08:00:20.000Z");
    await usage.close();
  });

  it("keeps uses whose write failed for the next flush, and says so in the log", async () => {
    const scratch = await createTestDatabase();
    const lines: string[] = [];
    const logger = pino({ level: "warn" }, { write: (l: string) => lines.push(l) });
    const usage = createKeyUsage({ db: scratch.db, logger });
    usage.record("key_whatever", new Date("2026-11-03T00:00:00Z"));
    await scratch.close();
    await usage.flush();
    expect(usage.pending("key_whatever")?.toISOString()).toBe("2026-11-03T00:00:00.000Z");
    expect(lines.join("")).toContain("could not record agent key use");
  });
});
