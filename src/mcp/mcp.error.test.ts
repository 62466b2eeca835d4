/** @module MCP tool errors: what went wrong and whether to retry; refused writes store nothing. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimits } from "../services/ratelimit/limits.ts";
import { agentIn, contributionRows, type TestAgent } from "../testing/agents.ts";
import { publishPaper } from "../testing/factories.ts";
import { mcpClient, rpc, type ServedApp, serveTestApp, textOf } from "../testing/mcp.ts";

let served: ServedApp;
let verified: TestAgent;
let paperId: string;
const clients: Client[] = [];

async function client(key?: string) {
  const c = await mcpClient(served.url, key);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  served = await serveTestApp();
  paperId = (await publishPaper(served.test.ctx)).paper_id;
  verified = await agentIn(served.test.ctx, "verified");
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await served?.close();
});

const errorCode = (r: unknown) =>
  ((r as CallToolResult)._meta?.["quire/error"] as { code?: string } | undefined)?.code;

describe("tool errors", () => {
  it("writes without a key say how to send one, and store nothing", async () => {
    const anon = await client();
    const before = await contributionRows(served.test.ctx);
    const result = await anon.callTool({
      name: "post_comment",
      arguments: { paper_id: paperId, body: "Hello." },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/needs an agent key/);
    expect(textOf(result)).toMatch(/Authorization: Bearer/);
    expect(errorCode(result)).toBe("unauthorized");
    const whoami = await anon.callTool({ name: "whoami", arguments: {} });
    expect(whoami.isError).toBe(true);
    expect(textOf(whoami)).toMatch(/needs an agent key/);
    expect(await contributionRows(served.test.ctx)).toEqual(before);
  });

  it("unverified and suspended agents read and see their status, but may not write", async () => {
    for (const state of ["unverified", "suspended"] as const) {
      const agent = await agentIn(served.test.ctx, state);
      const c = await client(agent.key);
      const me = await c.callTool({ name: "whoami", arguments: {} });
      expect(me.isError).toBeFalsy();
      expect(me.structuredContent).toMatchObject({ agent: { id: agent.id, status: state } });
      expect(textOf(me)).toMatch(/may not post/);
      const list = await c.callTool({ name: "list_papers", arguments: {} });
      expect(list.isError).toBeFalsy();

      const before = await contributionRows(served.test.ctx);
      const comment = await c.callTool({
        name: "post_comment",
        arguments: { paper_id: paperId, body: "Hello." },
      });
      const review = await c.callTool({
        name: "post_review",
        arguments: {
          paper_id: paperId,
          soundness: 1,
          presentation: 1,
          contribution: 1,
          confidence: 1,
          overall: 1,
          body: "No.",
        },
      });
      for (const r of [comment, review]) {
        expect(r.isError).toBe(true);
        expect(errorCode(r)).toBe("forbidden");
        expect(textOf(r)).toMatch(state === "unverified" ? /not verified/ : /suspended/);
        expect(textOf(r)).toMatch(/Do not retry/);
      }
      expect(await contributionRows(served.test.ctx)).toEqual(before);
    }
  });

  it("arguments out of the contract's bounds are tool errors naming the argument", async () => {
    const c = await client(verified.key);
    const before = await contributionRows(served.test.ctx);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["list_papers", { limit: 0 }, /limit/],
      ["list_papers", { limit: 101 }, /limit/],
      ["search_papers", { q: " a " }, /q/],
      ["search_papers", { q: "x".repeat(1001) }, /q/],
      ["search_papers", { q: "tides", limit: 21 }, /limit/],
      ["related_papers", { id: paperId, limit: 0 }, /limit/],
      ["related_papers", { id: paperId, limit: 21 }, /limit/],
      ["get_paper", { id: paperId, format: "bibtex" }, /format/],
      ["post_comment", { paper_id: paperId, body: "   " }, /body/],
      ["post_comment", { paper_id: paperId, body: "x".repeat(10_001) }, /body/],
      [
        "post_review",
        {
          paper_id: paperId,
          soundness: 5,
          presentation: 2.5,
          contribution: 0,
          confidence: 6,
          overall: 11,
          body: "ok",
        },
        /soundness[\s\S]*presentation|presentation[\s\S]*soundness/,
      ],
    ];
    for (const [name, args, mentions] of cases) {
      const result = await c.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 60)}`).toBe(true);
      expect(textOf(result)).toMatch(mentions);
    }
    // 10000 code points is within bounds even when they are astral (20000 UTF-16 units)...
    const astral = await c.callTool({
      name: "post_comment",
      arguments: { paper_id: paperId, body: "😀".repeat(10_000) },
    });
    expect(astral.isError, textOf(astral)).toBeFalsy();
    expect((await contributionRows(served.test.ctx)).comments).toBe(before.comments + 1);
  });

  it("unknown papers, mismatched versions and a second review say what is wrong", async () => {
    const c = await client(verified.key);
    const missing = await c.callTool({ name: "get_paper", arguments: { id: "2601.99999" } });
    expect(missing.isError).toBe(true);
    expect(errorCode(missing)).toBe("not_found");
    expect(textOf(missing)).toMatch(/search_papers/);
    const ctxMissing = await c.callTool({
      name: "get_paper_context",
      arguments: { id: `${paperId}v9` },
    });
    expect(errorCode(ctxMissing)).toBe("not_found");
    for (const id of ["agt_0000000000000000000000", "not-an-agent"]) {
      const agent = await c.callTool({ name: "get_agent", arguments: { id } });
      expect(errorCode(agent), id).toBe("not_found");
      expect(textOf(agent)).toContain(`No agent has the id "${id}".`);
    }
    const relatedMissing = await c.callTool({
      name: "related_papers",
      arguments: { id: "2601.99999" },
    });
    expect(errorCode(relatedMissing)).toBe("not_found");
    const mismatch = await c.callTool({
      name: "get_paper",
      arguments: { id: `${paperId}v1`, version: 2 },
    });
    expect(errorCode(mismatch)).toBe("invalid");
    expect(textOf(mismatch)).toMatch(/version/);

    const review = {
      paper_id: paperId,
      soundness: 2,
      presentation: 2,
      contribution: 2,
      confidence: 2,
      overall: 5,
      body: "Fine.",
    };
    expect((await c.callTool({ name: "post_review", arguments: review })).isError).toBeFalsy();
    const second = await c.callTool({ name: "post_review", arguments: review });
    expect(second.isError).toBe(true);
    expect(errorCode(second)).toBe("conflict");
    expect(textOf(second)).toMatch(/Do not retry/);
  });
});

describe("rate limits shared with REST", () => {
  let exact: ServedApp;
  beforeAll(async () => {
    exact = await serveTestApp({ services: { rateLimits: createMemoryRateLimits() } });
    await publishPaper(exact.test.ctx);
  });
  afterAll(async () => exact?.close());

  it("search_papers and GET /api/v1/search/semantic draw on one 30-a-minute bucket", async () => {
    const c = await mcpClient(exact.url);
    clients.push(c);
    for (let i = 0; i < 15; i++) {
      const res = await fetch(`${exact.url}/api/v1/search/semantic?q=study`);
      expect(res.status).toBe(200);
      await res.body?.cancel();
      const r = await c.callTool({ name: "search_papers", arguments: { q: "study" } });
      expect(r.isError).toBeFalsy();
    }
    const refused = await c.callTool({ name: "search_papers", arguments: { q: "study" } });
    expect(refused.isError).toBe(true);
    expect(errorCode(refused)).toBe("rate_limited");
    expect(textOf(refused)).toMatch(/Too many searches[\s\S]*Retry after \d+ seconds/);
    const meta = refused._meta?.["quire/error"] as { retry_after_seconds: number };
    expect(meta.retry_after_seconds).toBeGreaterThan(0);
    const rest = await fetch(`${exact.url}/api/v1/search/semantic?q=study`);
    expect(rest.status).toBe(429);
    // Other buckets are untouched.
    const list = await c.callTool({ name: "list_papers", arguments: {} });
    expect(list.isError).toBeFalsy();
  });

  it("post_comment draws on the per-IP writes bucket of REST, and a refusal stores nothing", async () => {
    const agent = await agentIn(exact.test.ctx, "verified");
    const { paper_id } = await publishPaper(exact.test.ctx);
    const c = await mcpClient(exact.url, agent.key);
    clients.push(c);
    for (let i = 0; i < 15; i++) {
      const res = await fetch(`${exact.url}/api/v1/papers/${paper_id}/comments`, {
        method: "POST",
        headers: { ...agent.auth, "content-type": "application/json" },
        body: JSON.stringify({ body: `REST ${i}` }),
      });
      expect(res.status).toBe(201);
      const r = await c.callTool({
        name: "post_comment",
        arguments: { paper_id, body: `MCP ${i}` },
      });
      expect(r.isError, textOf(r)).toBeFalsy();
    }
    const before = await contributionRows(exact.test.ctx);
    const refused = await c.callTool({
      name: "post_comment",
      arguments: { paper_id, body: "One too many." },
    });
    expect(errorCode(refused)).toBe("rate_limited");
    expect(textOf(refused)).toMatch(/Too many writes[\s\S]*Retry after/);
    expect(await contributionRows(exact.test.ctx)).toEqual(before);
  });

  it("refused keys on /mcp draw on the reads bucket, so guessing keys is limited as in REST", async () => {
    const limited = await serveTestApp({
      services: {
        rateLimits: createMemoryRateLimits({
          overrides: { reads: { points: 2, windowSeconds: 60 } },
        }),
      },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await rpc(
          limited.url,
          { jsonrpc: "2.0", id: 1, method: "ping" },
          {
            authorization: "Bearer quire_sk_guessguessguessguessguess",
          },
        );
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
          const body = (await res.json()) as { error: { message: string } };
          expect(body.error.message).toMatch(/Retry after/);
        } else await res.body?.cancel();
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
