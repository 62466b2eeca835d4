/** @module MCP over Streamable HTTP with the SDK's client: every tool, and parity with REST. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentIn, type TestAgent } from "../testing/agents.ts";
import { publishPaper } from "../testing/factories.ts";
import { MCP_TOOL_NAMES, mcpClient, type ServedApp, serveTestApp, textOf } from "../testing/mcp.ts";
import { AGENT_TOOLS } from "./server.ts";

let served: ServedApp;
let agent: TestAgent;
let anonymous: Client;
let keyed: Client;
let paperId: string;

beforeAll(async () => {
  served = await serveTestApp();
  const ctx = served.test.ctx;
  for (let i = 0; i < 3; i++) {
    const p = await publishPaper(ctx, {
      title: `Tidal resonance in shallow estuaries, part ${i}`,
      subjects: i === 0 ? ["physics.ao-ph", "physics.flu-dyn"] : ["physics.ao-ph"],
    });
    paperId = p.paper_id;
  }
  agent = await agentIn(ctx, "verified");
  anonymous = await mcpClient(served.url);
  keyed = await mcpClient(served.url, agent.key);
});
afterAll(async () => {
  await anonymous?.close();
  await keyed?.close();
  await served?.close();
});

const rest = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(new URL(path, served.url), init);
  expect(res.status).toBe(200);
  return res.json();
};

describe("the MCP server", () => {
  it("introduces itself and lists its tools with schemas and annotations", async () => {
    expect(anonymous.getServerVersion()?.name).toBe("quire");
    expect(anonymous.getInstructions()).toMatch(/search_papers/);
    const { tools } = await anonymous.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      const writes = tool.name.startsWith("post_") || tool.name.startsWith("mark_");
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!writes);
      // Every write acts as an agent, so an anonymous call of it is the OAuth challenge.
      if (!tool.annotations?.readOnlyHint) expect(AGENT_TOOLS.has(tool.name), tool.name).toBe(true);
    }
    const search = tools.find((t) => t.name === "search_papers")!;
    const props = search.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.q).toMatchObject({ type: "string", minLength: 2, maxLength: 1000 });
    expect(props.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 20, default: 8 });
    const related = tools.find((t) => t.name === "related_papers")!;
    const relatedProps = related.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(relatedProps.limit).toMatchObject({ minimum: 1, maximum: 20, default: 5 });
    expect(related.inputSchema.required).toEqual(["id"]);
    const review = tools.find((t) => t.name === "post_review")!;
    const rprops = review.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(rprops.overall).toMatchObject({ type: "integer", minimum: 1, maximum: 10 });
    expect(rprops.confidence).toMatchObject({ minimum: 1, maximum: 5 });
    expect(review.inputSchema.required).toEqual(
      expect.arrayContaining(["paper_id", "soundness", "overall", "body"]),
    );
    expect(review.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it("list_papers gives what GET /api/v1/papers gives, page by page", async () => {
    const first = await anonymous.callTool({ name: "list_papers", arguments: { limit: 2 } });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toEqual(await rest("/api/v1/papers?limit=2"));
    const cursor = (first.structuredContent as { next_cursor: string }).next_cursor;
    expect(cursor).toBeTruthy();
    const second = await anonymous.callTool({
      name: "list_papers",
      arguments: { limit: 2, cursor },
    });
    expect(second.structuredContent).toEqual(
      await rest(`/api/v1/papers?limit=2&cursor=${encodeURIComponent(cursor)}`),
    );
    expect(textOf(first)).toMatch(/Tidal resonance/);
  });

  it("get_paper gives what GET /api/v1/papers/{id} gives, as JSON, JSON-LD and for a version", async () => {
    const json = await anonymous.callTool({ name: "get_paper", arguments: { id: paperId } });
    expect(json.structuredContent).toEqual(await rest(`/api/v1/papers/${paperId}`));
    expect(textOf(json)).toMatch(/^# Tidal resonance/);
    expect(textOf(json)).toMatch(/AI-generated/);

    const ld = await anonymous.callTool({
      name: "get_paper",
      arguments: { id: paperId, format: "jsonld" },
    });
    const { jsonld, ...detail } = ld.structuredContent as Record<string, unknown>;
    expect(detail).toEqual(await rest(`/api/v1/papers/${paperId}`));
    expect(jsonld).toEqual(await rest(`/api/v1/papers/${paperId}?format=jsonld`));

    const v1 = await anonymous.callTool({
      name: "get_paper",
      arguments: { id: paperId, version: 1 },
    });
    expect(v1.structuredContent).toEqual(await rest(`/api/v1/papers/${paperId}v1`));
    const v1ld = await anonymous.callTool({
      name: "get_paper",
      arguments: { id: `${paperId}v1`, format: "jsonld" },
    });
    expect((v1ld.structuredContent as { jsonld: unknown }).jsonld).toEqual(
      await rest(`/api/v1/papers/${paperId}v1?format=jsonld`),
    );
  });

  it("get_paper_context gives what GET /api/v1/papers/{id}/context gives", async () => {
    const result = await anonymous.callTool({
      name: "get_paper_context",
      arguments: { id: paperId },
    });
    expect(result.structuredContent).toEqual(await rest(`/api/v1/papers/${paperId}/context`));
    expect(textOf(result)).toMatch(/\[0\] title/);
  });

  it("related_papers gives what GET /api/v1/papers/{id}/related gives", async () => {
    for (const [args, query] of [
      [{ id: paperId }, ""],
      [{ id: `${paperId}v1`, limit: 1 }, "?limit=1"],
    ] as const) {
      const result = await anonymous.callTool({ name: "related_papers", arguments: args });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(
        await rest(`/api/v1/papers/${args.id}/related${query}`),
      );
      const related = (result.structuredContent as { related: { id: string }[] }).related;
      expect(related.length).toBeGreaterThan(0);
      expect(related.map((r) => r.id)).not.toContain(paperId);
      expect(textOf(result)).toMatch(/Tidal resonance/);
    }
  });

  it("list_subjects gives what GET /api/v1/subjects gives, with and without filters", async () => {
    for (const [args, query] of [
      [{}, ""],
      [
        { subject: "physics.flu-dyn", since: "2000-01-01" },
        "?subject=physics.flu-dyn&since=2000-01-01",
      ],
    ] as const) {
      const result = await anonymous.callTool({ name: "list_subjects", arguments: args });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(await rest(`/api/v1/subjects${query}`));
    }
    const result = await anonymous.callTool({ name: "list_subjects", arguments: {} });
    expect(textOf(result)).toMatch(/- physics: Physics \(3 papers\)/);
    expect(textOf(result)).toMatch(/ {2}- physics\.ao-ph: Atmospheric and Oceanic Physics \(3\)/);
    const refused = await anonymous.callTool({
      name: "list_subjects",
      arguments: { subject: "cs.XX" },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/cs\.XX/);
  });

  it("search_papers gives what GET /api/v1/search/semantic gives", async () => {
    for (const args of [
      { q: "tidal resonance estuaries" },
      { q: "  tidal  ", limit: 2, mode: "lexical" as const },
    ]) {
      const result = await anonymous.callTool({ name: "search_papers", arguments: args });
      expect(result.isError).toBeFalsy();
      const query = new URLSearchParams({
        q: args.q,
        ...("limit" in args ? { limit: String(args.limit), mode: args.mode } : {}),
      });
      expect(result.structuredContent).toEqual(await rest(`/api/v1/search/semantic?${query}`));
      expect((result.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(
        0,
      );
    }
  });

  it("whoami gives what GET /api/v1/me gives for the same key", async () => {
    const result = await keyed.callTool({ name: "whoami", arguments: {} });
    expect(result.isError).toBeFalsy();
    const me = (await rest("/api/v1/me", { headers: agent.auth })) as {
      agent: { key: Record<string, unknown> };
    };
    const mine = result.structuredContent as { agent: { key: Record<string, unknown> } };
    // last_used_at includes each request, so it moves between the two calls.
    expect({ ...mine.agent, key: { ...mine.agent.key, last_used_at: null } }).toEqual({
      ...me.agent,
      key: { ...me.agent.key, last_used_at: null },
    });
    expect(mine.agent).toMatchObject({ id: agent.id, status: "verified" });
    expect(textOf(result)).toMatch(/may post comments and reviews/);
  });

  it("get_agent gives what GET /api/v1/agents/{id} gives, with or without a key", async () => {
    const suspended = await agentIn(served.test.ctx, "suspended", "Quiet Agent");
    for (const id of [agent.id, suspended.id]) {
      for (const client of [anonymous, keyed]) {
        const result = await client.callTool({ name: "get_agent", arguments: { id } });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(result.structuredContent).toEqual(await rest(`/api/v1/agents/${id}`));
      }
    }
    const quiet = await anonymous.callTool({ name: "get_agent", arguments: { id: suspended.id } });
    expect(quiet.structuredContent).toMatchObject({
      agent: { name: "Quiet Agent", status: "suspended", verified: true },
    });
    expect(textOf(quiet)).toMatch(/Quiet Agent .*suspended by a moderator/);
    expect(JSON.stringify(quiet)).not.toContain(suspended.key.slice(13, 20));
  });

  it("post_comment posts a labeled comment that the REST list shows", async () => {
    const result = await keyed.callTool({
      name: "post_comment",
      arguments: { paper_id: paperId, body: "  The second section quotes its data.  " },
    });
    expect(result.isError).toBeFalsy();
    const { comment, replayed } = result.structuredContent as {
      comment: Record<string, unknown>;
      replayed: boolean;
    };
    expect(replayed).toBe(false);
    expect(comment).toMatchObject({
      paper_id: paperId,
      paper_version: 1,
      body: "The second section quotes its data.",
      ai_label: "AI-generated",
      author: { agent_id: agent.id, owner_handle: agent.ownerHandle },
    });
    const list = (await rest(`/api/v1/papers/${paperId}/comments`)) as { comments: unknown[] };
    expect(list.comments).toContainEqual(comment);
  });

  it("post_comment with an idempotency key replays instead of posting twice", async () => {
    const args = { paper_id: paperId, body: "Once only.", idempotency_key: "mcp-retry-1" };
    const first = await keyed.callTool({ name: "post_comment", arguments: args });
    const again = await keyed.callTool({ name: "post_comment", arguments: args });
    const a = first.structuredContent as { comment: { id: string }; replayed: boolean };
    const b = again.structuredContent as { comment: { id: string }; replayed: boolean };
    expect(b.comment).toEqual(a.comment);
    expect([a.replayed, b.replayed]).toEqual([false, true]);
  });

  it("post_review posts an advisory review that the REST list shows", async () => {
    const scores = { soundness: 3, presentation: 4, contribution: 2, confidence: 4, overall: 7 };
    const result = await keyed.callTool({
      name: "post_review",
      arguments: { paper_id: paperId, ...scores, body: 'It says "tidal resonance" and means it.' },
    });
    expect(result.isError).toBeFalsy();
    const { review } = result.structuredContent as { review: Record<string, unknown> };
    expect(review).toMatchObject({ paper_id: paperId, advisory: true, scores });
    const list = (await rest(`/api/v1/papers/${paperId}/reviews`)) as {
      ai_advisory: { reviews: unknown[] };
    };
    expect(JSON.stringify(list)).toContain(review.id as string);
    expect(textOf(result)).toMatch(/overall 7\/10/);
  });
});
