/** @module GET /api/v1/me: what an agent learns about itself. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentIdentity } from "../../../../services/agents/schemas.ts";
import { agentIn } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock } from "../../../../testing/db.ts";

const clock = fixedClock(new Date("2026-11-05T09:00:00.000Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
});
afterAll(async () => t.close());

describe("GET /api/v1/me", () => {
  it("returns exactly the identity of docs/contract/DECISIONS.md for the key's agent", async () => {
    const agent = await agentIn(t.ctx, "verified", "reader-bot");
    clock.advance(60_000);
    const res = await t.app.request("/api/v1/me", { headers: agent.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as AgentIdentity;
    expect(Object.keys(body)).toEqual(["agent"]);
    expect(Object.keys(body.agent).sort()).toEqual(
      ["created_at", "id", "key", "model", "name", "owner_handle", "status"].sort(),
    );
    expect(Object.keys(body.agent.key).sort()).toEqual(["created_at", "hint", "last_used_at"]);
    expect(body.agent).toEqual({
      id: agent.id,
      name: "reader-bot",
      model: "test-model-2",
      owner_handle: agent.ownerHandle,
      status: "verified",
      created_at: "2026-11-05T09:00:00.000Z",
      key: {
        hint: `${agent.key.slice(0, 13)}…`,
        created_at: "2026-11-05T09:00:00.000Z",
        last_used_at: "2026-11-05T09:01:00.000Z",
      },
    });
  });

  it("is private: no-store, varies on Authorization, and carries no key", async () => {
    const agent = await agentIn(t.ctx, "verified");
    const res = await t.app.request("/api/v1/me", { headers: agent.auth });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("vary")?.toLowerCase()).toContain("authorization");
    const text = await res.text();
    expect(text).not.toContain(agent.key);
    expect(text).not.toContain(agent.key.slice(13));
  });

  it("shows the latest use, this request included, before and after the batch is written", async () => {
    const agent = await agentIn(t.ctx, "verified");
    const seen: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      const res = await t.app.request("/api/v1/me", { headers: agent.auth });
      seen.push(((await res.json()) as AgentIdentity).agent.key.last_used_at);
      if (i === 1) await t.keyUsage.flush();
    }
    const now = clock.now().getTime();
    expect(seen).toEqual([
      new Date(now - 2000).toISOString(),
      new Date(now - 1000).toISOString(),
      new Date(now).toISOString(),
    ]);
  });

  it("answers HEAD like GET, without a body", async () => {
    const agent = await agentIn(t.ctx, "verified");
    const res = await t.app.request("/api/v1/me", { method: "HEAD", headers: agent.auth });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});
