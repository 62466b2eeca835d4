import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { agentKeys } from "../../db/schema/index.ts";
import { as, createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { makeOwner } from "../../testing/factories.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { createAgent } from "./create.ts";
import { hashKey } from "./keys.ts";
import { listOwnerAgents, revokeAgentKey, rotateAgentKey } from "./manage.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock();

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
});
afterAll(async () => database.close());

async function ownerCaller(verified = true): Promise<Caller> {
  const owner = await makeOwner(ctx, { verified });
  return { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" };
}

describe("owner agent management", () => {
  it("lists only the caller's agents, newest first, with their newest key", async () => {
    const me = as(ctx, await ownerCaller(false));
    const other = as(ctx, await ownerCaller());
    const first = await createAgent(me, { name: "first", model: "m1" });
    clock.advance(1000);
    const second = await createAgent(me, { name: "second", model: "m2" });
    await createAgent(other, { name: "not mine", model: "m" });
    const list = await listOwnerAgents(me);
    expect(list.map((a) => a.name)).toEqual(["second", "first"]);
    expect(list[1]).toMatchObject({
      id: first.id,
      model: "m1",
      status: "unverified",
      key: { hint: first.key_hint, last_used_at: null, revoked_at: null },
    });
    expect(list[0]?.id).toBe(second.id);
    expect(JSON.stringify(list)).not.toContain(first.key);
  });

  it("rotates: a new key, the old one revoked in the same step, the new one never stored", async () => {
    const me = as(ctx, await ownerCaller());
    const agent = await createAgent(me, { name: "bot", model: "m" });
    clock.advance(1000);
    const rotated = await rotateAgentKey(me, { agentId: agent.id });
    expect(rotated.key).toMatch(/^quire_sk_/);
    expect(rotated.key).not.toBe(agent.key);
    expect(rotated.name).toBe("bot");
    const keys = await database.db.select().from(agentKeys).where(eq(agentKeys.agentId, agent.id));
    const old = keys.find((k) => k.keyHash === hashKey(agent.key));
    const fresh = keys.find((k) => k.keyHash === hashKey(rotated.key));
    expect(old?.revokedAt).not.toBeNull();
    expect(fresh?.revokedAt).toBeNull();
    expect(JSON.stringify(keys)).not.toContain(rotated.key);
    const [listed] = await listOwnerAgents(me);
    expect(listed?.key).toMatchObject({ hint: rotated.key_hint, revoked_at: null });
  });

  it("revokes every live key; the agent stays and can get a new key", async () => {
    const me = as(ctx, await ownerCaller());
    const agent = await createAgent(me, { name: "bot", model: "m" });
    expect(await revokeAgentKey(me, { agentId: agent.id })).toEqual({
      agent_id: agent.id,
      revoked: 1,
    });
    expect(await revokeAgentKey(me, { agentId: agent.id })).toEqual({
      agent_id: agent.id,
      revoked: 0,
    });
    const [listed] = await listOwnerAgents(me);
    expect(listed?.key?.revoked_at).not.toBeNull();
    await rotateAgentKey(me, { agentId: agent.id });
    const [again] = await listOwnerAgents(me);
    expect(again?.key?.revoked_at).toBeNull();
  });

  it("treats another owner's agent as missing, and needs a signed-in owner", async () => {
    const me = as(ctx, await ownerCaller());
    const other = as(ctx, await ownerCaller());
    const theirs = await createAgent(other, { name: "theirs", model: "m" });
    await expect(rotateAgentKey(me, { agentId: theirs.id })).rejects.toBeInstanceOf(NotFound);
    await expect(revokeAgentKey(me, { agentId: theirs.id })).rejects.toBeInstanceOf(NotFound);
    await expect(revokeAgentKey(me, { agentId: "agt_nope" })).rejects.toBeInstanceOf(NotFound);
    const [still] = await listOwnerAgents(other);
    expect(still?.key?.revoked_at).toBeNull();
    await expect(listOwnerAgents(ctx)).rejects.toBeInstanceOf(Forbidden);
    await expect(rotateAgentKey(ctx, { agentId: theirs.id })).rejects.toBeInstanceOf(Forbidden);
  });
});
