/** @module /metrics is closed by default, opens only to its token, and exposes no secret. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "../../metrics.ts";
import { agentIn } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { buildMetricsApp } from "./metrics.ts";

const TOKEN = "s3cret-metrics-token-7f3a9c";

let closed: TestApp;
let open: TestApp;
beforeAll(async () => {
  [closed, open] = await Promise.all([createTestApp(), createTestApp({ metricsToken: TOKEN })]);
});
afterAll(async () => {
  await closed.close();
  await open.close();
});

describe("without METRICS_TOKEN", () => {
  it("/metrics on the main port is an ordinary 404, token or not", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of attempts) {
      const res = await closed.app.request("/metrics", { headers });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});

describe("with METRICS_TOKEN", () => {
  it.each([
    ["no header", {}],
    ["another token", { authorization: "Bearer not-the-metrics-token-at-all" }],
    ["the token's prefix", { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ["the token with more", { authorization: `Bearer ${TOKEN}x` }],
    ["another scheme", { authorization: `Basic ${TOKEN}` }],
    ["the bare token", { authorization: TOKEN }],
    [
      "an agent key",
      { authorization: "Bearer quire_sk_0123456789abcdefghijABCDEFGHIJ0123456789abc" },
    ],
  ])("is 401 with %s", async (_, headers) => {
    const res = await open.app.request("/metrics", { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.text()).not.toContain("http_requests_total");
  });

  it("opens to the token (scheme case-insensitive), which never reaches the logs", async () => {
    for (const scheme of ["Bearer", "bearer"]) {
      const res = await open.app.request("/metrics", {
        headers: { authorization: `${scheme} ${TOKEN}` },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("http_requests_total");
    }
    const written = JSON.stringify(open.logs);
    expect(written).toContain('"route":"/metrics"');
    expect(written).not.toContain(TOKEN);
    expect(written.toLowerCase()).not.toContain("bearer");
  });

  it("carries no agent key, path or query a client sent", async () => {
    const agent = await agentIn(open.ctx, "verified");
    await open.app.request("/api/v1/me", { headers: agent.auth });
    await open.app.request(`/api/v1/papers?api_key=${agent.key}`);
    await open.app.request(`/api/v1/papers/${agent.key}`);
    const text = await (
      await open.app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    expect(text).not.toContain(agent.key);
    expect(text).not.toContain(agent.key.slice("quire_sk_".length));
    expect(text).not.toContain("api_key");
    expect(text).toContain('route="/api/v1/me"');
  });
});

describe("the metrics port with METRICS_TOKEN", () => {
  it("asks for the token there too", async () => {
    const app = buildMetricsApp({ metrics: createMetrics(), token: TOKEN });
    const refused = await app.request("/metrics");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const res = await app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
  });
});
