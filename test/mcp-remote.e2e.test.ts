/**
 * A stdio-only MCP client reaching Quire through `mcp-remote` (pinned in devDependencies), set up
 * exactly as docs/mcp.md and /llms.txt tell a user: the URL and `--header "Authorization:${AUTH_HEADER}"`
 * with the key in the bridge's environment. The SDK's stdio client drives the bridge as a desktop
 * client would: initialize, list tools, call `search_papers`, then `post_comment` with the key,
 * and the comment is read back over REST with its AI label. And by OAuth, as a newcomer would:
 * the bridge connects without credentials, reads, and its first write (a 401 challenge) opens
 * the sign-in; the owner approves an agent and the same write lands, labeled with that agent.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentIn, type TestAgent } from "../src/testing/agents.ts";
import { makeAgent, publishPaper } from "../src/testing/factories.ts";
import { MCP_TOOL_NAMES, type ServedApp, serveTestApp } from "../src/testing/mcp.ts";
import { ownerOverHttp, serveOAuthApp } from "../src/testing/oauth.ts";
import { freePort } from "../src/testing/scratch.ts";

const BRIDGE = fileURLToPath(new URL("../node_modules/mcp-remote/dist/proxy.js", import.meta.url));

let served: ServedApp;
let agent: TestAgent;
let paperId: string;
let configDir: string;

beforeAll(async () => {
  served = await serveTestApp();
  const ctx = served.test.ctx;
  paperId = (await publishPaper(ctx, { title: "Sediment transport under tidal bores" })).paper_id;
  await publishPaper(ctx, { title: "Lichen growth on granite headstones" });
  agent = await agentIn(ctx, "verified");
  configDir = await mkdtemp(join(tmpdir(), "quire-mcp-remote-"));
});
afterAll(async () => {
  await served?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

/** A client talking to `mcp-remote` over stdio, the bridge talking to Quire over HTTP. */
async function bridged(authHeader?: string, url = served.url, callbackPort?: number) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: configDir,
    // mcp-remote keeps OAuth state here; a key in a header needs none, and none leaks out.
    MCP_REMOTE_CONFIG_DIR: configDir,
    // The bridge opens the sign-in page with xdg-open, which runs $BROWSER: here, nothing.
    BROWSER: "true",
  };
  // The OAuth callback port, when given, is the bridge's second argument. Without it the bridge
  // derives one from the server URL's hash (3335-49150), which can fall on a port this machine
  // is using as the local end of a connection: the bridge then listens on the next port while
  // the redirect URI it registered names the first, and the owner's browser is refused.
  const args = [
    BRIDGE,
    `${url}/mcp`,
    ...(callbackPort === undefined ? [] : [String(callbackPort)]),
    "--transport",
    "http-only",
  ];
  if (authHeader !== undefined) {
    env.AUTH_HEADER = authHeader;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote expands it from env
    args.push("--header", "Authorization:${AUTH_HEADER}");
  }
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const client = new Client({ name: "stdio-desktop-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe("mcp-remote as a stdio bridge", () => {
  it("initializes, lists the tools, searches, and posts a comment with the key header", async () => {
    const { client, stderr } = await bridged(`Bearer ${agent.key}`);
    try {
      expect(client.getServerVersion()?.name, stderr()).toBe("quire");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES]);

      const search = await client.callTool({
        name: "search_papers",
        arguments: { q: "tidal bores sediment", mode: "lexical", limit: 3 },
      });
      expect(search.isError).toBeFalsy();
      const results = (search.structuredContent as { results: { paper_id: string }[] }).results;
      expect(results[0]?.paper_id).toBe(paperId);

      const whoami = await client.callTool({ name: "whoami", arguments: {} });
      expect(whoami.structuredContent).toMatchObject({ agent: { id: agent.id } });

      const posted = await client.callTool({
        name: "post_comment",
        arguments: { paper_id: paperId, body: "Posted through mcp-remote over stdio." },
      });
      expect(posted.isError, JSON.stringify(posted.content)).toBeFalsy();
      const { comment } = posted.structuredContent as { comment: { id: string } };

      const res = await fetch(`${served.url}/api/v1/papers/${paperId}/comments`);
      const listed = (await res.json()) as { comments: Record<string, unknown>[] };
      expect(listed.comments.find((c) => c.id === comment.id)).toMatchObject({
        body: "Posted through mcp-remote over stdio.",
        ai_label: "AI-generated",
        author: { agent_id: agent.id },
      });
      // The key went over the bridge as a header and nowhere else.
      expect(stderr()).not.toContain(agent.key);
    } finally {
      await client.close();
    }
  });

  it("reads without a key, and a write without one is a tool error that says what is missing", async () => {
    const { client } = await bridged();
    try {
      const listed = await client.callTool({ name: "list_papers", arguments: { limit: 5 } });
      expect(listed.isError).toBeFalsy();
      expect((listed.structuredContent as { papers: unknown[] }).papers).toHaveLength(2);
      const refused = await client.callTool({
        name: "post_comment",
        arguments: { paper_id: paperId, body: "No key here." },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/key/i);
    } finally {
      await client.close();
    }
  });
});

describe("mcp-remote connecting by OAuth", () => {
  it("reads anonymously; the first write opens the sign-in, and after consent it lands labeled", async () => {
    const oauthApp = await serveOAuthApp();
    try {
      const { client: owner, handle } = await ownerOverHttp(oauthApp);
      const chosen = await makeAgent(oauthApp.test.ctx, handle, "bridged-agent");
      const paper = (await publishPaper(oauthApp.test.ctx)).paper_id;
      const { client, stderr } = await bridged(undefined, oauthApp.url, await freePort());
      try {
        const listed = await client.callTool({ name: "list_papers", arguments: {} });
        expect(listed.isError, stderr()).toBeFalsy();
        const write = client.callTool({
          name: "post_comment",
          arguments: { paper_id: paper, body: "Posted by mcp-remote after signing in." },
        });
        // Settled either way, so a failure shows as the assertion below, not as a stray rejection.
        const outcome = write.then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        // The bridge prints the authorization URL (and tries to open a browser), then starts
        // its loopback callback server.
        let authorize: URL | undefined;
        for (let i = 0; i < 150; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const found = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(stderr())?.[1];
          if (found) authorize = new URL(found);
          if (authorize && stderr().includes("callback server running")) break;
        }
        expect(authorize, stderr()).toBeTruthy();
        expect(authorize?.searchParams.get("scope")).toBe("agent");
        const start = await owner.get(`${authorize!.pathname}${authorize!.search}`);
        const consentPath = new URL(start.location!, oauthApp.url).pathname;
        const approved = await owner.submit(consentPath, consentPath, {
          decision: "approve",
          agent_id: chosen.id,
        });
        expect(approved.status).toBe(303);
        // The owner's browser lands on the bridge's loopback callback with the code.
        const callback = await fetch(approved.location!).catch((error: unknown) => {
          throw new Error(`the bridge's callback refused: ${String(error)}\n${stderr()}`);
        });
        expect(callback.status).toBe(200);
        const settled = await outcome;
        expect("error" in settled ? String(settled.error) : "", stderr()).toBe("");
        const posted = "result" in settled ? settled.result : { content: [] };
        expect(posted.isError, JSON.stringify(posted.content)).toBeFalsy();
        expect(posted.structuredContent).toMatchObject({
          comment: {
            ai_label: "AI-generated",
            author: { agent_id: chosen.id, name: "bridged-agent", owner_handle: handle },
          },
        });
      } finally {
        await client.close();
      }
    } finally {
      await oauthApp.close();
    }
  }, 60_000);
});
