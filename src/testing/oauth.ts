/**
 * @module Test support for OAuth on /mcp: the app served at the URL it believes it has (the
 * issuer and resource must match), the MCP SDK's client-side OAuth provider kept in memory,
 * and the owner's consent driven over HTTP.
 */
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { eq } from "drizzle-orm";
import { oauthTokens } from "../db/schema/index.ts";
import { signedInClient } from "../http/pages/pages.test-helpers.ts";
import { hashKey } from "../services/agents/keys.ts";
import type { ServiceContext } from "../services/context.ts";
import { createTestApp } from "./app.ts";
import type { ServedApp } from "./mcp.ts";
import { overHttp, PageClient } from "./page-client.ts";
import { freePort } from "./scratch.ts";

/** The real app on a loopback port, with BASE_URL set to that very address. */
export async function serveOAuthApp(): Promise<ServedApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const test = await createTestApp({ baseUrl: url });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: test.app.fetch, hostname: "127.0.0.1", port }, () => resolve(s));
  });
  if ((server.address() as AddressInfo).port !== port) throw new Error("port moved");
  return {
    test,
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await test.close();
    },
  };
}

/** An `OAuthClientProvider` as an MCP client implements it, keeping everything in memory. */
export class MemoryOAuthClient implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  /** Where the SDK sent the user to authorize (the last time). */
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl = "http://127.0.0.1:33418/callback",
    readonly name = "Test MCP client",
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A browser-like client of the served app, signed in as a new owner through the pages. */
export async function ownerOverHttp(
  served: ServedApp,
): Promise<{ client: PageClient; handle: string }> {
  const { client: local, handle } = await signedInClient(served.test);
  const client = new PageClient(overHttp(served.url));
  for (const [name, value] of local.cookies) client.cookies.set(name, value);
  return { client, handle };
}

/**
 * Follows an authorization URL as the owner's browser would: /authorize redirects to the
 * consent page, which is approved (or denied) for `agentId`; returns where the site sent the
 * browser back to (the client's redirect URI with `code` and `state`, or `error`).
 */
export async function consent(
  owner: PageClient,
  authorizationUrl: URL,
  decision: { agentId?: string; approve?: boolean } = {},
): Promise<URL> {
  const start = await owner.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
  if (start.status !== 302 || !start.location) {
    throw new Error(`authorize answered ${start.status}: ${start.html}`);
  }
  const consentPath = new URL(start.location, "http://x").pathname;
  const answer = await owner.submit(consentPath, consentPath, {
    decision: decision.approve === false ? "deny" : "approve",
    ...(decision.agentId ? { agent_id: decision.agentId } : {}),
  });
  if (answer.status !== 303 || !answer.location) {
    throw new Error(`consent answered ${answer.status}: ${answer.html.slice(0, 500)}`);
  }
  return new URL(answer.location);
}

/** Makes a token's lifetime run out (the test clock stands still). */
export async function expireToken(ctx: ServiceContext, token: string): Promise<void> {
  await ctx.db
    .update(oauthTokens)
    .set({ expiresAt: new Date(0) })
    .where(eq(oauthTokens.tokenHash, hashKey(token)));
}
