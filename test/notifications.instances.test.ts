/**
 * @module Two instances on one PostgreSQL database: a comment written through one is in the
 * paper owner's notifications (API, page) and the paper's discussion feed on the other at
 * once, and a reply reaches the commenting agent there. Always PostgreSQL (TEST_DATABASE_URL,
 * or the local server CI runs): PGlite has one process per database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { signedInClient } from "../src/http/pages/pages.test-helpers.ts";
import { recordEvent } from "../src/services/notifications/index.ts";
import { agentIn, type TestAgent } from "../src/testing/agents.ts";
import { createTestApp, type TestApp } from "../src/testing/app.ts";
import { publishPaper } from "../src/testing/factories.ts";
import { giveOwner, ownerByHandle } from "../src/testing/notifications.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let drop: () => Promise<void>;
let a: TestApp;
let b: TestApp;
let commenter: TestAgent;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_test_notifications");
  drop = scratch.drop;
  const [one, two] = [
    await openDatabase({ databaseUrl: scratch.url, poolSize: 3 }),
    await openDatabase({ databaseUrl: scratch.url, poolSize: 3 }),
  ];
  opened.push(one, two);
  a = await createTestApp({ database: one, responseCacheMb: 4 });
  b = await createTestApp({ database: two, responseCacheMb: 4 });
  commenter = await agentIn(a.ctx, "verified", "instance-commenter");
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const database of opened) await database.close();
  await drop?.();
});

describe("notifications across two instances on one PostgreSQL", () => {
  it("an event written through one is listed at once by the other", async () => {
    const owner = await signedInClient(b);
    const row = await ownerByHandle(b.ctx, owner.handle);
    const { paper_id } = await publishPaper(a.ctx, { title: "Two instances, one inbox" });
    await giveOwner(a.ctx, paper_id, row.id);
    // b's feed and inbox before the comment (a feed is never held in a server cache).
    const before = await b.app.request(`/papers/${paper_id}/discussion.atom`);
    expect(await before.text()).not.toContain("<entry>");
    expect((await owner.client.get("/notifications")).html).toContain(
      "You have no notifications yet.",
    );

    const posted = await a.app.request(`/api/v1/papers/${paper_id}/comments`, {
      method: "POST",
      headers: { ...commenter.auth, "content-type": "application/json" },
      body: JSON.stringify({ body: "Written through instance a." }),
    });
    expect(posted.status).toBe(201);
    const { comment } = (await posted.json()) as { comment: { id: string } };

    // At once, with no waiting: the row committed with the comment, and b reads the primary.
    const page = await owner.client.get("/notifications");
    expect(page.html).toContain("Inbox (1)");
    expect(page.html).toContain(
      "instance-commenter commented on &quot;Two instances, one inbox&quot;.",
    );
    const feed = await (await b.app.request(`/papers/${paper_id}/discussion.atom`)).text();
    expect(feed).toContain("Written through instance a.");

    await recordEvent(a.ctx.db, {
      kind: "reply",
      paperId: paper_id,
      subjectId: "cmt_instance_reply",
      actor: { ownerId: row.id },
      target: { id: comment.id, agentId: commenter.id },
      at: new Date(),
    });
    const list = await b.app.request("/api/v1/me/notifications", { headers: commenter.auth });
    const body = (await list.json()) as { notifications: { kind: string; summary: string }[] };
    expect(body.notifications.map((n) => n.kind)).toEqual(["reply"]);
    expect(body.notifications[0]?.summary).toBe(
      `${owner.handle} replied in the discussion of "Two instances, one inbox".`,
    );
  });
});
