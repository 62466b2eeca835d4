/** @module /readyz when something is wrong: database, migrations, Redis, embedder, shutdown. */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisRateLimits } from "../../services/ratelimit/redis.ts";
import { createHttpEmbedder } from "../../services/search/embedder.ts";
import { watchEmbedder } from "../../services/search/embedder-health.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../../testing/embeddings-server.ts";
import { alterOldestMigrationHash, forgetNewestMigration } from "../../testing/migrations.ts";
import { freePort } from "../../testing/scratch.ts";

interface Report {
  status: string;
  checks: Record<string, Record<string, unknown> & { status: string; critical: boolean }>;
}

async function readyz(test: TestApp): Promise<{ res: Response; body: Report }> {
  const res = await test.app.request("/readyz");
  return { res, body: (await res.json()) as Report };
}

describe("a database that does not answer", () => {
  it("is 503 not_ready naming the database, while /healthz stays 200", async () => {
    const test = await createTestApp();
    // The database goes away under a running app (closed, as at an outage).
    await test.database.close();
    const { res, body } = await readyz(test);
    expect(res.status).toBe(503);
    expect(body.status).toBe("not_ready");
    expect(body.checks.database).toMatchObject({
      status: "failing",
      critical: true,
      detail: "does not answer",
    });
    expect(body.checks.database?.latency_ms).toEqual(expect.any(Number));
    expect(body.checks.migrations?.status).toBe("failing");
    expect(body.checks.shutdown?.status).toBe("ok");
    // The cause is logged for the operator, not published.
    expect(JSON.stringify(body)).not.toMatch(/closed|ECONN|pool/i);
    expect(
      test.logs.some((l) => l.msg === "readiness check failed" && l.check === "database"),
    ).toBe(true);
    expect((await test.app.request("/healthz")).status).toBe(200);
    await test.keyUsage.close();
  });
});

/**
 * One app whose Redis never answers and whose embedding backend fails on demand: each check
 * is independent, so they share it; draining comes last, since it lasts.
 */
let test: TestApp;
let server: FakeEmbeddingServer;
let redisPort: number;
beforeAll(async () => {
  server = await startFakeEmbeddingServer(16);
  redisPort = await freePort();
  const rateLimits = await createRedisRateLimits({
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    logger: pino({ level: "silent" }),
    connectTimeoutMs: 200,
  });
  const embedder = watchEmbedder(
    createHttpEmbedder({ url: server.url, model: "fake-16", retries: 0 }),
  );
  test = await createTestApp({ services: { rateLimits, embedder } });
});
afterAll(async () => {
  await test.close();
  await server.close();
});

describe("a database without this code's migrations", () => {
  it("is 503 listing the pending migration, then ready again once it is back", async () => {
    const restore = await forgetNewestMigration(test.database.db);
    try {
      const { res, body } = await readyz(test);
      expect(res.status).toBe(503);
      expect(body.status).toBe("not_ready");
      expect(body.checks.migrations).toMatchObject({ status: "failing", critical: true });
      const pending = body.checks.migrations?.pending as string[];
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatch(/^\d{4}_[a-z_]+$/);
      expect(body.checks.database?.status).toBe("ok");
    } finally {
      await restore();
    }
    expect((await readyz(test)).res.status).toBe(200);
  });

  it("is 503 when a recorded migration ran different SQL", async () => {
    const restore = await alterOldestMigrationHash(test.database.db);
    try {
      const { res, body } = await readyz(test);
      expect(res.status).toBe(503);
      expect(body.checks.migrations?.modified).toEqual([expect.stringMatching(/^0000_/)]);
    } finally {
      await restore();
    }
    expect((await readyz(test)).res.status).toBe(200);
  });
});

describe("a Redis that does not answer", () => {
  it("is reported as failing but leaves the instance ready (degraded): limits fail open", async () => {
    const { res, body } = await readyz(test);
    expect(res.status).toBe(200);
    expect(body.status).toBe("degraded");
    expect(body.checks.rate_limits).toMatchObject({
      status: "failing",
      critical: false,
      store: "redis",
    });
    expect(JSON.stringify(body)).not.toContain(String(redisPort));
    expect(test.logs.some((l) => String(l.msg).includes("rate-limit store does not answer"))).toBe(
      true,
    );
    // Requests still go through, counted in this process.
    expect((await test.app.request("/api/v1/papers")).status).toBe(200);
  });
});

describe("an embedding backend that fails", () => {
  it("is reported from the calls it failed, degraded but ready, and recovers", async () => {
    server.behaviour = { kind: "status", status: 500 };
    for (let i = 0; i < 2; i++) {
      await expect(test.ctx.embedder!.embed(["x"])).rejects.toThrow(/HTTP 500/);
    }
    const calls = server.requests.length;
    const { res, body } = await readyz(test);
    expect(res.status).toBe(200);
    expect(body.status).toBe("degraded");
    expect(body.checks.embeddings).toMatchObject({
      status: "failing",
      critical: false,
      consecutive_failures: 2,
      detail: "The embedding backend answered HTTP 500.",
    });
    // The probe itself never called the backend.
    expect(server.requests.length).toBe(calls);

    server.behaviour = { kind: "ok" };
    await test.ctx.embedder!.embed(["x"]);
    const healed = await readyz(test);
    expect(healed.body.checks.embeddings).toMatchObject({ status: "ok", consecutive_failures: 0 });
  });
});

describe("while the server finishes its start-up work", () => {
  it("is 503 'starting' until the work is done, 'not_ready' if it failed, while reads answer", async () => {
    const starting = await createTestApp({ starting: true });
    try {
      const before = await readyz(starting);
      expect(before.res.status).toBe(503);
      expect(before.body.status).toBe("starting");
      expect(before.body.checks.startup).toEqual({ status: "starting", critical: true });
      expect(before.body.checks.database?.status).toBe("ok");
      expect((await starting.app.request("/api/v1/papers")).status).toBe(200);
      starting.lifecycle.startupDone(true);
      const after = await readyz(starting);
      expect(after.res.status).toBe(200);
      expect(after.body.status).toBe("ready");
      starting.lifecycle.startupDone(false);
      const failed = await readyz(starting);
      expect(failed.res.status).toBe(503);
      expect(failed.body.status).toBe("not_ready");
      expect(failed.body.checks.startup).toMatchObject({ status: "failing", critical: true });
    } finally {
      await starting.close();
    }
  });
});

describe("during shutdown", () => {
  it("is 503 with the shutdown check draining, and every response closes its connection", async () => {
    expect((await test.app.request("/api/v1/papers")).headers.get("connection")).toBeNull();
    test.lifecycle.startDrain();
    const { res, body } = await readyz(test);
    expect(res.status).toBe(503);
    expect(body.status).toBe("not_ready");
    expect(body.checks.shutdown).toEqual({ status: "draining", critical: true });
    expect(body.checks.database?.status).toBe("ok");
    expect(res.headers.get("connection")).toBe("close");
    // Requests already on their way are still answered, and told to reconnect elsewhere.
    const read = await test.app.request("/api/v1/papers");
    expect(read.status).toBe(200);
    expect(read.headers.get("connection")).toBe("close");
    const healthz = await test.app.request("/healthz");
    expect(healthz.status).toBe(200);
    expect(healthz.headers.get("connection")).toBe("close");
  });
});
