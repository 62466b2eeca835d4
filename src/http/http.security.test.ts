/** @module App-wide security behaviour: client address, secrets in logs, reflected input. */
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/app.ts";
import { makeAgent, makeOwner } from "../testing/factories.ts";

/** The app behind a real loopback socket, so the peer address is 127.0.0.1, as in production. */
interface Served {
  test: TestApp;
  server: ServerType;
  url: string;
}

async function serveOnLoopback(trustProxy: string[]): Promise<Served> {
  const test = await createTestApp({ trustProxy });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: test.app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { test, server, url: `http://127.0.0.1:${port}` };
}

async function stop(served: Served | undefined) {
  if (!served) return;
  await new Promise<void>((resolve) => {
    served.server.close(() => resolve());
    if ("closeAllConnections" in served.server) served.server.closeAllConnections();
  });
  await served.test.close();
}

/** The access-log line of one response, found by its request id. */
function accessLog(test: TestApp, res: Response): Record<string, unknown> {
  const id = res.headers.get("x-request-id");
  expect(id).toBeTruthy();
  const line = test.logs.find((l) => l.request_id === id && l.msg === "request");
  expect(line, `no access log for ${id}`).toBeDefined();
  return line as Record<string, unknown>;
}

const SPOOFED = "203.0.113.66";

let behindProxy: Served | undefined;
let direct: Served | undefined;

beforeAll(async () => {
  behindProxy = await serveOnLoopback(["127.0.0.1", "10.0.0.0/8"]);
  direct = await serveOnLoopback(["10.0.0.0/8"]);
});
afterAll(async () => {
  await stop(behindProxy);
  await stop(direct);
});

describe("client address", () => {
  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const served = direct as Served;
    const res = await fetch(`${served.url}/api/v1/papers`, {
      headers: { "x-forwarded-for": SPOOFED },
    });
    expect(res.status).toBe(200);
    const log = accessLog(served.test, res);
    expect(log.ip).toBe("127.0.0.1");
    expect(JSON.stringify(log)).not.toContain(SPOOFED);
  });

  it("honours X-Forwarded-For from a trusted proxy, reading hops right to left", async () => {
    const served = behindProxy as Served;
    const single = await fetch(`${served.url}/api/v1/papers`, {
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    expect(accessLog(served.test, single).ip).toBe("198.51.100.7");

    const chained = await fetch(`${served.url}/api/v1/papers`, {
      headers: { "x-forwarded-for": `${SPOOFED}, 198.51.100.7, 10.1.2.3` },
    });
    expect(accessLog(served.test, chained).ip).toBe("198.51.100.7");

    const none = await fetch(`${served.url}/api/v1/papers`);
    expect(accessLog(served.test, none).ip).toBe("127.0.0.1");
  });

  it("does not trust X-Forwarded-For in-process, where there is no socket peer", async () => {
    const { test } = behindProxy as Served;
    const res = await test.app.request("/api/v1/papers", {
      headers: { "x-forwarded-for": SPOOFED },
    });
    expect(res.status).toBe(200);
    expect(accessLog(test, res).ip).toBe("unknown");
  });
});

describe("secrets in logs", () => {
  it("never writes an agent key to the logs", async () => {
    const served = direct as Served;
    const { test } = served;
    const owner = await makeOwner(test.ctx);
    const agent = await makeAgent(test.ctx, owner.handle);
    const secrets = [agent.key, "quire_sk_secretSECRETsecret0123456789abcdefABCDEF"];
    expect(agent.key).toMatch(/^quire_sk_/);

    const responses: Response[] = [];
    for (const key of secrets) {
      const auth = { authorization: `Bearer ${key}` };
      responses.push(await test.app.request("/api/v1/me", { headers: auth }));
      responses.push(await test.app.request("/api/v1/papers", { headers: auth }));
      responses.push(await test.app.request(`/api/v1/papers?api_key=${key}`));
      responses.push(
        await test.app.request("/api/v1/papers/2611.00001/comments", {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ body: "A comment." }),
        }),
      );
      responses.push(await fetch(`${served.url}/api/v1/me`, { headers: auth }));
    }
    for (const res of responses) accessLog(test, res);
    const written = JSON.stringify(test.logs);
    for (const key of secrets) {
      expect(written).not.toContain(key);
      expect(written).not.toContain(key.slice("quire_sk_".length));
    }
    expect(written.toLowerCase()).not.toContain("bearer");
  });

  it("never writes a password, session cookie, Authorization header or metrics token", async () => {
    const served = direct as Served;
    const { test } = served;
    const password = "correct horse battery staple 42";
    const session = "s3ss10n-t0k3n-4f9a0c7e1b2d3e4f5a6b7c8d9e0f";
    const metricsToken = "m3tr1cs-t0k3n-0123456789abcdef";
    const basic = Buffer.from(`alice:${password}`).toString("base64");
    const headers = {
      authorization: `Basic ${basic}`,
      cookie: `quire_session=${session}; __Host-quire_session=${session}`,
    };
    const responses: Response[] = [];
    for (const path of ["/api/v1/me", "/api/v1/papers", "/agents", "/sign-in", "/metrics"]) {
      responses.push(await fetch(`${served.url}${path}`, { headers }));
      responses.push(await test.app.request(path, { headers }));
    }
    responses.push(
      await fetch(`${served.url}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      }),
    );
    responses.push(
      await fetch(`${served.url}/sign-in`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: "alice@example.org", password }).toString(),
      }),
    );
    for (const res of responses) accessLog(test, res);
    const written = JSON.stringify(test.logs);
    for (const secret of [password, session, metricsToken, basic, "quire_session"]) {
      expect(written).not.toContain(secret);
    }
    expect(written.toLowerCase()).not.toMatch(/basic |bearer |"cookie"|"authorization"/);
  });
});

describe("reflected input", () => {
  it.each([
    ["/api/v1/papers/<script>alert(1)</script>"],
    ["/api/v1/papers/%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
    ["/api/v1/papers/%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"],
    ["/api/v1/papers/<script>/context"],
    ["/api/v1/<svg onload=alert(1)>"],
  ])("answers %s with a JSON problem, never HTML", async (path) => {
    const { test } = direct as Served;
    const res = await test.app.request(path, { headers: { accept: "text/html,*/*" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const text = await res.text();
    const body = JSON.parse(text) as { status: number; detail: string };
    expect(body.status).toBe(404);
    expect(text).not.toMatch(/<!doctype|<html/i);
  });

  it("replaces a client X-Request-Id that could forge log lines", async () => {
    const { test } = direct as Served;
    for (const forged of ["<script>", "a b", "x".repeat(300), 'id","level":60']) {
      const res = await test.app.request("/api/v1/papers/2611.99999", {
        headers: { "x-request-id": forged },
      });
      const id = res.headers.get("x-request-id");
      expect(id).not.toBe(forged);
      expect(id).toMatch(/^[\w-]{1,255}$/);
      expect(((await res.json()) as { request_id: string }).request_id).toBe(id);
      expect(accessLog(test, res).request_id).toBe(id);
      expect(test.logs.some((l) => l.request_id === forged)).toBe(false);
    }
  });
});
