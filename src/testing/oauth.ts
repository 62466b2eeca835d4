/**
 * @module Test support for OAuth on /mcp: the app served at the URL it believes it has (the
 * issuer and resource must match), the MCP SDK's client-side OAuth provider kept in memory,
 * and the owner's consent driven over HTTP.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../app.ts";
import { oauthTokens } from "../db/schema/index.ts";
import { signedInClient } from "../http/pages/pages.test-helpers.ts";
import { createMetrics } from "../metrics.ts";
import { hashKey } from "../services/agents/keys.ts";
import type { ServiceContext } from "../services/context.ts";
import { createClientMetadataDocuments } from "../services/oauth/index.ts";
import { createTestApp } from "./app.ts";
import { type ServedApp, serveTestApp } from "./mcp.ts";
import { overHttp, PageClient } from "./page-client.ts";
import { freePort } from "./scratch.ts";

/**
 * The real app on a loopback port, with BASE_URL set to that very address. It takes Client ID
 * Metadata Documents from loopback addresses (`serveClientMetadata` stands in for a client's
 * site); production fetches them only over https from public addresses.
 */
export async function serveOAuthApp(): Promise<ServedApp> {
  const port = await freePort();
  return serveTestApp(
    {
      baseUrl: `http://127.0.0.1:${port}`,
      services: { clientMetadata: createClientMetadataDocuments({ allowLoopback: true }) },
    },
    port,
  );
}

/**
 * The OAuth app served over a database nobody answers at (a refused connection, as in an
 * outage), with its own metrics; `test.ctx` keeps the real database, for set-up and counts.
 */
export async function serveOAuthAppInOutage(): Promise<ServedApp> {
  const dead = new pg.Pool({
    connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x`,
  });
  dead.on("error", () => {});
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const test = await createTestApp({ baseUrl: url });
  const metrics = createMetrics();
  const app = buildApp({
    services: { ...test.ctx, db: drizzle(dead) as unknown as typeof test.ctx.db },
    logger: test.ctx.logger,
    baseUrl: url,
    trustProxy: [],
    metrics,
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port }, () => resolve(s));
  });
  if ((server.address() as AddressInfo).port !== port) throw new Error(`port ${port} moved`);
  return {
    test: { ...test, app, metrics },
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await dead.end();
      await test.close();
    },
  };
}

/** How many rows an OAuth table holds, to show a refusal stored nothing. */
export async function countRows(
  ctx: ServiceContext,
  table: "oauth_clients" | "oauth_requests" | "oauth_grants",
): Promise<number> {
  const result = (await ctx.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as {
    rows: { n: number }[];
  };
  return Number(result.rows[0]?.n);
}

/** A bug, not an outage: the table pending authorizations are stored in is gone. */
export async function dropAuthorizationRequests(ctx: ServiceContext): Promise<void> {
  await ctx.db.execute(sql`drop table oauth_requests`);
}

export interface MetadataAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * A client's site on a loopback port serving metadata documents: `put(path, answer)` sets what
 * a path answers, `url(path)` is its client_id, and `requests` lists the paths fetched.
 */
export async function serveClientMetadata() {
  const answers = new Map<string, MetadataAnswer>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "";
    requests.push(path);
    const answer = answers.get(path) ?? { status: 404, body: "{}" };
    res.writeHead(answer.status ?? 200, {
      "content-type": "application/json",
      ...answer.headers,
    });
    res.end(answer.body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  return {
    url,
    requests,
    /** Serves `document` at `path` (JSON unless a string), with its `client_id` member by default. */
    put(path: string, document: Record<string, unknown> | MetadataAnswer) {
      answers.set(
        path,
        "body" in document && typeof document.body === "string"
          ? (document as MetadataAnswer)
          : { body: JSON.stringify({ client_id: url(path), ...document }) },
      );
      return url(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The served OAuth app of a test file: started before its tests and closed after them, the
 * set-up every OAuth test shares. Call at the top level of the file; read `served()` in tests.
 */
export function useOAuthApp(): () => ServedApp {
  let served: ServedApp | undefined;
  beforeAll(async () => {
    served = await serveOAuthApp();
  });
  afterAll(async () => {
    await served?.close();
  });
  return () => {
    if (!served) throw new Error("the OAuth app is not served yet");
    return served;
  };
}

/** An MCP `initialize` message, the cheapest request that shows whether a token is taken. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
} as const;

/** A PKCE S256 pair (RFC 7636). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The raw protocol requests of an OAuth client, for the cases the SDK's client never sends. */
export function rawOAuth(url: string, redirect: string) {
  return {
    /** RFC 7591 registration; every client comes back public, with no secret. */
    async register(redirectUri = redirect, name = "Raw client"): Promise<string> {
      const res = await fetch(`${url}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri] }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status !== 201) throw new Error(`register answered ${res.status}`);
      if (body.client_secret !== undefined || body.token_endpoint_auth_method !== "none") {
        throw new Error("a registered client is not public");
      }
      return body.client_id as string;
    },
    authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
      const target = new URL(`${url}/authorize`);
      for (const [k, v] of Object.entries({
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "st",
        resource: `${url}/mcp`,
        ...extra,
      }))
        target.searchParams.set(k, v);
      return target;
    },
    token(fields: Record<string, string>): Promise<Response> {
      return fetch(`${url}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
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
