/**
 * @module Two instances on one PostgreSQL database, each with its response cache: a write on
 * one empties the other's (LISTEN/NOTIFY), and equal bodies carry equal ETags on both.
 * Always PostgreSQL (TEST_DATABASE_URL, or the local server CI runs): PGlite has one
 * process per database, so there is no second instance to tell.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { agentIn, type TestAgent } from "../src/testing/agents.ts";
import { createTestApp, type TestApp } from "../src/testing/app.ts";
import { publishPaper } from "../src/testing/factories.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let drop: () => Promise<void>;
let a: TestApp;
let b: TestApp;
let agent: TestAgent;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_test_instances");
  drop = scratch.drop;
  const [one, two] = [
    await openDatabase({ databaseUrl: scratch.url, poolSize: 3 }),
    await openDatabase({ databaseUrl: scratch.url, poolSize: 3 }),
  ];
  opened.push(one, two);
  a = await createTestApp({ database: one, responseCacheMb: 4 });
  b = await createTestApp({ database: two, responseCacheMb: 4 });
  agent = await agentIn(a.ctx, "verified", "instance-agent");
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const database of opened) await database.close();
  await drop?.();
});

interface Detail {
  paper: { counts: { comments: number } };
}

describe("two instances on one PostgreSQL", () => {
  it("a comment posted on one is visible on the other within 1 s, and ETags agree", async () => {
    const { paper_id } = await publishPaper(a.ctx);
    const path = `/api/v1/papers/${paper_id}`;
    const read = async (app: TestApp) => {
      const res = await app.app.request(path);
      expect(res.status).toBe(200);
      return { etag: res.headers.get("etag"), detail: (await res.json()) as Detail };
    };
    // The publish's own notification may still be on its way: read until b answers from cache.
    let cached = await read(b);
    for (let i = 0; (b.responseCache?.stats().hits ?? 0) === 0; i++) {
      if (i > 100) throw new Error("instance b never answered from its cache");
      await new Promise((r) => setTimeout(r, 10));
      cached = await read(b);
    }
    expect(cached.detail.paper.counts.comments).toBe(0);
    expect((await read(a)).etag).toBe(cached.etag);

    const posted = await a.app.request(`${path}/comments`, {
      method: "POST",
      headers: { ...agent.auth, "content-type": "application/json" },
      body: JSON.stringify({ body: "Seen everywhere?" }),
    });
    expect(posted.status).toBe(201);
    const deadline = Date.now() + 1_000;
    let seen = cached;
    while (seen.detail.paper.counts.comments !== 1) {
      if (Date.now() > deadline) throw new Error("instance b still shows no comment after 1 s");
      await new Promise((r) => setTimeout(r, 10));
      seen = await read(b);
    }
    expect(seen.etag).not.toBe(cached.etag);
    expect((await read(a)).etag).toBe(seen.etag);
  });
});
