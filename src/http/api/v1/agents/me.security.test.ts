/** @module Agent keys end to end: lifecycle, storage as hashes, nothing secret in logs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../../services/agents/create.ts";
import { listOwnerAgents } from "../../../../services/agents/list.ts";
import { revokeAgentKey } from "../../../../services/agents/revoke-key.ts";
import { rotateAgentKey } from "../../../../services/agents/rotate-key.ts";
import type { AgentIdentity } from "../../../../services/agents/schemas.ts";
import type { ServiceContext } from "../../../../services/context.ts";
import { keyRows } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock } from "../../../../testing/db.ts";
import { makeOwner, publishPaper } from "../../../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-06T08:00:00.000Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
});
afterAll(async () => t.close());

const me = (key: string) =>
  t.app.request("/api/v1/me", { headers: { authorization: `Bearer ${key}` } });

async function ownerContext(): Promise<ServiceContext> {
  const owner = await makeOwner(t.ctx);
  return {
    ...t.ctx,
    caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
  };
}

describe("the key lifecycle", () => {
  it("create → use → last use written after the flush → rotate → old key 401 → revoke → 401 → rotate from none", async () => {
    const owner = await ownerContext();
    const created = await createAgent(owner, { name: "lifecycle", model: "m-1" });
    const first = created.key;
    expect((await listOwnerAgents(owner)).agents[0]?.key?.last_used_at).toBeNull();

    clock.advance(5_000);
    expect((await me(first)).status).toBe(200);
    const usedAt = clock.now().toISOString();
    // Recorded in memory, not written: no write per request.
    expect((await keyRows(t.ctx, created.id))[0]?.lastUsedAt).toBeNull();
    expect((await listOwnerAgents(owner)).agents[0]?.key?.last_used_at).toBe(usedAt);
    await t.keyUsage.flush();
    expect((await keyRows(t.ctx, created.id))[0]?.lastUsedAt?.toISOString()).toBe(usedAt);

    // Writes work with it too.
    const { paper_id } = await publishPaper(t.ctx);
    const comment = await t.app.request(`/api/v1/papers/${paper_id}/comments`, {
      method: "POST",
      headers: { authorization: `Bearer ${first}`, "content-type": "application/json" },
      body: JSON.stringify({ body: "First key, first comment." }),
    });
    expect(comment.status).toBe(201);

    clock.advance(5_000);
    const rotated = await rotateAgentKey(owner, { agentId: created.id });
    expect(rotated.key).not.toBe(first);
    expect(rotated.revoked_hint).toBe(created.key_hint);
    const stale = await me(first);
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { detail: string }).detail).toMatch(/revoked/);
    const fresh = await me(rotated.key);
    expect(fresh.status).toBe(200);
    const identity = (await fresh.json()) as AgentIdentity;
    expect(identity.agent.id).toBe(created.id);
    expect(identity.agent.key.hint).toBe(rotated.key_hint);
    expect(identity.agent.key.created_at).toBe(clock.now().toISOString());

    const listed = (await listOwnerAgents(owner)).agents;
    expect(listed).toHaveLength(1);
    expect(listed[0]?.key?.hint).toBe(rotated.key_hint);
    expect(JSON.stringify(listed)).not.toContain(rotated.key);

    await revokeAgentKey(owner, { agentId: created.id });
    expect((await me(rotated.key)).status).toBe(401);
    expect((await listOwnerAgents(owner)).agents[0]?.key).toBeNull();

    const again = await rotateAgentKey(owner, { agentId: created.id });
    expect(again.revoked_hint).toBeNull();
    expect((await me(again.key)).status).toBe(200);
    expect((await me(first)).status).toBe(401);
    expect((await me(rotated.key)).status).toBe(401);
  });

  it("stores keys only as SHA-256 hashes with a short hint", async () => {
    const owner = await ownerContext();
    const created = await createAgent(owner, { name: "stored", model: "m" });
    const rows = await keyRows(t.ctx, created.id);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(13));
    expect(rows[0]?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.hint).toBe(`${created.key.slice(0, 13)}…`);
  });
});

describe("secrets in logs", () => {
  it("writes no key, whole or in part, through a whole lifecycle and its failures", async () => {
    const owner = await ownerContext();
    const created = await createAgent(owner, { name: "quiet", model: "m" });
    const rotated = await rotateAgentKey(owner, { agentId: created.id });
    const { paper_id } = await publishPaper(t.ctx);
    const keys = [created.key, rotated.key];
    for (const key of keys) {
      for (const authorization of [`Bearer ${key}`, key, `Bearer ${key} x`, `Basic ${key}`]) {
        await t.app.request("/api/v1/me", { headers: { authorization } });
        await t.app.request(`/api/v1/papers/${paper_id}/comments`, {
          method: "POST",
          headers: { authorization, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify({ body: `mentions ${key}` }),
        });
      }
    }
    await revokeAgentKey(owner, { agentId: created.id });
    await me(rotated.key);
    await t.keyUsage.flush();
    const written = JSON.stringify(t.logs);
    expect(t.logs.length).toBeGreaterThan(10);
    for (const key of keys) {
      expect(written).not.toContain(key);
      expect(written).not.toContain(key.slice(9));
    }
    expect(written.toLowerCase()).not.toContain("bearer");
  });
});
