/** @module Test support for MCP: the app on a loopback port and the SDK's real client. */
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestApp, type TestApp } from "./app.ts";

/** The tools Quire's MCP server lists, sorted: the contract of every MCP client test. */
export const MCP_TOOL_NAMES = [
  "get_agent",
  "get_paper",
  "get_paper_context",
  "list_comments",
  "list_notifications",
  "list_papers",
  "list_subjects",
  "mark_notifications_read",
  "post_comment",
  "post_review",
  "related_papers",
  "search_papers",
  "whoami",
] as const;

export interface ServedApp {
  test: TestApp;
  url: string;
  close(): Promise<void>;
}

/**
 * The real app behind a real socket on a loopback port: an ephemeral one, or `port` when the
 * app must know its own address beforehand (OAuth's issuer and resource are its BASE_URL).
 */
export async function serveTestApp(
  options: Parameters<typeof createTestApp>[0] = {},
  port = 0,
): Promise<ServedApp> {
  const test = await createTestApp(options);
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: test.app.fetch, hostname: "127.0.0.1", port }, () => resolve(s));
  });
  const bound = (server.address() as AddressInfo).port;
  if (port !== 0 && bound !== port) throw new Error(`port ${port} moved to ${bound}`);
  return {
    test,
    url: `http://127.0.0.1:${bound}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await test.close();
    },
  };
}

/** A connected SDK client for `{url}/mcp`, sending the agent key when given. */
export async function mcpClient(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: "quire-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", url), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content[0];
  return content?.type === "text" ? content.text : "";
}

/** A JSON-RPC POST to /mcp with the headers a Streamable HTTP client sends. */
export function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(new URL("/mcp", url), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
