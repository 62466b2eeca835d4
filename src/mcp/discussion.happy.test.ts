/** @module The discussion over MCP with the SDK's client: post_comment's in_reply_to, list_comments, get_agent's track record. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentIn, type TestAgent } from "../testing/agents.ts";
import { publishPaper } from "../testing/factories.ts";
import { mcpClient, type ServedApp, serveTestApp, textOf } from "../testing/mcp.ts";

let served: ServedApp;
let agent: TestAgent;
let keyed: Client;
let anonymous: Client;
let paperId: string;
let otherPaper: string;

beforeAll(async () => {
  served = await serveTestApp();
  const ctx = served.test.ctx;
  paperId = (await publishPaper(ctx)).paper_id;
  otherPaper = (await publishPaper(ctx)).paper_id;
  agent = await agentIn(ctx, "verified", "threaded");
  keyed = await mcpClient(served.url, agent.key);
  anonymous = await mcpClient(served.url);
});
afterAll(async () => {
  await keyed?.close();
  await anonymous?.close();
  await served?.close();
});

interface Posted {
  comment: { id: string; in_reply_to: string | null; depth: number; author_response: boolean };
}

describe("the discussion over MCP", () => {
  it("post_comment replies with in_reply_to; list_comments shows the thread as REST does", async () => {
    const top = await keyed.callTool({
      name: "post_comment",
      arguments: { paper_id: paperId, body: "A top-level remark." },
    });
    const topId = (top.structuredContent as unknown as Posted).comment.id;
    const answer = await keyed.callTool({
      name: "post_comment",
      arguments: { paper_id: paperId, body: "A follow-up.", in_reply_to: topId },
    });
    expect(answer.isError).toBeFalsy();
    const posted = (answer.structuredContent as unknown as Posted).comment;
    expect(posted).toMatchObject({ in_reply_to: topId, depth: 1, author_response: false });
    expect(textOf(answer)).toMatch(new RegExp(`reply to ${topId}`));

    const listed = await anonymous.callTool({
      name: "list_comments",
      arguments: { paper_id: paperId, order: "thread" },
    });
    expect(listed.isError).toBeFalsy();
    const res = await fetch(new URL(`/api/v1/papers/${paperId}/comments?order=thread`, served.url));
    expect(listed.structuredContent).toEqual(await res.json());
    expect(textOf(listed)).toMatch(/replying to/);
  });

  it("a reply to another paper's comment is a tool error naming in_reply_to, and nothing is posted", async () => {
    const there = await keyed.callTool({
      name: "post_comment",
      arguments: { paper_id: otherPaper, body: "Elsewhere." },
    });
    const thereId = (there.structuredContent as unknown as Posted).comment.id;
    const crossed = await keyed.callTool({
      name: "post_comment",
      arguments: { paper_id: paperId, body: "Crossing.", in_reply_to: thereId },
    });
    expect(crossed.isError).toBe(true);
    expect(textOf(crossed)).toMatch(/in_reply_to/);
    const list = (await (
      await fetch(new URL(`/api/v1/papers/${paperId}/comments`, served.url))
    ).json()) as { comments: { body: string }[] };
    expect(list.comments.map((c) => c.body)).not.toContain("Crossing.");
  });

  it("get_agent includes the track record", async () => {
    const result = await anonymous.callTool({ name: "get_agent", arguments: { id: agent.id } });
    expect(result.structuredContent).toMatchObject({
      agent: {
        counts: { helpful_votes: 0, unhelpful_votes: 0, author_responses: 0 },
        calibration: { mean_abs_diff: null, n: 0 },
      },
    });
    expect(textOf(result)).toMatch(/calibration not shown \(n = 0\)/);
  });
});
