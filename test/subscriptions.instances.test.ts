/**
 * @module MCP resource subscriptions across two instances on one PostgreSQL database: a client
 * whose GET stream is on instance A and whose POSTs (initialize, subscribe, reads) go to
 * instance B hears, on A, of a review and a reply written through B's REST API. Always
 * PostgreSQL (TEST_DATABASE_URL, or the local server CI runs): PGlite has one process per
 * database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { agentIn, type TestAgent } from "../src/testing/agents.ts";
import type { TestApp } from "../src/testing/app.ts";
import { type ServedApp, serveTestApp } from "../src/testing/mcp.ts";
import { ownedPaper } from "../src/testing/notifications.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";
import { type SubscribingClient, subscribingClient } from "../src/testing/subscriptions.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const INBOX = "quire://me/notifications";

let drop: () => Promise<void>;
let a: ServedApp;
let b: ServedApp;
let writer: TestApp;
let subscriber: TestAgent;
let reviewer: TestAgent;
let sub: SubscribingClient;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_test_subscriptions");
  drop = scratch.drop;
  const [one, two] = [
    await openDatabase({ databaseUrl: scratch.url, poolSize: 3 }),
    await openDatabase({ databaseUrl: scratch.url, poolSize: 3 }),
  ];
  opened.push(one, two);
  a = await serveTestApp({ database: one });
  b = await serveTestApp({ database: two });
  writer = b.test;
  subscriber = await agentIn(a.test.ctx, "verified", "instance-subscriber");
  reviewer = await agentIn(a.test.ctx, "verified", "instance-reviewer");
});
afterAll(async () => {
  await sub?.close();
  await a?.close();
  await b?.close();
  for (const database of opened) await database.close();
  await drop?.();
});

describe("subscriptions across two instances on one PostgreSQL", () => {
  it("an event written through B reaches the subscriber's stream on A at once", async () => {
    const { paperId } = await ownedPaper(a.test.ctx);
    const discussion = `quire://papers/${paperId}/discussion`;
    const post = async (path: string, body: unknown) => {
      const res = await writer.app.request(`/api/v1/papers/${paperId}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...reviewer.auth },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { comment?: { id: string }; review?: { id: string } };
    };
    const mine = await a.test.app.request(`/api/v1/papers/${paperId}/comments`, {
      method: "POST",
      headers: { "content-type": "application/json", ...subscriber.auth },
      body: JSON.stringify({ body: "Answer me on the other instance." }),
    });
    const commentId = ((await mine.json()) as { comment: { id: string } }).comment.id;

    sub = await subscribingClient(a.url, subscriber.key, { postTo: b.url });
    await sub.streamOpen;
    expect(a.test.mcpStreams.size).toBe(1);
    expect(b.test.mcpStreams.size).toBe(0);
    // Subscribed through B: the subscription is a row, not memory of either instance.
    await sub.client.subscribeResource({ uri: discussion });
    await sub.client.subscribeResource({ uri: INBOX });

    const { review } = await post("reviews", {
      soundness: 2,
      presentation: 3,
      contribution: 2,
      confidence: 3,
      overall: 4,
      body: "Written through instance B.",
    });
    expect(await sub.nextUpdate()).toBe(discussion);
    const read = await sub.client.readResource({ uri: discussion });
    const thread = JSON.parse((read.contents[0] as { text: string }).text) as {
      reviews: { ai_advisory: { reviews: { id: string }[] } };
    };
    expect(thread.reviews.ai_advisory.reviews.map((r) => r.id)).toContain(review?.id);

    const { comment } = await post("comments", {
      body: "A reply through B.",
      in_reply_to: commentId,
    });
    expect([await sub.nextUpdate(), await sub.nextUpdate()].sort()).toEqual(
      [discussion, INBOX].sort(),
    );
    const inbox = await sub.client.readResource({ uri: INBOX });
    const list = JSON.parse((inbox.contents[0] as { text: string }).text) as {
      notifications: { kind: string; subject_id: string }[];
    };
    expect(list.notifications[0]).toMatchObject({ kind: "reply", subject_id: comment?.id });
  });
});
