/**
 * The reference deployment end to end: Debian's nginx running deploy/nginx/quire.conf (only
 * its ports and log paths rewritten, see src/testing/nginx.ts) in front of two real
 * `quire serve` processes on one scratch PostgreSQL database and the machine's Redis, with
 * TRUST_PROXY set to nginx's address only, as deploy/quire.env.example says.
 *
 * Clients bind their sockets to loopback addresses 127.A.B.n picked at random per run, so
 * nginx sees each as a different `$remote_addr` and the Redis counters of this run collide
 * with no other run's (they are deleted afterwards).
 *
 * - Requests reach both instances, each logged under the address nginx saw and nginx's
 *   request id.
 * - Rate limits are exact across the two: 200 parallel reads from one address, exactly 120
 *   answered; the client's own X-Forwarded-For is replaced by nginx and changes no bucket.
 * - Bodies Quire might accept pass nginx, and Quire answers the too-large ones itself; the
 *   paper forms take a source bundle, other pages keep the small cap.
 * - One instance SIGKILLed: nginx sends reads to the other; nothing after the kill fails.
 *
 * If nginx is not installed the file fails, saying how to install it.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUCKET_NAMES, DEFAULT_KEY_PREFIX } from "../src/services/ratelimit/limits.ts";
import {
  loopbackBlock,
  nginxBinary,
  type PlainResponse,
  type RunningNginx,
  requestFrom,
  startNginx,
} from "../src/testing/nginx.ts";
import { readCounter, TEST_REDIS_URL } from "../src/testing/redis.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";
import { type ServedQuire, serveQuire } from "../src/testing/serve.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let a: ServedQuire;
let b: ServedQuire;
let nginx: RunningNginx;
let dropDatabase: (() => Promise<void>) | undefined;
const address = loopbackBlock();
const redisKeys = new Set<string>();
let hosts = 0;

/** A client address of this run's block; its counters are deleted after the file. */
function client(): string {
  const ip = address(++hosts);
  for (const bucket of BUCKET_NAMES) redisKeys.add(`${DEFAULT_KEY_PREFIX}:${bucket}:${ip}`);
  return ip;
}

beforeAll(async () => {
  nginxBinary(); // fails first, with the install command, when nginx is missing
  const scratch = await createScratchDatabase(ADMIN_URL, "quire_deploy");
  dropDatabase = scratch.drop;
  const env = {
    DATABASE_URL: scratch.url,
    DATABASE_POOL_SIZE: "4",
    REDIS_URL: TEST_REDIS_URL,
    // As in test/instances.e2e.test.ts: a loaded test machine may leave redis-server
    // unscheduled past production's 200 ms, and a count taken in memory then would be inexact.
    REDIS_TIMEOUT_MS: "5000",
    // nginx's address as the instances see it, and nothing else.
    TRUST_PROXY: "127.0.0.1",
    SEED_SAMPLES: "true",
  };
  const started = await Promise.allSettled([serveQuire(env), serveQuire(env)]);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    for (const s of started) if (s.status === "fulfilled") await s.value.stop();
    throw failed.reason;
  }
  [a, b] = started.map((s) => (s as PromiseFulfilledResult<ServedQuire>).value) as [
    ServedQuire,
    ServedQuire,
  ];
  nginx = await startNginx({ upstreamPorts: [a.port, b.port] });
}, 180_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  if (redisKeys.size > 0) {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      await redis.del(...redisKeys);
    } finally {
      redis.disconnect();
    }
  }
  await dropDatabase?.();
});

const get = (ip: string, path: string, headers: Record<string, string> = {}) =>
  requestFrom(ip, `${nginx.base}${path}`, { headers });

function statuses(responses: PlainResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of responses) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

/** Quire's request log lines for client `ip` in `instance`'s output since `from`. */
function requestLines(instance: ServedQuire, ip: string, from = 0): Record<string, unknown>[] {
  return instance
    .output()
    .slice(from)
    .split("\n")
    .filter((l) => l.includes('"msg":"request"') && l.includes(`"ip":"${ip}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * Waits (at most 30 s, for a loaded machine) until `instances` logged `expected` request lines for `ip` in all:
 * a line is written after its response is sent and reaches us through a pipe, a moment late.
 */
async function loggedRequests(
  instances: ServedQuire[],
  ip: string,
  expected: number,
  from: number[] = instances.map(() => 0),
): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const counts = instances.map((instance, i) => requestLines(instance, ip, from[i]).length);
    if (counts.reduce((x, y) => x + y, 0) >= expected || Date.now() > deadline) return counts;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls `done` every 50 ms for at most 10 s; true once it holds. */
async function eventually(done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

function remaining(res: PlainResponse): number {
  const match = /"reads";r=(\d+)/.exec(String(res.headers.ratelimit ?? ""));
  if (!match) throw new Error(`no reads RateLimit field in ${JSON.stringify(res.headers)}`);
  return Number(match[1]);
}

function diagnostics(): string {
  const errors = [a, b]
    .flatMap((i) => i.output().split("\n"))
    .filter((l) => /"level":(50|60)/.test(l))
    .slice(0, 5);
  // The first line of each kind of nginx error: what failed first, not 60 repeats of it.
  const kinds = new Map<string, string>();
  for (const line of nginx.errors().split("\n")) {
    const kind = /\[(?:error|warn|crit)\] [^:]*: \*\d+ ([^,(]*)/.exec(line)?.[1]?.trim();
    if (kind && !kinds.has(kind)) kinds.set(kind, line);
  }
  return `nginx:\n${[...kinds.values()].join("\n")}\nquire:\n${errors.join("\n")}`;
}

describe("nginx in front of two instances", () => {
  it("spreads requests over both instances, which log the client address nginx saw and its request id", async () => {
    const ip = client();
    const responses: PlainResponse[] = [];
    for (let i = 0; i < 20; i++) responses.push(await get(ip, "/api/v1/papers?limit=1"));
    expect(statuses(responses), diagnostics()).toEqual({ 200: 20 });
    const [countA, countB] = await loggedRequests([a, b], ip, 20);
    expect(countA).toBeGreaterThan(0);
    expect(countB).toBeGreaterThan(0);
    expect((countA ?? 0) + (countB ?? 0)).toBe(20);
    const onA = requestLines(a, ip);
    const onB = requestLines(b, ip);
    // nginx's $request_id reaches Quire as its request id, and comes back to the client.
    const ids = responses.map((r) => String(r.headers["x-request-id"]));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set([...onA, ...onB].map((l) => l.request_id))).toEqual(new Set(ids));
    // nginx writes an access-log line once the response is sent: the client may read it first.
    const logged = await eventually(() =>
      ids.every((id) => nginx.accessLog().includes(`id=${id}`)),
    );
    expect(logged, nginx.accessLog()).toBe(true);
    // Quire compressed the page itself; nginx passed it through (gzip off there).
    const page = await get(ip, "/api/v1/papers", { "accept-encoding": "gzip" });
    expect(page.headers["content-encoding"]).toBe("gzip");
  });

  it("counts rate limits exactly across both, by nginx's $remote_addr: 200 parallel reads, exactly 120 answered", async () => {
    const ip = client();
    const logStart = [a.output().length, b.output().length];
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => get(ip, "/api/v1/papers?limit=1")),
    );
    expect(statuses(responses), diagnostics()).toEqual({ 200: 120, 429: 80 });
    const left = responses.filter((r) => r.status === 200).map(remaining);
    expect(left.sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const refused of responses.filter((r) => r.status === 429)) {
      expect(refused.headers["content-type"]).toBe("application/problem+json");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(await readCounter(TEST_REDIS_URL, `${DEFAULT_KEY_PREFIX}:reads:${ip}`)).toBe(200);
    // Both instances answered part of the burst, and neither counted on its own.
    const [servedA = 0, servedB = 0] = await loggedRequests([a, b], ip, 200, logStart);
    expect(servedA).toBeGreaterThan(0);
    expect(servedB).toBeGreaterThan(0);
    expect(servedA + servedB).toBe(200);
    for (const instance of [a, b]) expect(instance.output()).not.toContain("Redis is unreachable");
  });

  it("ignores an X-Forwarded-For sent by the client: it changes no bucket", async () => {
    const exhausted = client();
    const burst = await Promise.all(
      Array.from({ length: 121 }, () => get(exhausted, "/api/v1/papers?limit=1")),
    );
    expect(statuses(burst)).toEqual({ 200: 120, 429: 1 });

    const ip = client();
    const spoofed = "203.0.113.9";
    redisKeys.add(`${DEFAULT_KEY_PREFIX}:reads:${spoofed}`);
    const seen: number[] = [];
    for (const forwarded of [spoofed, exhausted, `${spoofed}, ${exhausted}`, "not an address"]) {
      const res = await get(ip, "/api/v1/papers?limit=1", { "x-forwarded-for": forwarded });
      expect(res.status).toBe(200);
      seen.push(remaining(res));
    }
    // One bucket, the socket's: 119, 118, … whatever the header claimed.
    expect(seen).toEqual([119, 118, 117, 116]);
    expect(await readCounter(TEST_REDIS_URL, `${DEFAULT_KEY_PREFIX}:reads:${ip}`)).toBe(4);
    expect(await readCounter(TEST_REDIS_URL, `${DEFAULT_KEY_PREFIX}:reads:${spoofed}`)).toBeNull();
    expect(await readCounter(TEST_REDIS_URL, `${DEFAULT_KEY_PREFIX}:reads:${exhausted}`)).toBe(121);
    // The spoofing client could not borrow the exhausted client's address either.
    const [fromA = 0, fromB = 0] = await loggedRequests([a, b], ip, 4);
    expect(fromA + fromB).toBe(4);
  });

  it("lets through bodies Quire may accept, so Quire's own 413 answers; stops far larger ones itself", async () => {
    const ip = client();
    const post = (bytes: number) =>
      requestFrom(ip, `${nginx.base}/api/v1/papers/2611.00001/comments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "x".repeat(bytes) }),
      });
    const over = await post(300 * 1024);
    expect(over.status).toBe(413);
    expect(over.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(over.body)).toMatchObject({ status: 413 });
    const huge = await post(2 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(huge.headers.server).toBe("nginx");
    expect(huge.headers["content-type"]).toBe("text/html");
  });

  it("lets a source bundle through to the paper forms only: other pages keep nginx's small cap", async () => {
    const ip = client();
    const boundary = "----quire-deploy-test";
    const upload = (path: string, bytes: number) =>
      requestFrom(ip, `${nginx.base}${path}`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="source"; filename="paper.zip"\r\nContent-Type: application/zip\r\n\r\n`,
          ),
          Buffer.alloc(bytes),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    // Quire answers (no CSRF token: 403) where nginx would have refused the body (413).
    for (const path of ["/submit", "/es/submit", "/papers/2611.00001/revise"]) {
      const bundle = await upload(path, 2 * 1024 * 1024);
      expect(bundle.status, path).toBe(403);
      expect(bundle.headers["content-type"], path).toMatch(/^text\/html; charset=utf-8/i);
    }
    const other = await upload("/sign-in", 2 * 1024 * 1024);
    expect(other.status).toBe(413);
    expect(other.headers["content-type"]).toBe("text/html");
    const huge = await upload("/submit", 30 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(huge.headers["content-type"]).toBe("text/html");
  });

  it("keeps serving when one instance is killed: reads in flight are retried on the other, and nothing after the kill fails", async () => {
    const inFlight = client();
    const after = client();
    const pending = Array.from({ length: 40 }, () => get(inFlight, "/api/v1/papers?limit=5"));
    await a.kill();
    const atKill = await Promise.allSettled(pending);
    // A read cut off by the kill is retried on B (proxy_next_upstream error). Only a request
    // whose answer had begun when the process died may fail: nginx answers 502 if no byte
    // had reached the client yet, else it cuts the client's connection (a transport error).
    // Any other status (a 500, a 504, a 429) would be a defect.
    const unexpected = atKill.filter(
      (r) => r.status === "fulfilled" && r.value.status !== 200 && r.value.status !== 502,
    );
    expect(unexpected, diagnostics()).toEqual([]);
    for (const r of atKill) {
      if (r.status === "rejected")
        expect(String(r.reason), diagnostics()).toMatch(/ECONNRESET|socket hang up|aborted/i);
    }
    const responses: PlainResponse[] = [];
    for (let i = 0; i < 30; i++) responses.push(await get(after, "/api/v1/papers?limit=5"));
    responses.push(
      ...(await Promise.all(
        Array.from({ length: 30 }, () => get(after, "/api/v1/papers?limit=5")),
      )),
    );
    expect(statuses(responses), diagnostics()).toEqual({ 200: 60 });
    expect(await loggedRequests([b], after, 60)).toEqual([60]);
    // The page and a write still work through the survivor.
    expect((await get(after, "/sign-in")).status).toBe(200);
  });
});
