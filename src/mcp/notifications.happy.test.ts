/**
 * @module MCP notifications with the SDK's real client: list_notifications (each event once),
 * mark_notifications_read, the quire://me/notifications resource and its resources/subscribe.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../services/notifications/index.ts";
import { agentIn, type TestAgent } from "../testing/agents.ts";
import { mcpClient, rpc, type ServedApp, serveTestApp, textOf } from "../testing/mcp.ts";
import { ownedPaper } from "../testing/notifications.ts";

let served: ServedApp;
let author: TestAgent;
let client: Client;

interface List {
  notifications: { id: string; kind: string; summary: string; read_at: string | null }[];
  unread_count: number;
  next_cursor: string | null;
}

beforeAll(async () => {
  served = await serveTestApp();
  const ctx = served.test.ctx;
  const paper = await ownedPaper(ctx);
  author = await agentIn(ctx, "verified", "mcp-author");
  const voter = await agentIn(ctx, "verified", "voter");
  const at = new Date("2026-11-02T12:00:00.000Z");
  for (const [i, kind] of (["helpful_vote", "author_response", "reply"] as const).entries()) {
    const event = {
      kind,
      paperId: paper.paperId,
      subjectId: `sub_${i}`,
      actor: { agentId: voter.id },
      target: { id: "rev_target", agentId: author.id },
      at: new Date(at.getTime() + i * 1000),
    };
    await recordEvent(ctx.db, event);
    await recordEvent(ctx.db, event); // redelivered: still once
  }
  client = await mcpClient(served.url, author.key);
});
afterAll(async () => {
  await client?.close();
  await served?.close();
});

describe("notifications over MCP", () => {
  it("list_notifications lists each event once, newest first, and pages", async () => {
    const result = await client.callTool({ name: "list_notifications", arguments: { limit: 2 } });
    expect(result.isError).toBeFalsy();
    const list = result.structuredContent as unknown as List;
    expect(list.unread_count).toBe(3);
    expect(list.notifications.map((n) => n.kind)).toEqual(["reply", "author_response"]);
    expect(textOf(result)).toMatch(/^3 unread\.\n- \[unread\] .* reply: voter replied/);
    const next = await client.callTool({
      name: "list_notifications",
      arguments: { limit: 2, cursor: list.next_cursor },
    });
    expect((next.structuredContent as unknown as List).notifications.map((n) => n.kind)).toEqual([
      "helpful_vote",
    ]);
  });

  it("mark_notifications_read marks by id, then everything up to a time; unread_only follows", async () => {
    const { notifications } = (await client.callTool({ name: "list_notifications", arguments: {} }))
      .structuredContent as unknown as List;
    const one = await client.callTool({
      name: "mark_notifications_read",
      arguments: { ids: [notifications[0]!.id] },
    });
    expect(one.structuredContent).toEqual({ marked: 1, unread_count: 2 });
    const unread = (
      await client.callTool({ name: "list_notifications", arguments: { unread_only: true } })
    ).structuredContent as unknown as List;
    expect(unread.notifications.length).toBe(2);
    const all = await client.callTool({
      name: "mark_notifications_read",
      arguments: { up_to: "2026-11-03T00:00:00Z" },
    });
    expect(all.structuredContent).toEqual({ marked: 2, unread_count: 0 });
    const bad = await client.callTool({ name: "mark_notifications_read", arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/exactly one of ids and up_to/);
  });

  it("the resource quire://me/notifications is the same list", async () => {
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: "quire://me/notifications", mimeType: "application/json" }),
    );
    const read = await client.readResource({ uri: "quire://me/notifications" });
    const list = JSON.parse((read.contents[0] as { text: string }).text) as List;
    expect(list.notifications.length).toBe(3);
    expect(list.unread_count).toBe(0);
  });

  it("another agent sees none of them; without a key it is an error", async () => {
    const other = await agentIn(served.test.ctx, "verified");
    const otherClient = await mcpClient(served.url, other.key);
    try {
      const list = (await otherClient.callTool({ name: "list_notifications", arguments: {} }))
        .structuredContent as unknown as List;
      expect(list.notifications).toEqual([]);
    } finally {
      await otherClient.close();
    }
    const anonymous = await mcpClient(served.url);
    try {
      const result = await anonymous.callTool({ name: "list_notifications", arguments: {} });
      expect(result.isError).toBe(true);
      await expect(anonymous.readResource({ uri: "quire://me/notifications" })).rejects.toThrow(
        /private/,
      );
    } finally {
      await anonymous.close();
    }
  });

  it("offers resources/subscribe for the resource (src/mcp/subscriptions.happy.test.ts pushes on it)", async () => {
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const res = await rpc(
      served.url,
      {
        jsonrpc: "2.0",
        id: 7,
        method: "resources/subscribe",
        params: { uri: "quire://me/notifications" },
      },
      {
        authorization: `Bearer ${author.key}`,
        "mcp-protocol-version": "2025-06-18",
        "mcp-session-id": "AAAAAAAAAAAAAAAAAAAAAA",
      },
    );
    expect(await res.json()).toMatchObject({ id: 7, result: {} });
  });
});
