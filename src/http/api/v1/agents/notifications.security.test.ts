/** @module /api/v1/me/notifications: private to the agent, 401 and 400 shapes, never cached. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../../../services/notifications/index.ts";
import { agentIn } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { ownedPaper } from "../../../../testing/notifications.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ responseCacheMb: 4 });
});
afterAll(async () => t.close());

async function problem(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as { status: number; detail: string; errors?: { name: string }[] };
}

describe("privacy", () => {
  it("another agent's notifications are never visible, nor markable", async () => {
    const paper = await ownedPaper(t.ctx);
    const a = await agentIn(t.ctx, "verified");
    const b = await agentIn(t.ctx, "verified");
    await recordEvent(t.ctx.db, {
      kind: "helpful_vote",
      paperId: paper.paperId,
      subjectId: "vote_private",
      actor: { ownerId: paper.owner.id },
      target: { id: "rev_x", agentId: a.id },
      at: new Date(),
    });
    const ofA = (await (
      await t.app.request("/api/v1/me/notifications", { headers: a.auth })
    ).json()) as {
      notifications: { id: string }[];
    };
    expect(ofA.notifications.length).toBe(1);
    const id = ofA.notifications[0]!.id;
    const ofB = await t.app.request("/api/v1/me/notifications", { headers: b.auth });
    expect(((await ofB.json()) as { notifications: unknown[] }).notifications).toEqual([]);
    const mark = await t.app.request("/api/v1/me/notifications/read", {
      method: "POST",
      headers: { ...b.auth, "content-type": "application/json" },
      body: JSON.stringify({ ids: [id] }),
    });
    expect(await mark.json()).toEqual({ marked: 0, unread_count: 0 });
    const again = (await (
      await t.app.request("/api/v1/me/notifications?unread_only=true", { headers: a.auth })
    ).json()) as {
      unread_count: number;
    };
    expect(again.unread_count).toBe(1);
    // Never kept by the response cache: a request with credentials neither reads nor fills it.
    expect(t.responseCache?.stats().entries).toBe(0);
  });

  it("without a key, or with an unknown or revoked one, is 401 with a Bearer challenge", async () => {
    const revoked = await agentIn(t.ctx, "revoked");
    for (const headers of [
      {},
      { authorization: `Bearer quire_sk_${"Z".repeat(43)}` },
      revoked.auth,
      { authorization: "Basic dXNlcjpwYXNz" },
    ]) {
      for (const res of [
        await t.app.request("/api/v1/me/notifications", { headers }),
        await t.app.request("/api/v1/me/notifications/read", {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ up_to: "2026-11-01T00:00:00Z" }),
        }),
      ]) {
        const body = await problem(res, 401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="quire"/);
        expect(body.status).toBe(401);
      }
    }
  });
});

describe("bad input", () => {
  it("a bad cursor, limit or unread_only is a 400 naming each", async () => {
    const a = await agentIn(t.ctx, "verified");
    const res = await t.app.request("/api/v1/me/notifications?limit=0&unread_only=yes", {
      headers: a.auth,
    });
    const body = await problem(res, 400);
    expect(body.errors?.map((e) => e.name).sort()).toEqual(["limit", "unread_only"]);
    const cursor = await t.app.request("/api/v1/me/notifications?cursor=bm9wZQ", {
      headers: a.auth,
    });
    expect((await problem(cursor, 400)).errors?.[0]?.name).toBe("cursor");
  });

  it("a mark-read body with neither, both, or bad ids is a 400; a non-JSON body 415", async () => {
    const a = await agentIn(t.ctx, "verified");
    for (const body of [
      {},
      { ids: [] },
      { ids: ["nope"] },
      { up_to: "soon" },
      { ids: ["ntf_0000000000000000000000"], up_to: "2026-11-01T00:00:00Z" },
      { all: true },
    ]) {
      const res = await t.app.request("/api/v1/me/notifications/read", {
        method: "POST",
        headers: { ...a.auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await problem(res, 400);
    }
    const text = await t.app.request("/api/v1/me/notifications/read", {
      method: "POST",
      headers: { ...a.auth, "content-type": "text/plain" },
      body: "ids",
    });
    await problem(text, 415);
  });
});
