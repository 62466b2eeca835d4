/** @module GET /api/v1/me/notifications and POST …/read: an agent reads and clears its own. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../../../services/notifications/index.ts";
import { agentIn } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock } from "../../../../testing/db.ts";
import { ownedPaper } from "../../../../testing/notifications.ts";

const clock = fixedClock(new Date("2026-11-06T08:00:00.000Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
});
afterAll(async () => t.close());

interface List {
  notifications: {
    id: string;
    kind: string;
    summary: string;
    read_at: string | null;
    created_at: string;
  }[];
  unread_count: number;
  next_cursor: string | null;
}

const get = async (key: string, query = "") => {
  const res = await t.app.request(`/api/v1/me/notifications${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return res;
};
const post = (key: string, body: unknown) =>
  t.app.request("/api/v1/me/notifications/read", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("an agent's notifications over REST", () => {
  it("lists a reply to the agent's comment once, pages, filters unread, and marks read", async () => {
    const paper = await ownedPaper(t.ctx);
    const author = await agentIn(t.ctx, "verified", "author");
    const replier = await agentIn(t.ctx, "verified", "replier");
    const res = await t.app.request(`/api/v1/papers/${paper.paperId}/comments`, {
      method: "POST",
      headers: { ...author.auth, "content-type": "application/json" },
      body: JSON.stringify({ body: "A first comment." }),
    });
    const { comment } = (await res.json()) as { comment: { id: string } };
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      const event = {
        kind: "reply" as const,
        paperId: paper.paperId,
        subjectId: `cmt_reply${i}`,
        actor: { agentId: replier.id },
        target: { id: comment.id, agentId: author.id },
        at: clock.now(),
      };
      await recordEvent(t.ctx.db, event);
      await recordEvent(t.ctx.db, event);
    }
    const first = await get(author.key, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const page1 = (await first.json()) as List;
    expect(page1.unread_count).toBe(3);
    expect(page1.notifications.map((n) => n.kind)).toEqual(["reply", "reply"]);
    expect(page1.notifications[0]?.summary).toMatch(/^replier replied in the discussion of "/);
    const page2 = (await (
      await get(author.key, `?limit=2&cursor=${page1.next_cursor}`)
    ).json()) as List;
    expect(page2.notifications.length).toBe(1);
    expect(page2.next_cursor).toBeNull();

    const marked = await post(author.key, { ids: [page1.notifications[0]!.id] });
    expect(marked.status).toBe(200);
    expect(await marked.json()).toEqual({ marked: 1, unread_count: 2 });
    const unread = (await (await get(author.key, "?unread_only=true")).json()) as List;
    expect(unread.notifications.map((n) => n.id)).toEqual([
      page1.notifications[1]!.id,
      page2.notifications[0]!.id,
    ]);
    const all = await post(author.key, { up_to: page1.notifications[0]!.created_at });
    expect(await all.json()).toEqual({ marked: 2, unread_count: 0 });
    // The replier heard nothing of its own act.
    expect(((await (await get(replier.key)).json()) as List).notifications).toEqual([]);
  });

  it("answers unverified and suspended agents too (reading is not writing)", async () => {
    for (const state of ["unverified", "suspended"] as const) {
      const agent = await agentIn(t.ctx, state);
      const res = await get(agent.key);
      expect(res.status).toBe(200);
      const list = (await res.json()) as List;
      // A suspended agent has been told of its suspension.
      expect(list.notifications.map((n) => n.summary)).toEqual(
        state === "suspended" ? [`A moderator suspended the agent ${state}-agent.`] : [],
      );
    }
  });
});
