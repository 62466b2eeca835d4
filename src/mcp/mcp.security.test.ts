/** @module /mcp at the HTTP level: keys, Origin, malformed messages, sizes; JSON-RPC errors only. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../app.ts";
import { agentIn, type TestAgent } from "../testing/agents.ts";
import { MCP_TOOL_NAMES, mcpClient, rpc, type ServedApp, serveTestApp } from "../testing/mcp.ts";

let served: ServedApp;
let verified: TestAgent;
let revoked: TestAgent;
const clients: Client[] = [];

beforeAll(async () => {
  served = await serveTestApp();
  verified = await agentIn(served.test.ctx, "verified");
  revoked = await agentIn(served.test.ctx, "revoked");
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await served?.close();
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

/** A JSON-RPC error body, never problem+json or HTML. */
async function rpcErrorOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe("2.0");
  expect(typeof body.error.code).toBe("number");
  return body.error;
}

describe("agent keys on /mcp", () => {
  it("reads work without a key; a good key works", async () => {
    const res = await rpc(served.url, initialize);
    expect(res.status).toBe(200);
    // A session id names the client's resource subscriptions; no instance holds memory of it.
    expect(res.headers.get("mcp-session-id")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const c = await mcpClient(served.url, verified.key);
    clients.push(c);
    expect((await c.listTools()).tools.length).toBe(MCP_TOOL_NAMES.length);
  });

  it("a bad, revoked or malformed key is HTTP 401 with WWW-Authenticate, as in REST", async () => {
    const cases: [string, RegExp][] = [
      ["Bearer quire_sk_notARealKeyAtAll", /invalid_(token|request)/],
      [`Bearer ${revoked.key}`, /error="invalid_token"/],
      ["Basic dXNlcjpwYXNz", /^Bearer realm="quire", resource_metadata="[^"]+"$/],
      ["Bearer", /error="invalid_request"/],
    ];
    for (const [authorization, challenge] of cases) {
      const res = await rpc(served.url, initialize, { authorization });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(challenge);
      const error = await rpcErrorOf(res);
      const secret = authorization.slice(7);
      if (secret) expect(error.message).not.toContain(secret);
    }
    // The SDK client surfaces the 401 instead of connecting anonymously.
    await expect(mcpClient(served.url, revoked.key)).rejects.toThrow();
  });

  it("a 401 names the real problem in error_description and points to the resource metadata", async () => {
    const metadata =
      'resource_metadata="http://quire.test/.well-known/oauth-protected-resource/mcp"';
    const cases: [string, string][] = [
      [`Bearer ${revoked.key}`, "The agent key has been revoked."],
      ["Bearer quire_sk_notARealKeyAtAll", "The bearer token is not an agent key:"],
      [
        `Bearer ${verified.key.slice(0, -1)}${verified.key.endsWith("x") ? "y" : "x"}`,
        "The agent key is not recognised.",
      ],
      ["Bearer", "The Authorization header has no key after 'Bearer'."],
    ];
    for (const [authorization, says] of cases) {
      const res = await rpc(served.url, initialize, { authorization });
      expect(res.status, authorization).toBe(401);
      const challenge = res.headers.get("www-authenticate") ?? "";
      expect(challenge).toContain(metadata);
      const description = /error_description="([^"]*)"/.exec(challenge)?.[1] ?? "";
      expect(description).toContain(says);
      // RFC 6750 §3: printable ASCII without quote or backslash.
      expect(description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
      expect(description).not.toContain(authorization.slice(7) || "\u0000");
    }
    const basic = await rpc(served.url, initialize, { authorization: "Basic dXNlcjpwYXNz" });
    expect(basic.headers.get("www-authenticate")).toBe(`Bearer realm="quire", ${metadata}`);
  });

  it("serves RFC 9728 metadata for /mcp at the suffixed and the bare well-known URL", async () => {
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const res = await fetch(new URL(path, served.url), { headers: { origin: "http://x.test" } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const doc = (await res.json()) as Record<string, unknown>;
      expect(doc.resource).toBe("http://quire.test/mcp");
      expect(doc.bearer_methods_supported).toEqual(["header"]);
    }
  });

  it("never logs a key", async () => {
    const c = await mcpClient(served.url, verified.key);
    clients.push(c);
    await c.callTool({ name: "whoami", arguments: {} });
    await rpc(served.url, initialize, { authorization: `Bearer ${revoked.key}` });
    const logged = JSON.stringify(served.test.logs);
    expect(logged).not.toContain(verified.key);
    expect(logged).not.toContain(revoked.key);
  });
});

describe("the JSON-RPC channel", () => {
  it("refuses a foreign Origin (DNS rebinding) and accepts the site's own", async () => {
    const foreign = await rpc(served.url, initialize, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await rpcErrorOf(foreign)).message).toMatch(/origin/i);
    const own = await rpc(served.url, initialize, { origin: "http://quire.test" });
    expect(own.status).toBe(200);
  });

  it("answers malformed messages with JSON-RPC errors", async () => {
    const bad = await rpc(served.url, "{not json");
    expect(bad.status).toBe(400);
    expect((await rpcErrorOf(bad)).code).toBe(-32700);

    const notRpc = await rpc(served.url, { hello: "world" });
    expect(notRpc.status).toBe(400);
    await rpcErrorOf(notRpc);

    const text = await rpc(served.url, JSON.stringify(initialize), {
      "content-type": "text/plain",
    });
    expect(text.status).toBe(415);
    await rpcErrorOf(text);

    const noAccept = await rpc(served.url, initialize, { accept: "text/html" });
    expect(noAccept.status).toBe(406);
    await rpcErrorOf(noAccept);

    const unknown = await rpc(served.url, { jsonrpc: "2.0", id: 7, method: "no/such/method" });
    const body = (await unknown.json()) as { id: number; error: { code: number } };
    expect(body).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it("GET without a key and PUT are 405, DELETE without a session 400: streams and sessions are an agent's", async () => {
    for (const [method, status] of [
      ["GET", 405],
      ["PUT", 405],
      ["DELETE", 400],
    ] as const) {
      const res = await fetch(`${served.url}/mcp`, {
        method,
        headers: { accept: "text/event-stream, text/html" },
      });
      expect(res.status, method).toBe(status);
      if (status === 405) expect(res.headers.get("allow")).toBe("GET, POST, DELETE");
      await rpcErrorOf(res);
    }
  });

  it("caps the body size", async () => {
    const huge = JSON.stringify({ ...initialize, pad: "x".repeat(MAX_BODY_BYTES) });
    const res = await rpc(served.url, huge);
    expect(res.status).toBe(413);
    await rpcErrorOf(res);
  });
});
