/** @module Owner-side agent verbs: only the owner acts, keys shown once, one live key. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation, withTransaction } from "../../db/sql.ts";
import { keyRows } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeOwner } from "../../testing/factories.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../errors.ts";
import { authenticateAgentKey } from "./authenticate.ts";
import { createAgent } from "./create.ts";
import { insertKey } from "./insert-key.ts";
import { createKeyUsage } from "./key-usage.ts";
import { listOwnerAgents } from "./list.ts";
import { revokeAgentKey } from "./revoke-key.ts";
import { rotateAgentKey } from "./rotate-key.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock(new Date("2026-11-07T12:00:00.000Z"));

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  ctx.keyUsage = createKeyUsage({ db: database.db, logger: ctx.logger });
});
afterAll(async () => {
  await ctx.keyUsage?.close();
  await database.close();
});

async function owner(verified = true): Promise<ServiceContext> {
  const o = await makeOwner(ctx, { verified });
  return { ...ctx, caller: { kind: "owner", ownerId: o.id, handle: o.handle, role: "owner" } };
}

const as = (caller: Caller): ServiceContext => ({ ...ctx, caller });
const authenticates = async (key: string) =>
  authenticateAgentKey(ctx, { key }).then(
    () => true,
    () => false,
  );

describe("createAgent", () => {
  it("creates for the signed-in owner, verified as the owner is, and shows the key once", async () => {
    const mine = await owner();
    const created = await createAgent(mine, { name: " scout ", model: "m-2" });
    expect(created).toMatchObject({ name: "scout", model: "m-2", status: "verified" });
    expect(created.key).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
    expect(await authenticates(created.key)).toBe(true);
    const pending = await createAgent(await owner(false), { name: "x", model: "y" });
    expect(pending.status).toBe("unverified");
  });

  it("refuses anyone but an owner (an operator must name one), and invalid names", async () => {
    for (const caller of [
      { kind: "anonymous" },
      operator,
      { kind: "agent", agentId: "agt_x", keyId: "key_x", ownerId: "own_x", status: "verified" },
    ] as Caller[]) {
      await expect(createAgent(as(caller), { name: "n", model: "m" })).rejects.toBeInstanceOf(
        Forbidden,
      );
    }
    await expect(createAgent(await owner(), { name: " ", model: "" })).rejects.toBeInstanceOf(
      Invalid,
    );
  });
});

describe("listOwnerAgents", () => {
  it("lists only the caller's agents, newest first, with hint and last use but never a key", async () => {
    const mine = await owner();
    const theirs = await owner();
    const a = await createAgent(mine, { name: "first", model: "m" });
    clock.advance(1000);
    const b = await createAgent(mine, { name: "second", model: "m" });
    await createAgent(theirs, { name: "other", model: "m" });
    clock.advance(1000);
    await authenticateAgentKey(ctx, { key: a.key });

    const { agents } = await listOwnerAgents(mine);
    expect(agents.map((x) => x.name)).toEqual(["second", "first"]);
    expect(agents[1]).toEqual({
      id: a.id,
      name: "first",
      model: "m",
      status: "verified",
      created_at: new Date(clock.now().getTime() - 2000).toISOString(),
      key: {
        hint: a.key_hint,
        created_at: new Date(clock.now().getTime() - 2000).toISOString(),
        last_used_at: clock.now().toISOString(),
      },
    });
    expect(agents[0]?.key?.last_used_at).toBeNull();
    const text = JSON.stringify(agents);
    for (const key of [a.key, b.key]) expect(text).not.toContain(key.slice(13));
  });

  it("is for owners only", async () => {
    await expect(listOwnerAgents(as(operator))).rejects.toBeInstanceOf(Forbidden);
    await expect(listOwnerAgents(as({ kind: "anonymous" }))).rejects.toBeInstanceOf(Forbidden);
  });
});

describe("revoke, rotate", () => {
  it("refuses other owners, moderators, agents and anonymous callers; unknown agents are 404", async () => {
    const mine = await owner();
    const agent = await createAgent(mine, { name: "guarded", model: "m" });
    const other = await owner();
    const moderator = as({
      kind: "owner",
      ownerId: "own_moderator",
      handle: "mod",
      role: "moderator",
    });
    const strangers = [
      other,
      moderator,
      as({ kind: "anonymous" }),
      as({
        kind: "agent",
        agentId: agent.id,
        keyId: "key_x",
        ownerId: (mine.caller as { ownerId: string }).ownerId,
        status: "verified",
      }),
    ];
    for (const stranger of strangers) {
      for (const verb of [revokeAgentKey, rotateAgentKey]) {
        await expect(verb(stranger, { agentId: agent.id })).rejects.toBeInstanceOf(
          stranger.caller.kind === "owner" ? NotFound : Forbidden,
        );
      }
    }
    expect(await authenticates(agent.key)).toBe(true);
    for (const verb of [revokeAgentKey, rotateAgentKey]) {
      await expect(verb(mine, { agentId: "agt_missing" })).rejects.toBeInstanceOf(NotFound);
    }
  });

  it("keeps one live key: a second is refused by the unique index; revoke is idempotent; rotate swaps", async () => {
    const mine = await owner();
    const agent = await createAgent(mine, { name: "keys", model: "m" });
    const second = await withTransaction(ctx.db, (db) => insertKey(ctx, db, agent.id)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(second)).toBe(true);

    const revoked = await revokeAgentKey(mine, { agentId: agent.id });
    expect(revoked).toEqual({ agent_id: agent.id, revoked_hint: agent.key_hint });
    expect(await revokeAgentKey(mine, { agentId: agent.id })).toEqual({
      agent_id: agent.id,
      revoked_hint: null,
    });
    expect(await authenticates(agent.key)).toBe(false);

    const rotatedFromNone = await rotateAgentKey(mine, { agentId: agent.id });
    expect(rotatedFromNone.revoked_hint).toBeNull();
    const rotated = await rotateAgentKey(mine, { agentId: agent.id });
    expect(rotated.revoked_hint).toBe(rotatedFromNone.key_hint);
    expect(await authenticates(rotatedFromNone.key)).toBe(false);
    expect(await authenticates(rotated.key)).toBe(true);

    const rows = await keyRows(ctx, agent.id);
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.revokedAt === null)).toHaveLength(1);
  });

  it("lets an operator manage any agent's keys (the command line)", async () => {
    const mine = await owner();
    const agent = await createAgent(mine, { name: "ops", model: "m" });
    const rotated = await rotateAgentKey(as(operator), { agentId: agent.id });
    expect(await authenticates(rotated.key)).toBe(true);
  });

  it("never leaves two live keys when rotations race", async () => {
    const mine = await owner();
    const agent = await createAgent(mine, { name: "race", model: "m" });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => rotateAgentKey(mine, { agentId: agent.id })),
    );
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    const live = (await keyRows(ctx, agent.id)).filter((r) => r.revokedAt === null);
    expect(live).toHaveLength(1);
    const keys = results.map((r) => (r as PromiseFulfilledResult<{ key: string }>).value.key);
    const working = await Promise.all(keys.map(authenticates));
    expect(working.filter(Boolean)).toHaveLength(1);
  });
});
