/** @module /healthz and /readyz when all is well: shapes, every check, no rate limit. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimits } from "../../services/ratelimit/limits.ts";
import { createHttpEmbedder } from "../../services/search/embedder.ts";
import { watchEmbedder } from "../../services/search/embedder-health.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../../testing/embeddings-server.ts";
import { exactRateLimits } from "../../testing/rate-limit.ts";

let test: TestApp;
beforeAll(async () => {
  // The contract's exact quotas: probes must never draw on them.
  test = await createTestApp({ services: { rateLimits: createMemoryRateLimits() } });
});
afterAll(() => test.close());

describe("/healthz", () => {
  it("answers 200 {status: ok}, uncached, with a request id", async () => {
    const res = await test.app.request("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await res.json()).toEqual({ status: "ok" });
    expect((await test.app.request("/healthz", { method: "HEAD" })).status).toBe(200);
  });
});

describe("/readyz", () => {
  it("is ready with every check ok and a latency for each one that does I/O", async () => {
    const res = await test.app.request("/readyz");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as {
      status: string;
      checks: Record<
        string,
        { status: string; critical: boolean; latency_ms?: number; detail?: string }
      >;
    };
    expect(body.status).toBe("ready");
    expect(Object.keys(body.checks).sort()).toEqual(
      [
        "cross_lingual",
        "database",
        "embeddings",
        "latex_sources",
        "migrations",
        "rate_limits",
        "shutdown",
        "startup",
      ].sort(),
    );
    expect(body.checks.startup).toEqual({ status: "ok", critical: true });
    expect(body.checks.shutdown).toEqual({ status: "ok", critical: true });
    expect(body.checks.database).toMatchObject({ status: "ok", critical: true });
    expect(body.checks.migrations).toMatchObject({ status: "ok", critical: true });
    const migrations = body.checks.migrations as unknown as { applied: number; expected: number };
    expect(migrations.expected).toBeGreaterThan(0);
    expect(migrations.applied).toBe(migrations.expected);
    expect(body.checks.rate_limits).toMatchObject({
      status: "ok",
      critical: false,
      store: "memory",
    });
    expect(body.checks.embeddings).toEqual({ status: "not_configured", critical: false });
    // This app has no translator: readiness says cross-lingual search is off and how to turn it on.
    expect(body.checks.cross_lingual).toMatchObject({ status: "not_configured", critical: false });
    expect(String(body.checks.cross_lingual?.detail)).toContain("apt install apertium-en-es");
    // This app has no LaTeX converter: LaTeX sources are refused, and readiness says how to
    // accept them.
    expect(body.checks.latex_sources).toMatchObject({ status: "not_configured", critical: false });
    expect(String(body.checks.latex_sources?.detail)).toContain("latexml and bubblewrap");
    for (const name of ["database", "migrations", "rate_limits"]) {
      expect(body.checks[name]?.latency_ms, name).toBeGreaterThanOrEqual(0);
    }
  });

  it("never draws on a rate limit: more probes than the reads quota all answer", async () => {
    for (let i = 0; i < 130; i++) {
      for (const path of ["/healthz", "/readyz"]) {
        const res = await test.app.request(path);
        expect(res.status, `${path} #${i}`).toBe(200);
        expect(res.headers.get("ratelimit")).toBeNull();
      }
    }
  });

  it("reports a shared Redis store that answers", async () => {
    const store = await exactRateLimits("redis");
    const withRedis = await createTestApp({ services: { rateLimits: store } });
    try {
      const body = (await (await withRedis.app.request("/readyz")).json()) as {
        status: string;
        checks: { rate_limits: unknown };
      };
      expect(body.status).toBe("ready");
      expect(body.checks.rate_limits).toMatchObject({ status: "ok", store: "redis" });
    } finally {
      await withRedis.close();
      await store.cleanup();
    }
  });

  it("reports a LaTeX converter with its time limit", async () => {
    // Readiness only looks at the port; this converter is never asked to convert.
    const latex = {
      timeoutSeconds: 12,
      convert: () => Promise.reject(new Error("not called")),
    };
    const withLatex = await createTestApp({ services: { latex } });
    try {
      const body = (await (await withLatex.app.request("/readyz")).json()) as {
        checks: { latex_sources: unknown };
      };
      expect(body.checks.latex_sources).toEqual({
        status: "ok",
        critical: false,
        converter: "latexml",
        timeout_seconds: 12,
      });
    } finally {
      await withLatex.close();
    }
  });

  describe("with an embedding backend", () => {
    let server: FakeEmbeddingServer;
    let withEmbedder: TestApp;
    beforeAll(async () => {
      server = await startFakeEmbeddingServer(16);
      const embedder = watchEmbedder(
        createHttpEmbedder({ url: server.url, model: "fake-16", retries: 0 }),
      );
      withEmbedder = await createTestApp({ services: { embedder } });
    });
    afterAll(async () => {
      await withEmbedder.close();
      await server.close();
    });

    it("says unknown before any call, and ok once a call succeeded, without calling it", async () => {
      const before = (await (await withEmbedder.app.request("/readyz")).json()) as {
        status: string;
        checks: { embeddings: unknown };
      };
      expect(before.checks.embeddings).toEqual({
        status: "unknown",
        critical: false,
        consecutive_failures: 0,
      });
      expect(before.status).toBe("ready");
      expect(server.requests).toHaveLength(0);

      await withEmbedder.ctx.embedder!.embed(["a text"]);
      const after = (await (await withEmbedder.app.request("/readyz")).json()) as {
        status: string;
        checks: { embeddings: Record<string, unknown> };
      };
      expect(after.status).toBe("ready");
      expect(after.checks.embeddings).toMatchObject({ status: "ok", consecutive_failures: 0 });
      expect(after.checks.embeddings.last_success_at).toEqual(expect.any(String));
      expect(server.requests).toHaveLength(1);
    });
  });
});
