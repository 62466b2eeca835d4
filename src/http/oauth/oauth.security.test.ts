/**
 * @module OAuth for /mcp, refused: wrong PKCE verifier, a code used twice, an unregistered
 * redirect URI, another resource, an expired token, refresh-token reuse, a suspended agent,
 * another owner's agent, a consent form without its CSRF token.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { setAgentStatus } from "../../services/agents/set-status.ts";
import { makeAgent, makeOwner, publishPaper } from "../../testing/factories.ts";
import { rpc } from "../../testing/mcp.ts";
import {
  consent,
  countRows,
  expireToken,
  INITIALIZE as initialize,
  type MetadataAnswer,
  ownerOverHttp,
  pkce,
  rawOAuth,
  serveClientMetadata,
  useOAuthApp,
} from "../../testing/oauth.ts";
import type { PageClient } from "../../testing/page-client.ts";

const app = useOAuthApp();
let owner: PageClient;
let agentId: string;
const REDIRECT = "http://127.0.0.1:40111/callback";
let served: ReturnType<typeof app>;
let raw: ReturnType<typeof rawOAuth>;

beforeAll(async () => {
  served = app();
  raw = rawOAuth(served.url, REDIRECT);
  const signedIn = await ownerOverHttp(served);
  owner = signedIn.client;
  agentId = (await makeAgent(served.test.ctx, signedIn.handle, "guarded")).id;
});

const register = () => raw.register();
const authorizeUrl = (...args: Parameters<typeof raw.authorizeUrl>) => raw.authorizeUrl(...args);
const token = (fields: Record<string, string>) => raw.token(fields);

async function codeFor(clientId: string, challenge: string, agent = agentId): Promise<string> {
  const back = await consent(owner, authorizeUrl(clientId, challenge), { agentId: agent });
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code: ${back.href}`);
  return code;
}

async function tokensFor(agent = agentId) {
  const clientId = await register();
  const { verifier, challenge } = pkce();
  const code = await codeFor(clientId, challenge, agent);
  const res = await token({
    grant_type: "authorization_code",
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; refresh_token: string };
  return { clientId, ...body };
}

describe("the authorization code", () => {
  it("is refused with the wrong PKCE verifier", async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const code = await codeFor(clientId, challenge);
    const res = await token({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: pkce().verifier,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("works once; used twice, it is refused and its tokens are revoked", async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = await codeFor(clientId, challenge);
    const fields = {
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
    };
    const first = await token(fields);
    expect(first.status).toBe(200);
    const { access_token } = (await first.json()) as { access_token: string };
    const again = await token(fields);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    const res = await rpc(served.url, initialize, { authorization: `Bearer ${access_token}` });
    expect(res.status).toBe(401);
  });

  it("is never issued to a redirect URI the client did not register", async () => {
    const clientId = await register();
    const url = authorizeUrl(clientId, pkce().challenge, {
      redirect_uri: "http://evil.example/cb",
    });
    const res = await owner.get(`${url.pathname}${url.search}`);
    expect(res.status).toBe(400);
    expect(res.html).toContain("invalid_request");
    // RFC 8252: a loopback redirect URI may use any port.
    const loopback = authorizeUrl(clientId, pkce().challenge, {
      redirect_uri: "http://127.0.0.1:40999/callback",
    });
    expect((await owner.get(`${loopback.pathname}${loopback.search}`)).status).toBe(302);
  });

  it("is not issued for another resource, and PKCE plain is refused", async () => {
    const clientId = await register();
    const other = authorizeUrl(clientId, pkce().challenge, {
      resource: "https://other.example/mcp",
    });
    const res = await owner.get(`${other.pathname}${other.search}`);
    expect(res.status).toBe(302);
    const back = new URL(res.location!);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    const plain = authorizeUrl(clientId, "x".repeat(43), { code_challenge_method: "plain" });
    const refused = await owner.get(`${plain.pathname}${plain.search}`);
    expect(new URL(refused.location!).searchParams.get("error")).toBe("invalid_request");
    // At the token endpoint too: a code for /mcp is not exchanged for another resource.
    const { verifier, challenge } = pkce();
    const code = await codeFor(clientId, challenge);
    const swapped = await token({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
      resource: "https://other.example/mcp",
    });
    expect(swapped.status).toBe(400);
    expect(await swapped.json()).toMatchObject({ error: "invalid_target" });
  });
});

describe("tokens", () => {
  it("an expired access token is 401 saying so", async () => {
    const { access_token } = await tokensFor();
    await expireToken(served.test.ctx, access_token);
    const res = await rpc(served.url, initialize, { authorization: `Bearer ${access_token}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/error_description="[^"]*expired/);
  });

  it("a reused refresh token revokes the whole family", async () => {
    const { clientId, refresh_token } = await tokensFor();
    const fields = { grant_type: "refresh_token", client_id: clientId, refresh_token };
    const rotated = await token(fields);
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as { access_token: string; refresh_token: string };
    const reused = await token(fields);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    // Both the access token and the refresh token of the rotation are dead now.
    const res = await rpc(served.url, initialize, { authorization: `Bearer ${next.access_token}` });
    expect(res.status).toBe(401);
    const after = await token({ ...fields, refresh_token: next.refresh_token });
    expect(after.status).toBe(400);
  });

  it("a suspended agent's token is refused writes (403) and new tokens", async () => {
    const owned = await ownerOverHttp(served);
    const agent = await makeAgent(served.test.ctx, owned.handle, "to-suspend");
    const saved = owner;
    owner = owned.client;
    const { clientId, access_token, refresh_token } = await tokensFor(agent.id);
    owner = saved;
    await setAgentStatus(
      { ...served.test.ctx, caller: { kind: "operator" } },
      { agentId: agent.id, status: "suspended", reason: "test" },
    );
    const paper = await publishPaper(served.test.ctx);
    const write = await fetch(`${served.url}/api/v1/papers/${paper.paper_id}/comments`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ body: "Should not land." }),
    });
    expect(write.status).toBe(403);
    const refreshed = await token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token,
    });
    expect(refreshed.status).toBe(400);
  });
});

describe("a suspended agent", () => {
  async function suspendedSetUp() {
    const owned = await ownerOverHttp(served);
    const agent = await makeAgent(served.test.ctx, owned.handle, "suspended-later");
    const suspend = () =>
      setAgentStatus(
        { ...served.test.ctx, caller: { kind: "operator" } },
        { agentId: agent.id, status: "suspended", reason: "test" },
      );
    return { owner: owned.client, agent, suspend };
  }

  it("gets no tokens for a code approved before it was suspended", async () => {
    const { owner: theirs, agent, suspend } = await suspendedSetUp();
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await consent(theirs, authorizeUrl(clientId, challenge), { agentId: agent.id });
    const code = back.searchParams.get("code") ?? "";
    await suspend();
    const res = await token({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringMatching(/suspended/),
    });
  });

  it("cannot be chosen on the consent page, nor approved by a forged form", async () => {
    const { owner: theirs, agent, suspend } = await suspendedSetUp();
    await suspend();
    const clientId = await register();
    const url = authorizeUrl(clientId, pkce().challenge);
    const start = await theirs.get(`${url.pathname}${url.search}`);
    const path = new URL(start.location!, served.url).pathname;
    const page = await theirs.get(path);
    expect(page.status).toBe(200);
    const radio = new RegExp(`<input[^>]*id="agent-${agent.id}"[^>]*>`).exec(page.html)?.[0];
    expect(radio).toContain("disabled");
    expect(radio).not.toContain("checked");
    const grants = await countRows(served.test.ctx, "oauth_grants");
    const res = await theirs.submit(path, path, { decision: "approve", agent_id: agent.id });
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
    expect(await countRows(served.test.ctx, "oauth_grants")).toBe(grants);
    // The request is still there: the owner can deny it (or pick another agent).
    const denied = await theirs.submit(path, path, { decision: "deny" });
    expect(new URL(denied.location!).searchParams.get("error")).toBe("access_denied");
  });
});

describe("client metadata documents", () => {
  it("refuses documents that break the rules, saying why, and unregistered redirect URIs", async () => {
    const site = await serveClientMetadata();
    try {
      const ok = { client_name: "Doc", redirect_uris: [REDIRECT] };
      const cases: [string, Record<string, unknown> | MetadataAnswer, RegExp][] = [
        [
          "/other-id.json",
          { ...ok, client_id: "https://elsewhere.example/c.json" },
          /client_id is not exactly/,
        ],
        ["/secret.json", { ...ok, client_secret: "s3cret" }, /client secret/],
        [
          "/basic.json",
          { ...ok, token_endpoint_auth_method: "client_secret_basic" },
          /only "none"/,
        ],
        ["/no-redirects.json", { client_name: "Doc", redirect_uris: [] }, /no redirect_uris/],
        ["/bad-uri.json", { ...ok, redirect_uris: ["javascript:alert(1)"] }, /not valid/],
        ["/big.json", { ...ok, padding: "x".repeat(6000) }, /over 5120 bytes/],
        [
          "/big-chunked.json",
          { headers: { "transfer-encoding": "chunked" }, body: `{"x":"${"x".repeat(6000)}"}` },
          /over 5120 bytes/,
        ],
        ["/moved.json", { status: 302, headers: { location: "/ok.json" }, body: "" }, /HTTP 302/],
        [
          "/html.json",
          { headers: { "content-type": "text/html" }, body: "<p>hi</p>" },
          /application\/json/,
        ],
        ["/missing.json", { status: 404, body: "{}" }, /HTTP 404/],
      ];
      for (const [path, document, reason] of cases) {
        const clientId = site.put(path, document);
        const url = authorizeUrl(clientId, pkce().challenge);
        const res = await owner.get(`${url.pathname}${url.search}`);
        expect(res.status, path).toBe(400);
        const body = JSON.parse(res.html) as { error: string; error_description: string };
        expect(body.error, path).toBe("invalid_client");
        expect(body.error_description, path).toMatch(reason);
      }
      // A good document: only its own redirect URIs are accepted.
      const clientId = site.put("/good.json", ok);
      const evil = authorizeUrl(clientId, pkce().challenge, {
        redirect_uri: "http://evil.example/cb",
      });
      const refused = await owner.get(`${evil.pathname}${evil.search}`);
      expect(refused.status).toBe(400);
      expect(refused.html).toContain("Unregistered redirect_uri");
      const good = authorizeUrl(clientId, pkce().challenge);
      expect((await owner.get(`${good.pathname}${good.search}`)).status).toBe(302);
      // At the token endpoint a refused document is invalid_client too.
      const res = await token({
        grant_type: "authorization_code",
        client_id: site.url("/secret.json"),
        code: "quire_ac_x",
        code_verifier: pkce().verifier,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_client" });
    } finally {
      await site.close();
    }
  });
});

describe("the consent step", () => {
  it("never binds another owner's agent", async () => {
    const stranger = await makeOwner(served.test.ctx);
    const theirs = await makeAgent(served.test.ctx, stranger.handle, "not-yours");
    const clientId = await register();
    const url = authorizeUrl(clientId, pkce().challenge);
    const start = await owner.get(`${url.pathname}${url.search}`);
    const path = new URL(start.location!, served.url).pathname;
    const res = await owner.submit(path, path, { decision: "approve", agent_id: theirs.id });
    expect(res.status).toBe(404);
    expect(res.location).toBeNull();
  });

  it("refuses a consent form without its CSRF token, and asks a signed-out browser to sign in", async () => {
    const clientId = await register();
    const url = authorizeUrl(clientId, pkce().challenge);
    const start = await owner.get(`${url.pathname}${url.search}`);
    const path = new URL(start.location!, served.url).pathname;
    const forged = await owner.post(path, { decision: "approve", agent_id: agentId });
    expect(forged.status).toBe(403);
    expect(forged.location).toBeNull();
    const crossSite = await owner.post(
      path,
      { decision: "approve", agent_id: agentId, _csrf: "x" },
      { "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    const signedOut = await fetch(`${served.url}${path}`, { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toContain(`next=${path}`);
    // The request was not consumed by the refusals: the owner can still decide.
    const back = await owner.submit(path, path, { decision: "deny" });
    expect(new URL(back.location!).searchParams.get("error")).toBe("access_denied");
  });
});
