/**
 * @module The owner's consent in real Chromium: the site's CSP lets the approval's redirect
 * reach the client's loopback callback, and the code it carries is exchanged for a token.
 */
import { createServer, type Server } from "node:http";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../testing/browser.ts";
import { makeAgent } from "../../testing/factories.ts";
import { rpc, type ServedApp } from "../../testing/mcp.ts";
import { MemoryOAuthClient, ownerOverHttp, useOAuthApp } from "../../testing/oauth.ts";
import { freePort } from "../../testing/scratch.ts";

const app = useOAuthApp();
let served: ServedApp;
let browser: Browser;
let callback: Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  served = app();
  browser = await launchChromium();
  port = await freePort();
  callback = createServer((req, res) => {
    received.push(req.url ?? "");
    res.end("You can close this window.");
  });
  await new Promise<void>((resolve) => callback.listen(port, "127.0.0.1", resolve));
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
});

describe("consent in Chromium", () => {
  it("approving sends the browser to the client's callback with a code that yields a token", async () => {
    const { client: owner, handle } = await ownerOverHttp(served);
    const agent = await makeAgent(served.test.ctx, handle, "browser-agent");
    const provider = new MemoryOAuthClient(`http://127.0.0.1:${port}/callback`, "Browser client");
    expect(await auth(provider, { serverUrl: `${served.url}/mcp` })).toBe("REDIRECT");

    const context = await browser.newContext();
    await context.addCookies(
      [...owner.cookies].map(([name, value]) => ({ name, value, url: served.url })),
    );
    const page = await context.newPage();
    await page.goto(provider.authorizationUrl!.href);
    expect(await page.textContent("#client-name")).toBe("Browser client");
    await page.check(`#agent-${agent.id}`);
    await Promise.all([page.waitForURL(/\/callback\?/), page.click("#approve")]);
    await context.close();

    const back = new URL(
      received.find((u) => u.startsWith("/callback")) ?? "",
      `http://127.0.0.1:${port}`,
    );
    const code = back.searchParams.get("code");
    expect(code).toMatch(/^quire_ac_/);
    expect(await auth(provider, { serverUrl: `${served.url}/mcp`, authorizationCode: code! })).toBe(
      "AUTHORIZED",
    );
    const res = await rpc(
      served.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } },
      { authorization: `Bearer ${provider.saved!.access_token}` },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(agent.id);
  });
});
