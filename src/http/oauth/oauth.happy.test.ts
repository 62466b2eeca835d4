/**
 * @module OAuth for /mcp end to end with the MCP SDK's client-side OAuth: discovery,
 * registration, the owner's consent over HTTP, tokens, whoami, a labeled comment, refresh,
 * disconnect on /agents, 401.
 */
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { makeAgent, publishPaper } from "../../testing/factories.ts";
import { rpc, type ServedApp, serveTestApp, textOf } from "../../testing/mcp.ts";
import {
  consent,
  INITIALIZE as initialize,
  MemoryOAuthClient,
  ownerOverHttp,
  pkce,
  rawOAuth,
  serveClientMetadata,
  useOAuthApp,
} from "../../testing/oauth.ts";
import { freePort } from "../../testing/scratch.ts";

const app = useOAuthApp();
let served: ServedApp;
beforeAll(() => {
  served = app();
});

describe("OAuth metadata", () => {
  it("names Quire as the authorization server of /mcp, with PKCE S256 and public clients only", async () => {
    const prm = await (
      await fetch(`${served.url}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(prm).toMatchObject({
      resource: `${served.url}/mcp`,
      authorization_servers: [`${served.url}/`],
    });
    const as = (await (
      await fetch(`${served.url}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: `${served.url}/`,
      authorization_endpoint: `${served.url}/authorize`,
      token_endpoint: `${served.url}/token`,
      registration_endpoint: `${served.url}/register`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none"],
      client_id_metadata_document_supported: true,
    });
  });

  it("lets a browser client on any origin read both documents and preflight them", async () => {
    const origin = { origin: "https://client.example" };
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-authorization-server",
    ]) {
      const res = await fetch(`${served.url}${path}`, { headers: origin });
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      const preflight = await fetch(`${served.url}${path}`, {
        method: "OPTIONS",
        headers: { ...origin, "access-control-request-method": "GET" },
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get("access-control-allow-methods"), path).toContain("GET");
    }
  });
});

describe("a client identified by its metadata document (CIMD)", () => {
  it("is fetched once, shown by name on consent, and gets a token for the chosen agent", async () => {
    const site = await serveClientMetadata();
    try {
      const { client: owner, handle } = await ownerOverHttp(served);
      const agent = await makeAgent(served.test.ctx, handle, "cimd-agent");
      const redirect = "http://127.0.0.1:33420/callback";
      const clientId = site.put("/oauth/client.json", {
        client_name: "Metadata client",
        redirect_uris: [redirect],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      });
      const raw = rawOAuth(served.url, redirect);
      const { verifier, challenge } = pkce();
      const url = raw.authorizeUrl(clientId, challenge);
      const start = await owner.get(`${url.pathname}${url.search}`);
      expect(start.status, start.html).toBe(302);
      const page = await owner.get(new URL(start.location!, served.url).pathname);
      expect(page.html).toContain("Metadata client");
      expect(page.html).toContain(`id="client-id-host">127.0.0.1:`);

      const back = await consent(owner, url, { agentId: agent.id });
      const code = back.searchParams.get("code")!;
      const res = await raw.token({
        grant_type: "authorization_code",
        client_id: clientId,
        code,
        code_verifier: verifier,
        redirect_uri: redirect,
      });
      expect(res.status).toBe(200);
      const { access_token } = (await res.json()) as { access_token: string };
      const who = await rpc(
        served.url,
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } },
        { authorization: `Bearer ${access_token}` },
      );
      expect(await who.text()).toContain(agent.id);
      // Authorize, consent (twice) and token: one fetch, then this instance's cache.
      expect(site.requests).toEqual(["/oauth/client.json"]);
    } finally {
      await site.close();
    }
  });
});

describe("connecting an MCP client by signing in", () => {
  it("discovery → registration → consent → token → whoami → comment → refresh → disconnect → 401", async () => {
    const { client: owner, handle } = await ownerOverHttp(served);
    const agent = await makeAgent(served.test.ctx, handle, "oauth-agent");
    const paper = await publishPaper(served.test.ctx);
    const serverUrl = `${served.url}/mcp`;
    const provider = new MemoryOAuthClient();

    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(serverUrl);

    // The consent page shows the client's name, its redirect host and the owner's agents.
    const start = await owner.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
    const page = await owner.get(new URL(start.location!, served.url).pathname);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Test MCP client");
    expect(page.html).toContain("127.0.0.1:33418");
    expect(page.html).toContain(`value="${agent.id}"`);

    const back = await consent(owner, authorizationUrl, { agentId: agent.id });
    expect(back.origin + back.pathname).toBe(provider.redirectUrl);
    expect(back.searchParams.get("state")).toBe(authorizationUrl.searchParams.get("state"));
    const code = back.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
    const first = provider.saved!;
    expect(first.access_token).toMatch(/^quire_at_/);
    expect(first.refresh_token).toMatch(/^quire_rt_/);
    expect(first.expires_in).toBeGreaterThan(0);

    const client = new Client({ name: "oauth-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }),
    );
    const who = await client.callTool({ name: "whoami", arguments: {} });
    expect(who.isError).toBeFalsy();
    expect(who.structuredContent).toMatchObject({
      agent: { id: agent.id, name: "oauth-agent", owner_handle: handle, status: "verified" },
    });
    const posted = await client.callTool({
      name: "post_comment",
      arguments: { paper_id: paper.paper_id, body: "Posted through an OAuth connection." },
    });
    expect(posted.isError, textOf(posted)).toBeFalsy();
    expect(posted.structuredContent).toMatchObject({
      comment: {
        ai_label: "AI-generated",
        author: {
          agent_id: agent.id,
          name: "oauth-agent",
          model: "test-model-2",
          owner_handle: handle,
        },
      },
    });
    await client.close();

    // REST takes the same access token, for the same agent.
    const me = await fetch(`${served.url}/api/v1/me`, {
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { agent: { id: string } }).agent.id).toBe(agent.id);

    // Refresh: a new pair; the old refresh token is spent.
    expect(await auth(provider, { serverUrl })).toBe("AUTHORIZED");
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const refreshed = await rpc(served.url, initialize, {
      authorization: `Bearer ${second.access_token}`,
    });
    expect(refreshed.status).toBe(200);

    // The connection is listed on /agents and disconnected there: 401 at once.
    const agentsPage = await owner.get("/agents");
    expect(agentsPage.html).toContain('id="connections"');
    expect(agentsPage.html).toContain("Test MCP client");
    const action = /action="(\/agents\/connections\/[^"]+\/disconnect)"/.exec(agentsPage.html)?.[1];
    expect(action).toBeTruthy();
    const done = await owner.submit("/agents", action!, {});
    expect(done.status).toBe(303);
    const refused = await rpc(served.url, initialize, {
      authorization: `Bearer ${second.access_token}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/error_description="[^"]*revoked/);
    expect((await owner.get("/agents")).html).not.toContain('id="connections"');
  });

  it("an anonymous client reads; its first write is a 401 challenge that starts the flow", async () => {
    const { client: owner, handle } = await ownerOverHttp(served);
    const agent = await makeAgent(served.test.ctx, handle, "challenged-agent");
    const paper = await publishPaper(served.test.ctx);
    const serverUrl = `${served.url}/mcp`;

    // At the HTTP level: reads answer anonymously, agent tools are 401 with the challenge.
    const read = await rpc(served.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_papers", arguments: {} },
    });
    expect(read.status).toBe(200);
    const write = await rpc(served.url, [
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "post_comment", arguments: { paper_id: paper.paper_id, body: "Hi." } },
      },
    ]);
    expect(write.status).toBe(401);
    expect(write.headers.get("www-authenticate")).toBe(
      `Bearer realm="quire", resource_metadata="${served.url}/.well-known/oauth-protected-resource/mcp", scope="agent"`,
    );
    expect(((await write.json()) as { error: { message: string } }).error.message).toMatch(
      /post_comment acts as an agent: connect this client to Quire by signing in/,
    );

    // The SDK's client: connected without tokens, it reads; the write's 401 runs discovery and
    // registration and sends the user to authorize; after consent the same call succeeds.
    const provider = new MemoryOAuthClient("http://127.0.0.1:33419/callback", "Lazy client");
    const transport = new StreamableHTTPClientTransport(new URL(serverUrl), {
      authProvider: provider,
    });
    const client = new Client({ name: "lazy", version: "1" });
    await client.connect(transport);
    const listed = await client.callTool({ name: "list_papers", arguments: {} });
    expect(listed.isError).toBeFalsy();
    const args = { paper_id: paper.paper_id, body: "Posted once the client was connected." };
    await expect(client.callTool({ name: "post_comment", arguments: args })).rejects.toThrow(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe("agent");
    const back = await consent(owner, provider.authorizationUrl!, { agentId: agent.id });
    await transport.finishAuth(back.searchParams.get("code")!);
    const posted = await client.callTool({ name: "post_comment", arguments: args });
    expect(posted.isError, textOf(posted)).toBeFalsy();
    expect(posted.structuredContent).toMatchObject({
      comment: { ai_label: "AI-generated", author: { agent_id: agent.id } },
    });
    await client.close();
  });

  it("creates the agent on the consent page when the owner names a new one", async () => {
    const { client: owner, handle } = await ownerOverHttp(served);
    const raw = rawOAuth(served.url, "http://127.0.0.1:33421/callback");
    const clientId = await raw.register();
    const { verifier, challenge } = pkce();
    const url = raw.authorizeUrl(clientId, challenge);
    const start = await owner.get(`${url.pathname}${url.search}`);
    const path = new URL(start.location!, served.url).pathname;
    // An owner without agents is offered a new one, already chosen.
    const page = await owner.get(path);
    expect(page.html).toContain('id="no-agents"');
    expect(page.html).toMatch(/id="agent-new"[^>]*checked/);

    // The /agents rules, in the reader's language; the request is still pending after it.
    const invalid = await owner.submit(`/es${path}`, `/es${path}`, {
      decision: "approve",
      agent_id: "new",
      name: " ",
      model: "m",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain('lang="es"');
    expect(invalid.html).toContain('id="new-agent-name-error"');

    const made = await owner.submit(path, path, {
      decision: "approve",
      agent_id: "new",
      name: "made-on-consent",
      model: "consent-model-1",
    });
    expect(made.status).toBe(303);
    const code = new URL(made.location!).searchParams.get("code")!;
    const res = await raw.token({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:33421/callback",
    });
    const { access_token } = (await res.json()) as { access_token: string };
    const me = await fetch(`${served.url}/api/v1/me`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    // A verified owner's new agent is verified, as on /agents.
    expect(await me.json()).toMatchObject({
      agent: {
        name: "made-on-consent",
        model: "consent-model-1",
        owner_handle: handle,
        status: "verified",
      },
    });
    expect((await owner.get("/agents")).html).toContain("made-on-consent");
  });

  it("a wrong key, sent as a header by the SDK's client, fails with Quire's own sentence", async () => {
    for (const [key, says] of [
      ["quire_sk_notARealKeyAtAll", "The bearer token is not an agent key"],
      [`quire_sk_${"A".repeat(43)}`, "The agent key is not recognised"],
    ] as const) {
      const transport = new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      });
      const client = new Client({ name: "keyed", version: "1" });
      await expect(client.connect(transport), key).rejects.toThrow(says);
    }
  });

  it("shows the consent page in Spanish at /es", async () => {
    const { client: owner } = await ownerOverHttp(served);
    const provider = new MemoryOAuthClient("http://localhost:9/cb", "Cliente de prueba");
    expect(await auth(provider, { serverUrl: `${served.url}/mcp` })).toBe("REDIRECT");
    const url = provider.authorizationUrl!;
    const start = await owner.get(`${url.pathname}${url.search}`);
    const page = await owner.get(`/es${new URL(start.location!, served.url).pathname}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('lang="es"');
    expect(page.html).toContain("quiere actuar como uno de tus agentes");
  });
});

describe("a default start (BASE_URL http://localhost:PORT) reached at 127.0.0.1", () => {
  it("is one resource: the SDK's client signs in against http://127.0.0.1:PORT/mcp", async () => {
    const port = await freePort();
    const local = await serveTestApp({ baseUrl: `http://localhost:${port}` }, port);
    try {
      const serverUrl = `${local.url}/mcp`;
      expect(serverUrl).toBe(`http://127.0.0.1:${port}/mcp`);
      // The metadata names the origin the client used, for each loopback name.
      for (const origin of [local.url, `http://localhost:${port}`]) {
        const res = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
        expect(((await res.json()) as { resource: string }).resource).toBe(`${origin}/mcp`);
      }
      const refused = await rpc(local.url, initialize, {
        authorization: `Bearer quire_at_${"A".repeat(43)}`,
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain(
        `resource_metadata="${local.url}/.well-known/oauth-protected-resource/mcp"`,
      );

      const { client: owner, handle } = await ownerOverHttp(local);
      const agent = await makeAgent(local.test.ctx, handle, "loopback-agent");
      const provider = new MemoryOAuthClient();
      expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
      const authorizationUrl = provider.authorizationUrl!;
      expect(authorizationUrl.searchParams.get("resource")).toBe(serverUrl);
      const back = await consent(owner, authorizationUrl, { agentId: agent.id });
      const code = back.searchParams.get("code")!;
      expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
      const client = new Client({ name: "loopback", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }),
      );
      const who = await client.callTool({ name: "whoami", arguments: {} });
      expect(who.structuredContent).toMatchObject({ agent: { id: agent.id } });
      await client.close();
      // The token is for this server under any loopback name with this port.
      const viaLocalhost = await rpc(`http://localhost:${port}`, initialize, {
        authorization: `Bearer ${provider.saved!.access_token}`,
      });
      expect(viaLocalhost.status).toBe(200);
    } finally {
      await local.close();
    }
  });
});
