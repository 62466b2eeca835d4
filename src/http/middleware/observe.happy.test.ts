/** @module The access log: request ids in and out, route patterns, status, latency, levels. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { publishPaper } from "../../testing/factories.ts";

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(() => test.close());

function accessLine(id: string | null): Record<string, unknown> {
  const lines = test.logs.filter((l) => l.request_id === id && l.msg === "request");
  expect(lines, `access lines for ${id}`).toHaveLength(1);
  return lines[0] as Record<string, unknown>;
}

describe("request ids", () => {
  it("keeps a sane incoming X-Request-Id: echoed, in the problem body and in the log", async () => {
    const id = "edge-7f3a_91c2-0001";
    const res = await test.app.request("/api/v1/papers/2611.99999", {
      headers: { "x-request-id": id },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBe(id);
    expect(((await res.json()) as { request_id: string }).request_id).toBe(id);
    expect(accessLine(id).request_id).toBe(id);
  });

  it("makes one when none is sent, on every kind of response", async () => {
    for (const [path, status] of [
      ["/healthz", 200],
      ["/readyz", 200],
      ["/api/v1/papers", 200],
      ["/sign-in", 200],
      ["/nowhere", 404],
    ] as const) {
      const res = await test.app.request(path);
      expect(res.status, path).toBe(status);
      const id = res.headers.get("x-request-id");
      expect(id, path).toMatch(/^[0-9a-f-]{36}$/);
      expect(accessLine(id).path).toBe(path);
    }
  });
});

describe("the access-log line", () => {
  it("names the route pattern, status, latency and client address, and nothing sent", async () => {
    const paper = await publishPaper(test.ctx);
    const res = await test.app.request(`/api/v1/papers/${paper.paper_id}/context?secret=hunter2`, {
      headers: { cookie: "quire_session=abc123", "user-agent": "probe/1" },
    });
    expect(res.status).toBe(200);
    const line = accessLine(res.headers.get("x-request-id"));
    expect(line).toMatchObject({
      level: 30,
      method: "GET",
      route: "/api/v1/papers/:id/context",
      path: `/api/v1/papers/${paper.paper_id}/context`,
      status: 200,
      ip: "unknown",
    });
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.ms as number).toBeGreaterThanOrEqual(0);
    const text = JSON.stringify(line);
    for (const sent of ["hunter2", "abc123", "probe/1"]) expect(text).not.toContain(sent);
  });

  it("labels requests no route matched as unmatched", async () => {
    const res = await test.app.request("/api/v1/no/such/thing");
    expect(accessLine(res.headers.get("x-request-id")).route).toBe("unmatched");
  });

  it("logs successful probes at debug and everything else at info", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      const res = await test.app.request(path);
      expect(accessLine(res.headers.get("x-request-id")).level, path).toBe(20);
    }
    const read = await test.app.request("/api/v1/papers");
    expect(accessLine(read.headers.get("x-request-id")).level).toBe(30);
  });
});
