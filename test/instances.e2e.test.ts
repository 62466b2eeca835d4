/**
 * End to end with more than one instance: two `quire serve` processes share one PostgreSQL
 * database and one Redis, behind no proxy (each request goes to either), and a third serves
 * the same database with the default in-process rate-limit store.
 *
 * - Limits are exact under concurrency: 200 parallel reads split across both instances get
 *   exactly 120 answers and 80 429s; 200 parallel searches exactly 30. Likewise on one
 *   instance, with Redis and without it.
 * - The full agent-key lifecycle over real HTTP: sign up on the site, verify by the mailed
 *   link, sign in, mint a key on /agents, use it on the other instance, rotate and revoke it;
 *   no password, session token, verification token or key in any server's log.
 *
 * Several instances need PostgreSQL, so this file always uses it: TEST_DATABASE_URL's server
 * when set, else the local default (as `npm run test:pg` does). The rate-limit store has no
 * key-prefix setting, so each burst comes from an address unique to this run, forwarded by a
 * trusted proxy (TRUST_PROXY=127.0.0.1, `X-Forwarded-For`), which also shows that the
 * forwarded address is what the limits count. Every Redis key the run made is deleted.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUCKET_NAMES,
  BUCKETS,
  type Bucket,
  DEFAULT_KEY_PREFIX,
  storeKey,
} from "../src/services/ratelimit/limits.ts";
import { csrfTokenIn, overHttp, PageClient, shownKey } from "../src/testing/page-client.ts";
import { expectRateLimited, expectRateLimitFields } from "../src/testing/rate-limit.ts";
import { readCounter, TEST_REDIS_URL } from "../src/testing/redis.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";
import { type ServedQuire, serveQuire } from "../src/testing/serve.ts";
import { type SmtpSink, startSmtpSink } from "../src/testing/smtp-sink.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Instances A and B count in Redis; C counts in its own memory (no REDIS_URL). */
let a: ServedQuire;
let b: ServedQuire;
let c: ServedQuire;
let sink: SmtpSink;
let dropDatabase: (() => Promise<void>) | undefined;

/** Redis counters this run made (per-IP and per-agent), deleted after the file. */
const redisKeys = new Set<string>();

/** A /48 of the documentation range for this run; each fresh client gets a /64 of it. */
const RUN = `2001:db8:${randomBytes(2).readUInt16BE().toString(16)}`;
let addresses = 0;

/** A client address no other test or run uses (IPv6 documentation range). */
function freshIp(): string {
  // Its own /64: an IPv6 client is counted by its network (RATE_LIMIT_IPV6_PREFIX).
  const ip = `${RUN}:${(++addresses).toString(16)}::1`;
  for (const bucket of BUCKET_NAMES) redisKeys.add(counterKey(bucket, ip));
  return ip;
}

/** The Redis key a bucket counts `key` under (the store's rule: an address by its network). */
function counterKey(bucket: Bucket, key: string): string {
  return `${DEFAULT_KEY_PREFIX}:${bucket}:${storeKey(bucket, key)}`;
}

beforeAll(async () => {
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_e2e");
  dropDatabase = scratch.drop;
  sink = await startSmtpSink();
  const shared = {
    DATABASE_URL: scratch.url,
    // Small pools: the bursts queue for connections, and parallel runs stay within
    // max_connections.
    DATABASE_POOL_SIZE: "4",
    TRUST_PROXY: "127.0.0.1",
    SMTP_URL: sink.url,
    SEED_SAMPLES: "true",
  };
  // All three start together on the empty database, as replicas of one deployment would.
  // A generous Redis deadline, as in the store's own tests: on a loaded test machine the OS
  // may leave redis-server unscheduled past the production 200 ms, and a request counted in
  // memory then (fail-open, by design) would make the shared count inexact.
  const redis = { REDIS_URL: TEST_REDIS_URL, REDIS_TIMEOUT_MS: "5000" };
  const started = await Promise.allSettled([
    serveQuire({ ...shared, ...redis }),
    serveQuire({ ...shared, ...redis }),
    serveQuire(shared),
  ]);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    for (const s of started) if (s.status === "fulfilled") await s.value.stop();
    throw failed.reason;
  }
  [a, b, c] = started.map((s) => (s as PromiseFulfilledResult<ServedQuire>).value) as [
    ServedQuire,
    ServedQuire,
    ServedQuire,
  ];
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
  await sink?.close();
  if (redisKeys.size > 0) {
    const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      await client.del(...redisKeys);
    } finally {
      client.disconnect();
    }
  }
  await dropDatabase?.();
});

/** The servers' error lines (a few), to explain an unexpected status in a failure message. */
function serverErrors(): string {
  const lines = [a, b, c]
    .flatMap((i) => i.output().split("\n"))
    .filter((l) => /"level":(50|60)/.test(l));
  return lines.length === 0 ? "no server logged an error" : lines.slice(0, 5).join("\n");
}

interface Burst {
  /** Responses in the order the requests were made (request i went to targets[i % n]). */
  responses: Response[];
  byStatus: Map<number, Response[]>;
  /** What each target logged while the burst ran. */
  logs: string[];
}

/** `count` parallel GETs of `path` from `ip`, spread round-robin over `targets`. */
async function burst(
  targets: ServedQuire[],
  path: string,
  ip: string,
  count = 200,
): Promise<Burst> {
  const logStart = targets.map((t) => t.output().length);
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(`${targets[i % targets.length]!.base}${path}`, {
        headers: { "x-forwarded-for": ip },
      }),
    ),
  );
  const byStatus = new Map<number, Response[]>();
  for (const res of responses) byStatus.set(res.status, [...(byStatus.get(res.status) ?? []), res]);
  return { responses, byStatus, logs: targets.map((t, i) => t.output().slice(logStart[i])) };
}

/**
 * Exactly `BUCKETS[bucket].points` answers and the rest 429s; every answer carries the
 * RateLimit fields and their `r` values are each of quota-1 … 0 once (one count, however
 * many instances); every 429 has Retry-After and the fields.
 */
async function expectExact(result: Burst, bucket: Bucket, count = 200): Promise<void> {
  const { points: limit, windowSeconds } = BUCKETS[bucket];
  const statuses = Object.fromEntries([...result.byStatus].map(([s, list]) => [s, list.length]));
  expect(statuses, serverErrors()).toEqual({ 200: limit, 429: count - limit });
  const remaining: number[] = [];
  for (const res of result.byStatus.get(200) ?? []) {
    remaining.push(expectRateLimitFields(res, bucket, { limit, windowSeconds }).r);
    await res.arrayBuffer();
  }
  expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: limit }, (_, i) => i));
  // No instance fell back to counting on its own (a Redis outage) during the burst.
  for (const log of result.logs) expect(log).not.toContain("Redis is unreachable");
  for (const res of result.byStatus.get(429) ?? []) {
    await expectRateLimited(res, bucket, { limit, windowSeconds });
  }
}

describe("instances started together on one empty database", () => {
  it("all come up; the schema is migrated and the samples are seeded once", async () => {
    const seeders = [a, b, c].filter((i) => i.output().includes("loaded the sample papers"));
    expect(seeders).toHaveLength(1);
    const ip = freshIp();
    const res = await fetch(`${c.base}/api/v1/papers?limit=100`, {
      headers: { "x-forwarded-for": ip },
    });
    expect(res.status).toBe(200);
    const { papers } = (await res.json()) as { papers: { title: string }[] };
    expect(papers.length).toBeGreaterThan(0);
    expect(new Set(papers.map((p) => p.title)).size).toBe(papers.length);
  });
});

describe("limits are exact under concurrency", () => {
  it("200 parallel reads split across two instances sharing Redis: exactly 120 answered, 80 refused", async () => {
    const ip = freshIp();
    const result = await burst([a, b], "/api/v1/papers", ip);
    await expectExact(result, "reads");
    // Both instances drew on one counter in Redis, keyed by the forwarded address.
    expect(await readCounter(TEST_REDIS_URL, counterKey("reads", ip))).toBe(200);
    for (const instance of [a, b]) {
      expect(instance.output()).toContain(`"ip":"${ip}"`);
      const next = await fetch(`${instance.base}/api/v1/papers`, {
        headers: { "x-forwarded-for": ip },
      });
      await expectRateLimited(next, "reads", { limit: 120, windowSeconds: 60 });
    }
    // Another client (the same socket peer, another forwarded address) is untouched.
    const other = await fetch(`${b.base}/api/v1/papers`, {
      headers: { "x-forwarded-for": freshIp() },
    });
    expect(other.status).toBe(200);
    expectRateLimitFields(other, "reads", { limit: 120, windowSeconds: 60, remaining: 119 });
    await other.arrayBuffer();
  });

  it("200 parallel searches split across two instances: exactly 30 answered, 170 refused", async () => {
    const ip = freshIp();
    const result = await burst([a, b], "/api/v1/search/semantic?q=rate%20limits", ip);
    await expectExact(result, "search");
    expect(await readCounter(TEST_REDIS_URL, counterKey("search", ip))).toBe(200);
    // A search spends only `search`: the same address still has every read.
    const read = await fetch(`${a.base}/api/v1/papers`, { headers: { "x-forwarded-for": ip } });
    expect(read.status).toBe(200);
    expectRateLimitFields(read, "reads", { limit: 120, windowSeconds: 60, remaining: 119 });
    await read.arrayBuffer();
  });

  it("200 parallel reads at one instance counting in Redis: exactly 120", async () => {
    const ip = freshIp();
    await expectExact(await burst([a], "/api/v1/papers", ip), "reads");
    expect(await readCounter(TEST_REDIS_URL, counterKey("reads", ip))).toBe(200);
  });

  it("200 parallel reads at one instance counting in memory (no REDIS_URL): exactly 120", async () => {
    const ip = freshIp();
    await expectExact(await burst([c], "/api/v1/papers", ip), "reads");
    // Nothing of it reached Redis.
    expect(await readCounter(TEST_REDIS_URL, counterKey("reads", ip))).toBeNull();
  });

  it("200 parallel searches at one instance counting in memory: exactly 30", async () => {
    const ip = freshIp();
    await expectExact(await burst([c], "/api/v1/search/semantic?q=rate%20limits", ip), "search");
  });
});

interface AgentIdentity {
  agent: {
    id: string;
    name: string;
    model: string;
    owner_handle: string;
    status: string;
    created_at: string;
    key: { hint: string; created_at: string; last_used_at: string | null };
  };
}

describe("the agent-key lifecycle through the real pages, across instances", () => {
  it("signs up, verifies, mints a key on /agents, uses it on both instances, rotates and revokes it, logging no secret", async () => {
    const ip = freshIp();
    const forwarded = { "x-forwarded-for": ip };
    const api = (instance: ServedQuire, path: string, init: RequestInit = {}) =>
      fetch(`${instance.base}${path}`, {
        ...init,
        headers: { ...forwarded, ...(init.headers as Record<string, string> | undefined) },
      });
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const me = (instance: ServedQuire, key: string) =>
      api(instance, "/api/v1/me", { headers: bearer(key) });

    // A published paper to write on (the sample papers were seeded at startup).
    const list = (await (await api(b, "/api/v1/papers")).json()) as {
      papers: { id: string; version: number }[];
    };
    expect(list.papers.length).toBeGreaterThan(0);
    const paper = list.papers[0]!;

    // 1. Sign up on instance A; the verification link arrives by SMTP.
    const site = new PageClient(overHttp(a.base), forwarded);
    const password = `e2e passphrase ${randomBytes(6).toString("hex")}`;
    const email = "instances-e2e@example.org";
    const handle = "instances-e2e";
    const mailed = sink.next();
    const signedUp = await site.submit("/sign-up", "/sign-up", { email, handle, password });
    expect(signedUp.status).toBe(303);
    const mail = await mailed;
    expect(mail.to).toEqual([email]);
    const link = new RegExp(`${a.base}/verify-email\\?token=[A-Za-z0-9_-]{43}`).exec(
      mail.text,
    )?.[0];
    expect(link, mail.text).toBeTruthy();
    const token = new URL(link!).searchParams.get("token")!;

    // 2. Verify, then sign in.
    const confirm = await site.get(`/verify-email?token=${token}`);
    expect(confirm.status).toBe(200);
    const verified = await site.post("/verify-email", {
      _csrf: csrfTokenIn(confirm.html, "/verify-email"),
      token,
    });
    expect(verified.location).toBe("/agents?notice=verified");
    // The sign-up left this client signed in; a later visit (a new browser) signs in again.
    site.cookies.clear();
    const signedIn = await site.submit("/sign-in", "/sign-in", {
      email,
      password,
      next: "/agents",
    });
    expect(signedIn.status).toBe(303);
    const session = site.cookies.get("quire_session");
    expect(session).toBeTruthy();

    // 3. Create an agent on /agents; its key is shown once.
    const agentsPage = await site.get("/agents");
    expect(agentsPage.status).toBe(200);
    const created = await site.post("/agents", {
      _csrf: csrfTokenIn(agentsPage.html, "/agents"),
      name: "Instances bot",
      model: "e2e-model-1",
    });
    expect(created.status).toBe(303);
    const shown = await site.get("/agents");
    const key1 = shownKey(shown.html);
    expect(key1).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
    expect(shownKey((await site.get("/agents")).html)).toBeNull();
    const agentId = /action="\/agents\/([^/"]+)\/rotate"/.exec(shown.html)?.[1];
    expect(agentId).toBeTruthy();
    for (const bucket of ["comments", "reviews"] as const) {
      redisKeys.add(`${DEFAULT_KEY_PREFIX}:${bucket}:${agentId}`);
    }

    // 4. The key works on the other instance: /me says verified.
    const identityRes = await me(b, key1!);
    expect(identityRes.status).toBe(200);
    const identity = (await identityRes.json()) as AgentIdentity;
    expect(identity.agent).toMatchObject({
      id: agentId,
      name: "Instances bot",
      model: "e2e-model-1",
      owner_handle: handle,
      status: "verified",
      key: { hint: `${key1!.slice(0, 13)}…` },
    });

    // 5. A comment through B and a review through A, with the bodies of docs/contract/DECISIONS.md.
    const author = {
      agent_id: agentId,
      name: "Instances bot",
      model: "e2e-model-1",
      owner_handle: handle,
    };
    const commentRes = await api(b, `/api/v1/papers/${paper.id}/comments`, {
      method: "POST",
      headers: { ...bearer(key1!), "content-type": "application/json" },
      body: JSON.stringify({ body: "  A comment from the end-to-end agent.  " }),
    });
    expect(commentRes.status).toBe(201);
    const { comment } = (await commentRes.json()) as { comment: Record<string, unknown> };
    expect(Object.keys(comment).sort()).toEqual(
      [
        "ai_label",
        "author",
        "body",
        "created_at",
        "id",
        "paper_id",
        "paper_version",
        // The thread's fields (ADR 0044): a top-level AI comment.
        "kind",
        "in_reply_to",
        "depth",
        "author_response",
      ].sort(),
    );
    expect(comment).toMatchObject({
      paper_id: paper.id,
      paper_version: paper.version,
      body: "A comment from the end-to-end agent.",
      author,
      ai_label: "AI-generated",
    });

    const scores = { soundness: 3, presentation: 2, contribution: 4, confidence: 5, overall: 7 };
    const reviewRes = await api(a, `/api/v1/papers/${paper.id}/reviews`, {
      method: "POST",
      headers: { ...bearer(key1!), "content-type": "application/json" },
      body: JSON.stringify({ ...scores, body: "An advisory review from the end-to-end agent." }),
    });
    expect(reviewRes.status).toBe(201);
    const { review } = (await reviewRes.json()) as { review: Record<string, unknown> };
    expect(Object.keys(review).sort()).toEqual(
      [
        // Readers' votes and the versions that address it (ADR 0044).
        "helpful_count",
        "unhelpful_count",
        "addressed_in",
        "advisory",
        "ai_label",
        "author",
        "body",
        "created_at",
        "id",
        "paper_id",
        "paper_version",
        "scores",
      ].sort(),
    );
    expect(review).toMatchObject({
      paper_id: paper.id,
      paper_version: paper.version,
      advisory: true,
      scores,
      body: "An advisory review from the end-to-end agent.",
      author,
      ai_label: "AI-generated",
    });

    // 6. Both read back on either instance: the review in the AI advisory list, not the human.
    for (const instance of [a, b]) {
      const comments = (await (
        await api(instance, `/api/v1/papers/${paper.id}/comments`)
      ).json()) as { comments: unknown[] };
      expect(comments.comments).toEqual([comment]);
      const reviews = (await (
        await api(instance, `/api/v1/papers/${paper.id}/reviews`)
      ).json()) as {
        human: { count: number; mean: unknown; reviews: unknown[] };
        ai_advisory: { count: number; mean: unknown; reviews: unknown[] };
      };
      expect(reviews.human).toMatchObject({ count: 0, mean: null, reviews: [] });
      expect(reviews.ai_advisory).toMatchObject({ count: 1, mean: scores, reviews: [review] });
    }

    // 7. Rotate on the site: the old key is refused on both instances, the new one works.
    const beforeRotate = await site.get("/agents");
    const rotated = await site.post(`/agents/${agentId}/rotate`, {
      _csrf: csrfTokenIn(beforeRotate.html, `/agents/${agentId}/rotate`),
    });
    expect(rotated.status).toBe(303);
    const key2 = shownKey((await site.get("/agents")).html);
    expect(key2).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
    expect(key2).not.toBe(key1);
    for (const instance of [a, b]) {
      const old = await me(instance, key1!);
      expect(old.status).toBe(401);
      expect(old.headers.get("content-type")).toBe("application/problem+json");
      await old.arrayBuffer();
      const fresh = await me(instance, key2!);
      expect(fresh.status).toBe(200);
      expect(((await fresh.json()) as AgentIdentity).agent.key.hint).toBe(`${key2!.slice(0, 13)}…`);
    }

    // 8. Revoke on the site: the current key is refused on both instances.
    const beforeRevoke = await site.get("/agents");
    const revoked = await site.post(`/agents/${agentId}/revoke`, {
      _csrf: csrfTokenIn(beforeRevoke.html, `/agents/${agentId}/revoke`),
    });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe("/agents?notice=key-revoked");
    for (const instance of [a, b]) {
      const gone = await me(instance, key2!);
      expect(gone.status).toBe(401);
      await gone.arrayBuffer();
      const write = await api(instance, `/api/v1/papers/${paper.id}/comments`, {
        method: "POST",
        headers: { ...bearer(key2!), "content-type": "application/json" },
        body: JSON.stringify({ body: "Written with a revoked key." }),
      });
      expect(write.status).toBe(401);
      await write.arrayBuffer();
    }
    const after = (await (await api(b, `/api/v1/papers/${paper.id}/comments`)).json()) as {
      comments: unknown[];
    };
    expect(after.comments).toEqual([comment]);

    // 9. No server logged a secret, though each logged the requests.
    expect(a.output()).toContain('"msg":"owner signed up"');
    for (const instance of [a, b]) expect(instance.output()).toContain(`"ip":"${ip}"`);
    for (const instance of [a, b, c]) {
      const log = instance.output();
      for (const secret of [password, token, session!, key1!, key2!]) {
        expect(log).not.toContain(secret);
      }
      // Nor the secret part of a key past its hint.
      for (const key of [key1!, key2!]) expect(log).not.toContain(key.slice(13));
    }
  });
});
