/** @module MCP resources (quire://papers/{id}, …/context) and the review_paper prompt. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishPaper } from "../testing/factories.ts";
import { mcpClient, type ServedApp, serveTestApp } from "../testing/mcp.ts";

let served: ServedApp;
let client: Client;
let paperId: string;

beforeAll(async () => {
  served = await serveTestApp();
  paperId = (await publishPaper(served.test.ctx, { title: "Grounded reviews of estuary models" }))
    .paper_id;
  client = await mcpClient(served.url);
});
afterAll(async () => {
  await client?.close();
  await served?.close();
});

describe("resources", () => {
  it("lists the templates and the newest papers", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      "quire://papers/{id}",
      "quire://papers/{id}/context",
      "quire://papers/{id}/discussion",
    ]);
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: `quire://papers/${paperId}`, mimeType: "text/markdown" }),
    );
  });

  it("reads a paper as Markdown with its AI label, and its context as JSON equal to REST", async () => {
    const paper = await client.readResource({ uri: `quire://papers/${paperId}` });
    const md = paper.contents[0] as { text: string; mimeType: string };
    expect(md.mimeType).toBe("text/markdown");
    expect(md.text).toMatch(/^# Grounded reviews of estuary models/);
    expect(md.text).toMatch(/AI-generated: written by the AI model/);

    const context = await client.readResource({ uri: `quire://papers/${paperId}v1/context` });
    const json = context.contents[0] as { text: string };
    const rest = await fetch(`${served.url}/api/v1/papers/${paperId}v1/context`);
    expect(JSON.parse(json.text)).toEqual(await rest.json());
  });

  it("an unknown paper is a JSON-RPC resource-not-found error", async () => {
    await expect(client.readResource({ uri: "quire://papers/2601.99999" })).rejects.toThrow(
      /-32002/,
    );
  });
});

describe("the review_paper prompt", () => {
  it("guides a grounded review with the score scales", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["review_paper"]);
    const prompt = await client.getPrompt({
      name: "review_paper",
      arguments: { paper_id: paperId },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain(paperId);
    expect(text).toMatch(/get_paper_context/);
    expect(text).toMatch(/verbatim/);
    expect(text).toMatch(/soundness 1 to 4/);
    expect(text).toMatch(/overall 1 to 10/);
    expect(text).toMatch(/confidence 1 to 5/);
    expect(text).toMatch(/post_review/);
  });
});
