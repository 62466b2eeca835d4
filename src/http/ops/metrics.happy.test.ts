/** @module /metrics: the exposition parses, counters move, labels are route patterns, 429s count. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "../../metrics.ts";
import { createMemoryRateLimits } from "../../services/ratelimit/limits.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { publishPaper } from "../../testing/factories.ts";
import { parsePrometheus } from "../../testing/prometheus.ts";
import { buildMetricsApp } from "./metrics.ts";

const TOKEN = "metrics-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };

let test: TestApp;
beforeAll(async () => {
  // The contract's exact quotas, so that a 429 is cheap to provoke.
  test = await createTestApp({
    metricsToken: TOKEN,
    services: { rateLimits: createMemoryRateLimits() },
  });
});
afterAll(() => test.close());

async function scrape() {
  const res = await test.app.request("/metrics", { headers: auth });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  return parsePrometheus(await res.text());
}

describe("GET /metrics with the token", () => {
  it("is a valid exposition with every family declared", async () => {
    const metrics = await scrape();
    for (const [name, type] of [
      ["http_requests_total", "counter"],
      ["http_request_duration_seconds", "histogram"],
      ["http_requests_in_flight", "gauge"],
      ["rate_limit_rejections_total", "counter"],
      ["embedding_queue_depth", "gauge"],
      ["embedding_chunks_total", "counter"],
      ["embedder_request_duration_seconds", "histogram"],
      ["embedder_errors_total", "counter"],
      ["db_pool_max_connections", "gauge"],
    ] as const) {
      expect(metrics.types.get(name), name).toBe(type);
    }
    // node-postgres reports its pool; PGlite is a single connection.
    const max = metrics.value("db_pool_max_connections") ?? 0;
    expect(max).toBeGreaterThanOrEqual(1);
    expect(metrics.value("db_pool_connections")).toBeLessThanOrEqual(max);
    if (process.env.TEST_DATABASE_URL) {
      expect(metrics.value("db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
      expect(metrics.value("db_pool_waiting_clients")).toBe(0);
    } else {
      expect(max).toBe(1);
      expect(metrics.value("db_pool_idle_connections")).toBeUndefined();
    }
    // The scrape itself is the request in flight.
    expect(metrics.value("http_requests_in_flight")).toBe(1);
    for (const bucket of ["reads", "search", "writes", "comments", "reviews"]) {
      expect(metrics.value("rate_limit_rejections_total", { bucket }), bucket).toBe(0);
    }
  });

  it("counts requests by method, route pattern and status, never by raw path", async () => {
    const paper = await publishPaper(test.ctx);
    const route = { method: "GET", route: "/api/v1/papers/:id" };
    const before = await scrape();
    const ok = before.value("http_requests_total", { ...route, status: "200" }) ?? 0;
    const missing = before.value("http_requests_total", { ...route, status: "404" }) ?? 0;

    expect((await test.app.request(`/api/v1/papers/${paper.paper_id}`)).status).toBe(200);
    expect((await test.app.request("/api/v1/papers/2611.99999")).status).toBe(404);
    expect((await test.app.request("/api/v1/papers/2611.99998")).status).toBe(404);
    expect((await test.app.request("/no/such/page/4711")).status).toBe(404);
    expect(
      (await test.app.request(`/api/v1/papers/${paper.paper_id}`, { method: "HEAD" })).status,
    ).toBe(200);

    const after = await scrape();
    expect(after.value("http_requests_total", { ...route, status: "200" })).toBe(ok + 1);
    expect(after.value("http_requests_total", { ...route, status: "404" })).toBe(missing + 2);
    expect(
      after.value("http_requests_total", {
        method: "HEAD",
        route: "/api/v1/papers/:id",
        status: "200",
      }),
    ).toBe(1);
    expect(
      after.value("http_requests_total", { method: "GET", route: "unmatched", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    // The histogram counts the same requests.
    expect(after.value("http_request_duration_seconds_count", { ...route, status: "404" })).toBe(
      missing + 2,
    );
    const inf = after.value("http_request_duration_seconds_bucket", {
      ...route,
      status: "404",
      le: "+Inf",
    });
    expect(inf).toBe(missing + 2);
    // Bounded labels: no raw path, id or query string anywhere.
    const values = after.samples.flatMap((s) => Object.values(s.labels));
    for (const raw of [paper.paper_id, "2611.99999", "/no/such/page/4711"]) {
      expect(
        values.some((v) => v.includes(raw)),
        raw,
      ).toBe(false);
    }
    for (const s of after.find("http_requests_total")) {
      expect(
        s.labels.route === "unmatched" || s.labels.route?.startsWith("/"),
        s.labels.route,
      ).toBe(true);
    }
  });

  it("counts a 429 under its bucket", async () => {
    // `search` allows 30 a minute per client; every in-process request is one client.
    let refused = 0;
    for (let i = 0; i < 31; i++) {
      const res = await test.app.request("/api/v1/search/semantic?q=glacier&mode=lexical");
      if (res.status === 429) refused++;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBe(1);
    const metrics = await scrape();
    expect(metrics.value("rate_limit_rejections_total", { bucket: "search" })).toBe(1);
    expect(metrics.value("rate_limit_rejections_total", { bucket: "reads" })).toBe(0);
    expect(
      metrics.value("http_requests_total", {
        method: "GET",
        route: "/api/v1/search/semantic",
        status: "429",
      }),
    ).toBe(1);
  });
});

describe("the metrics port's app (METRICS_PORT)", () => {
  it("serves /metrics without a token when none is configured, and nothing else", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("GET", "/api/v1/papers", 200, 0.01);
    const app = buildMetricsApp({ metrics });
    const res = await app.request("/metrics");
    expect(res.status).toBe(200);
    const parsed = parsePrometheus(await res.text());
    expect(
      parsed.value("http_requests_total", {
        method: "GET",
        route: "/api/v1/papers",
        status: "200",
      }),
    ).toBe(1);
    expect((await app.request("/")).status).toBe(404);
    expect((await app.request("/api/v1/papers")).status).toBe(404);
    expect((await app.request("/metrics", { method: "POST" })).status).toBe(404);
  });
});
