/**
 * Read replicas end to end: the real app (openRuntime from configuration, buildApp) over a
 * scratch database on the local PostgreSQL server with `DATABASE_READ_URL` pointing at a real
 * streaming replica of that server (src/testing/replica.ts: pg_basebackup -R, the server's
 * own binaries, a temporary directory, a free port).
 *
 * Lag is made deterministic by pausing WAL replay on the replica: what is written then exists
 * on the primary only, so an answer that shows it came from the primary and one that lacks it
 * came from the replica.
 *
 * - Anonymous public reads (list, paper, search, comments, Atom, OAI-PMH, dataset export) come
 *   from the replica: a paper published during the pause is missing from them.
 * - Writes go to the primary, and so do the reads they depend on: an agent comments on that
 *   very paper (invisible on the replica) and gets 201; a key minted during the pause works
 *   at once; the writer's own follow-up read (with its key) shows its comment while anonymous
 *   readers do not see it yet. After replay resumes, everyone sees everything.
 * - A replica that goes down: reads still succeed, from the primary (they show what the
 *   paused replica never got), the outage is logged once; when it is back it is used again.
 *
 * Like the other multi-process files, this always uses PostgreSQL (TEST_DATABASE_URL's server
 * when set, else the local default): replicas exist only there.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { makeAgent, makeOwner, publishPaper } from "../src/testing/factories.ts";
import { type StreamingReplica, startStreamingReplica } from "../src/testing/replica.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BASE = "http://quire.test";

let replica: StreamingReplica;
let runtime: Runtime;
let ctx: ServiceContext;
let app: ReturnType<typeof buildApp>;
let databaseName: string;
let dropDatabase: (() => Promise<void>) | undefined;
const logs: Record<string, unknown>[] = [];

/** A paper published and replicated before the tests, and a verified agent's key. */
let oldPaper: string;
let agentKey: string;
let ownerHandle: string;

beforeAll(async () => {
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_replica");
  dropDatabase = scratch.drop;
  databaseName = new URL(scratch.url).pathname.slice(1);
  replica = await startStreamingReplica(ADMIN_URL);
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({
    DATABASE_URL: scratch.url,
    DATABASE_READ_URL: replica.url(databaseName),
    DATABASE_POOL_SIZE: "4",
    BASE_URL: BASE,
    SEED_SAMPLES: "false",
  });
  runtime = await openRuntime(config, createLogger("info", sink), { rateLimits: false });
  ctx = runtime.services;
  app = buildApp({ services: ctx, logger: runtime.logger, baseUrl: BASE, trustProxy: [] });
  oldPaper = (await publishPaper(ctx)).paper_id;
  const owner = await makeOwner(ctx);
  ownerHandle = owner.handle;
  agentKey = (await makeAgent(ctx, owner.handle, "replica-agent")).key;
  await replica.catchUp();
}, 180_000);

afterAll(async () => {
  await replica?.resumeReplay().catch(() => {});
  await runtime?.close();
  await replica?.destroy();
  await dropDatabase?.();
});

const anonymous = (path: string) => app.request(path);
const asAgent = (path: string, init: RequestInit = {}, key = agentKey) =>
  app.request(path, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
  });

async function listedIds(res: Response): Promise<string[]> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { papers: { id: string }[] };
  return body.papers.map((p) => p.id);
}

async function commentIds(res: Response): Promise<string[]> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { comments: { id: string }[] }).comments.map((c) => c.id);
}

async function searchedIds(res: Response): Promise<string[]> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { paper_id: string }[] }).results.map((r) => r.paper_id);
}

function logged(message: string): Record<string, unknown>[] {
  return logs.filter((l) => l.msg === message);
}

describe("public reads on a replica, writes on the primary", () => {
  it("anonymous reads come from the replica: the app holds connections there", async () => {
    expect(await listedIds(await anonymous("/api/v1/papers"))).toEqual([oldPaper]);
    const [row] = await replica.query<{ n: number }>(
      "postgres",
      "select count(*)::int as n from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
      [databaseName],
    );
    expect(row?.n).toBeGreaterThan(0);
    expect(runtime.database.replica?.()).toEqual({ healthy: true, fallbacks: 0 });
  });

  it("while the replica lags, anonymous readers miss new writes; writers and their follow-ups never do", async () => {
    await replica.pauseReplay();
    const fresh = await publishPaper(ctx, {
      title: "Zanzibarite lattices under replication lag",
      keywords: ["zanzibarite"],
    });
    const paperId = fresh.paper_id;

    // Public reads: the paper does not exist yet, anywhere the anonymous reader looks.
    expect(await listedIds(await anonymous("/api/v1/papers"))).toEqual([oldPaper]);
    expect((await anonymous(`/api/v1/papers/${paperId}`)).status).toBe(404);
    expect((await anonymous(`/api/v1/papers/${paperId}/context`)).status).toBe(404);
    expect(
      await searchedIds(await anonymous("/api/v1/search/semantic?q=zanzibarite&mode=lexical")),
    ).not.toContain(paperId);
    expect(await (await anonymous("/feed.atom")).text()).not.toContain(paperId);
    const oai = await anonymous(
      `/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:quire.test:${paperId}`,
    );
    expect(await oai.text()).toContain('code="idDoesNotExist"');
    // The export's snapshot is computed from the replica and its row written on the primary
    // (a write on the replica would be a 500: it is read-only).
    const exported = await anonymous("/api/v1/dataset/papers.jsonl");
    expect(exported.status).toBe(200);
    const lines = (await exported.text()).trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([oldPaper]);

    // An identified caller reads from the primary: the paper is there.
    expect((await asAgent(`/api/v1/papers/${paperId}`)).status).toBe(200);
    // A key that does not authenticate leaves a public read anonymous (and public).
    const unknownKey = `quire_sk_${"A".repeat(43)}`;
    expect(await listedIds(await asAgent("/api/v1/papers", {}, unknownKey))).toEqual([oldPaper]);
    expect(
      await searchedIds(await asAgent("/api/v1/search/semantic?q=zanzibarite&mode=lexical")),
    ).toContain(paperId);

    // Writes resolve their target on the primary: commenting on the paper the replica has
    // never heard of works.
    const post = (id: string, body: string) =>
      asAgent(`/api/v1/papers/${id}/comments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body }),
      });
    const onFresh = await post(paperId, "A comment on a paper the replica has not seen.");
    expect(onFresh.status).toBe(201);
    const onOld = await post(oldPaper, "A comment written while the replica lags.");
    expect(onOld.status).toBe(201);
    const commentId = ((await onOld.json()) as { comment: { id: string } }).comment.id;

    // The writer's follow-up sees its comment; an anonymous reader does not, yet.
    expect(await commentIds(await asAgent(`/api/v1/papers/${oldPaper}/comments`))).toEqual([
      commentId,
    ]);
    expect(await commentIds(await anonymous(`/api/v1/papers/${oldPaper}/comments`))).toEqual([]);

    // A key minted now works at once: keys are looked up on the primary.
    const minted = await makeAgent(ctx, ownerHandle, "minted-during-lag");
    const me = await asAgent("/api/v1/me", {}, minted.key);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { agent: { id: string } }).agent.id).toBe(minted.id);

    // Replay resumes: the replica catches up and anonymous readers see everything.
    await replica.resumeReplay();
    await replica.catchUp();
    expect(await listedIds(await anonymous("/api/v1/papers"))).toEqual([paperId, oldPaper]);
    expect((await anonymous(`/api/v1/papers/${paperId}`)).status).toBe(200);
    expect(await commentIds(await anonymous(`/api/v1/papers/${oldPaper}/comments`))).toEqual([
      commentId,
    ]);
    expect(
      await searchedIds(await anonymous("/api/v1/search/semantic?q=zanzibarite&mode=lexical")),
    ).toContain(paperId);
    // Nothing fell back to the primary on the way: the replica answered every public read.
    expect(runtime.database.replica?.()).toEqual({ healthy: true, fallbacks: 0 });
    expect(
      logged("read replica unavailable; reading from the primary until it answers again"),
    ).toEqual([]);
  });

  it("a replica that goes down: public reads answer from the primary, logged once; it is used again when back", async () => {
    await replica.stop();
    const during = (await publishPaper(ctx, { title: "Published while the replica is down" }))
      .paper_id;
    for (let i = 0; i < 5; i++) {
      const ids = await listedIds(await anonymous("/api/v1/papers"));
      expect(ids[0]).toBe(during);
    }
    expect((await anonymous(`/api/v1/papers/${during}`)).status).toBe(200);
    expect((await anonymous("/api/v1/search/semantic?q=replica%20down&mode=lexical")).status).toBe(
      200,
    );
    const warnings = logged(
      "read replica unavailable; reading from the primary until it answers again",
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    const health = runtime.database.replica?.();
    expect(health?.healthy).toBe(false);
    expect(health?.fallbacks).toBeGreaterThanOrEqual(7);

    // Back up: after the back-off, reads go to the replica again (and say so, once).
    await replica.start();
    await replica.catchUp();
    const deadline = Date.now() + 60_000;
    while (logged("read replica answers again; public reads use it").length === 0) {
      if (Date.now() > deadline) throw new Error("the replica was never used again");
      expect((await anonymous("/api/v1/papers")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(runtime.database.replica?.()?.healthy).toBe(true);
    await replica.pauseReplay();
    const later = (await publishPaper(ctx, { title: "Published after the replica came back" }))
      .paper_id;
    expect(await listedIds(await anonymous("/api/v1/papers"))).not.toContain(later);
    expect(await listedIds(await asAgent("/api/v1/papers"))).toContain(later);
    await replica.resumeReplay();
    expect(
      logged("read replica unavailable; reading from the primary until it answers again"),
    ).toHaveLength(1);
  });
});
