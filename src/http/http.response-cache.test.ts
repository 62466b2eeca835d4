/**
 * @module The response cache of anonymous API reads, on the suite's engine: hits answer as
 * misses do, every kind of archive write empties it (through the database's notifications),
 * and identified requests never read or fill it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approvePaper,
  removePaper,
  setPaperSubjects,
  suspendAgent,
} from "../services/moderation/index.ts";
import { agentIn, removeContribution, setPaperStatus, type TestAgent } from "../testing/agents.ts";
import { createTestApp, type TestApp } from "../testing/app.ts";
import { notifyArchiveProbe } from "../testing/archive-changes.ts";
import { publishPaper } from "../testing/factories.ts";
import { holdPaper, moderatorContext } from "../testing/moderation.ts";
import type { ResponseCache } from "./response-cache.ts";

let t: TestApp;
let cache: ResponseCache;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestApp({ responseCacheMb: 4 });
  cache = t.responseCache as ResponseCache;
  agent = await agentIn(t.ctx, "verified", "cache-reader");
});
afterAll(async () => t.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers });

interface Snapshot {
  status: number;
  etag: string | null;
  body: string;
  headers: [string, string][];
}

async function snapshot(res: Response): Promise<Snapshot> {
  const headers = [...res.headers].filter(
    ([name]) => name !== "ratelimit" && name !== "x-request-id",
  );
  return { status: res.status, etag: res.headers.get("etag"), body: await res.text(), headers };
}

/** Polls `check` until it holds, for at most `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms = 1_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits until every notification of writes made so far has arrived: NOTIFYs arrive in commit
 * order, so once one sent now is heard, the earlier ones were too.
 */
let probes = 0;
async function settle() {
  // Its own payload: an earlier write's notification arriving meanwhile also counts as an
  // invalidation, and waiting for the count alone let the probe land during the next read.
  const probe = `probe-${++probes}`;
  await notifyArchiveProbe(t.ctx, probe);
  await until(() => cache.stats().lastChange === probe);
}

const post = (path: string, body: unknown) =>
  t.app.request(path, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("hits", () => {
  it("answers a repeated anonymous read from the cache, byte for byte, 304 and encodings included", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await settle();
    for (const path of [
      "/api/v1/papers?limit=5",
      `/api/v1/papers/${paper_id}`,
      `/api/v1/papers/${paper_id}?format=bibtex`,
      `/api/v1/papers/${paper_id}/context`,
    ]) {
      const variants: Record<string, string>[] = [
        {},
        { "accept-encoding": "br, gzip" },
        { "accept-encoding": "gzip" },
      ];
      for (const headers of variants) {
        const first = await snapshot(await get(path, headers));
        const before = cache.stats().hits;
        const second = await snapshot(await get(path, headers));
        expect(cache.stats().hits, path).toBe(before + 1);
        expect(second, path).toEqual(first);
        const etag = first.etag as string;
        const revalidated = await get(path, { ...headers, "if-none-match": etag });
        expect(revalidated.status).toBe(304);
        // As without the cache: the 304 names the strong tag a compressed 200 weakens.
        expect(revalidated.headers.get("etag")).toBe(etag.replace(/^W\//, ""));
      }
    }
    // Accept is part of the key: JSON-LD and JSON are separate entries.
    const ld = await get(`/api/v1/papers/${paper_id}`, { accept: "application/ld+json" });
    expect(ld.headers.get("content-type")).toBe("application/ld+json");
  });

  it("many concurrent misses of one read cost fewer reads than requests, and all answer alike", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await settle();
    const before = cache.stats();
    const answers = await Promise.all(
      Array.from({ length: 12 }, async () =>
        snapshot(await get(`/api/v1/papers/${paper_id}/context`)),
      ),
    );
    const after = cache.stats();
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.status).toBe(200);
    const misses = after.misses - before.misses;
    const coalesced = after.coalesced - before.coalesced;
    expect(misses).toBe(12);
    // Reads run = misses not answered by another request's fill: one, unless the first read
    // ended before the last request arrived (a few, on a slow machine), never one each.
    expect(misses - coalesced).toBeLessThanOrEqual(3);
  });

  it("keeps one entry for no Accept and Accept: */* (both mean any type)", async () => {
    const path = "/api/v1/papers?limit=4";
    const first = await snapshot(await get(path));
    const before = cache.stats();
    const second = await snapshot(await get(path, { accept: "*/*" }));
    expect(second).toEqual(first);
    expect(cache.stats().hits).toBe(before.hits + 1);
  });

  it("a hit still draws on the caller's rate limit", async () => {
    const path = "/api/v1/papers?limit=3";
    await get(path);
    const remaining = (res: Response) =>
      Number(/r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]);
    const a = remaining(await get(path));
    const b = remaining(await get(path));
    expect(b).toBe(a - 1);
  });
});

describe("identified requests", () => {
  /**
   * What reading and filling change. Invalidations are left out: a change the publish set
   * off after it returned may still be announced under load (seen once in CI), and an
   * invalidation says nothing about what an identified request read or stored.
   */
  const usage = () => {
    const { entries, bytes, hits, misses } = cache.stats();
    return { entries, bytes, hits, misses };
  };

  it("never read nor fill an anonymous entry (agent key, bearer token, session cookie)", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await settle();
    const path = `/api/v1/papers/${paper_id}`;
    for (const headers of [
      agent.auth,
      { authorization: "Bearer not-a-key" },
      { cookie: "quire_session=whatever" },
    ]) {
      const before = usage();
      expect((await get(path, headers)).status).toBe(200);
      expect(usage()).toEqual(before);
    }
    await get(path); // fills
    const filled = usage();
    expect(filled.entries).toBeGreaterThan(0);
    expect((await get(path, agent.auth)).status).toBe(200);
    // A late invalidation may empty the cache meanwhile; the request itself neither hit,
    // missed nor stored.
    const after = usage();
    expect({ hits: after.hits, misses: after.misses }).toEqual({
      hits: filled.hits,
      misses: filled.misses,
    });
    expect(after.entries).toBeLessThanOrEqual(filled.entries);
  });
});

describe("invalidation", () => {
  /** Reads `path` twice (cached), writes, and waits for a fresh read showing `changed`. */
  async function expectInvalidated(
    path: string,
    write: () => Promise<unknown>,
    changed: (before: Snapshot, after: Snapshot) => boolean = (b, a) => a.body !== b.body,
  ) {
    await settle();
    await get(path);
    const before = await snapshot(await get(path));
    const invalidations = cache.stats().invalidations;
    await write();
    await until(() => cache.stats().invalidations > invalidations);
    const after = await snapshot(await get(path));
    expect(changed(before, after), path).toBe(true);
  }

  it("empties on publish, new version, withdraw, remove, approve", async () => {
    await expectInvalidated("/api/v1/papers?limit=3", () => publishPaper(t.ctx));
    const { paper_id } = await publishPaper(t.ctx);
    await expectInvalidated(`/api/v1/papers/${paper_id}`, () =>
      publishPaper(t.ctx, { paperId: paper_id, changelog: "Second version." }),
    );
    const withdrawn = (await publishPaper(t.ctx)).paper_id;
    await expectInvalidated(
      `/api/v1/papers/${withdrawn}`,
      () => setPaperStatus(t.ctx, withdrawn, "withdrawn"),
      (_b, a) => a.status === 404,
    );
    const moderator = await moderatorContext(t.ctx);
    const removed = (await publishPaper(t.ctx)).paper_id;
    await expectInvalidated(
      `/api/v1/papers/${removed}/context`,
      () => removePaper(moderator.ctx, { paperId: removed, reason: "Spam." }),
      (_b, a) => a.status === 404,
    );
    const held = await holdPaper(t.ctx);
    await expectInvalidated(
      `/api/v1/papers/${held}`,
      () => approvePaper(moderator.ctx, { paperId: held, reason: "Fine after all." }),
      (b, a) => b.status === 404 && a.status === 200,
    );
  });

  it("empties when a moderator changes a paper's subjects", async () => {
    const { paper_id } = await publishPaper(t.ctx, { subjects: ["cs.CL"] });
    const moderator = await moderatorContext(t.ctx);
    await expectInvalidated(
      "/api/v1/papers?subject=cs.CL",
      () =>
        setPaperSubjects(moderator.ctx, { paperId: paper_id, subjects: ["cs.AI"], reason: "x" }),
      (b, a) => b.body.includes(paper_id) && !a.body.includes(paper_id),
    );
  });

  it("empties on comment, review, counters and agent moderation", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const detail = `/api/v1/papers/${paper_id}`;
    let commentId = "";
    await expectInvalidated(detail, async () => {
      const res = await post(`${detail}/comments`, { body: "A comment." });
      expect(res.status, await res.clone().text()).toBe(201);
      commentId = ((await res.json()) as { comment: { id: string } }).comment.id;
    });
    await expectInvalidated(`${detail}/reviews`, async () => {
      const res = await post(`${detail}/reviews`, {
        body: "Sound, if narrow.",
        ...{ soundness: 3, presentation: 2, contribution: 4, confidence: 5, overall: 7 },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    });
    await expectInvalidated(detail, () => removeContribution(t.ctx, "comment", commentId));
    const moderator = await moderatorContext(t.ctx);
    await expectInvalidated(
      `${detail}/reviews`,
      () => suspendAgent(moderator.ctx, { agentId: agent.id, reason: "Test." }),
      () => true,
    );
  });

  it("empties an agent's cached profile when it comments, reviews or is suspended", async () => {
    const profiled = await agentIn(t.ctx, "verified", "cached-profile");
    const { paper_id } = await publishPaper(t.ctx);
    const profile = `/api/v1/agents/${profiled.id}`;
    const send = (kind: string, body: unknown) =>
      t.app.request(`/api/v1/papers/${paper_id}/${kind}`, {
        method: "POST",
        headers: { ...profiled.auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const agentOf = (s: Snapshot) =>
      (JSON.parse(s.body) as { agent: { status: string; counts: Record<string, number> } }).agent;
    // Comments and reviews: the counts this test moves (the track record's others stay 0).
    const written = (s: Snapshot) => {
      const { comments, reviews } = agentOf(s).counts;
      return { comments, reviews };
    };
    await expectInvalidated(
      profile,
      async () => expect((await send("comments", { body: "Noted." })).status).toBe(201),
      (b, a) =>
        isEqual(written(b), { comments: 0, reviews: 0 }) &&
        isEqual(written(a), { comments: 1, reviews: 0 }),
    );
    await expectInvalidated(
      profile,
      async () => {
        const res = await send("reviews", {
          body: "Sound.",
          ...{ soundness: 3, presentation: 2, contribution: 4, confidence: 5, overall: 7 },
        });
        expect(res.status).toBe(201);
      },
      (_b, a) => isEqual(written(a), { comments: 1, reviews: 1 }),
    );
    const moderator = await moderatorContext(t.ctx);
    await expectInvalidated(
      profile,
      () => suspendAgent(moderator.ctx, { agentId: profiled.id, reason: "Test." }),
      (b, a) => agentOf(b).status === "active" && agentOf(a).status === "suspended",
    );
  });
});

const isEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
