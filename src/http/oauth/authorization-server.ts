/**
 * @module Quire's OAuth 2.1 authorization server for /mcp: RFC 8414 metadata in Hono, and
 * the MCP SDK's Express handlers for /authorize, /token, /register and /revoke.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import {
  createOAuthMetadata,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import express from "express";
import type { Hono } from "hono";
import { cors } from "hono/cors";
import { AGENT_SCOPE } from "../../services/oauth/index.ts";
import { limitOperation } from "../../services/ratelimit/index.ts";
import type { AppEnv } from "../env.ts";
import { problem } from "../problem.ts";
import { mcpResource } from "./protected-resource.ts";
import { quireOAuthProvider, requestContext } from "./provider.ts";

export const AUTHORIZATION_SERVER_PATH = "/.well-known/oauth-authorization-server";

const ENDPOINTS = ["/authorize", "/token", "/register", "/revoke"] as const;

/**
 * The issuer: the site's origin. OAuth needs it on https (RFC 8414 §2), or on a loopback
 * host for development and tests, as the SDK checks; on any other http origin Quire runs no
 * authorization server and `/mcp` takes agent keys only.
 */
export function issuerOf(baseUrl: string): URL | null {
  const url = new URL(new URL(baseUrl).origin);
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  return url.protocol === "https:" || loopback ? url : null;
}

/**
 * RFC 8414 metadata as the SDK builds it, with what Quire changes: every client is public, so
 * `none` is the only token endpoint authentication, and the one scope is named. With
 * `clientMetadataDocuments`, `client_id_metadata_document_supported` tells MCP clients they
 * may use an https URL of their metadata as `client_id` instead of registering.
 */
function metadataOf(issuer: URL, clientMetadataDocuments: boolean) {
  const sdk = createOAuthMetadata({
    provider: quireOAuthProvider(),
    issuerUrl: issuer,
    scopesSupported: [AGENT_SCOPE],
    serviceDocumentationUrl: new URL("/llms.txt", issuer),
  });
  return {
    ...sdk,
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    ...(clientMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
  };
}

/** Mounts the authorization server; returns the issuer to name in the resource metadata. */
export function registerAuthorizationServer(
  app: Hono<AppEnv>,
  options: { baseUrl: string; clientMetadataDocuments: boolean },
): string[] {
  const issuer = issuerOf(options.baseUrl);
  if (!issuer) return [];
  const body = JSON.stringify(metadataOf(issuer, options.clientMetadataDocuments));
  app.use(
    AUTHORIZATION_SERVER_PATH,
    cors({ origin: "*", allowMethods: ["GET", "HEAD", "OPTIONS"] }),
  );
  app.get(AUTHORIZATION_SERVER_PATH, (c) =>
    c.body(body, 200, {
      "content-type": "application/json",
      "cache-control": "public, max-age=3600",
    }),
  );

  // Quire's own per-IP limits apply (below); the SDK's in-memory ones would count per instance.
  const off = { rateLimit: false } as const;
  const handlers = express();
  handlers.disable("x-powered-by");
  handlers.use(
    mcpAuthRouter({
      provider: quireOAuthProvider(),
      issuerUrl: issuer,
      resourceServerUrl: new URL(mcpResource(options.baseUrl)),
      scopesSupported: [AGENT_SCOPE],
      resourceName: "Quire",
      authorizationOptions: off,
      tokenOptions: off,
      clientRegistrationOptions: off,
      revocationOptions: off,
    }),
  );

  for (const path of ENDPOINTS) {
    app.all(path, async (c) => {
      const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
      if (!env?.incoming || !env.outgoing) {
        return problem(c, 501, "The authorization server answers only over Quire's HTTP server.");
      }
      const ctx = c.get("ctx");
      // Registration, authorization and token requests cost a read from the client's address.
      await limitOperation(ctx, "read", { ip: c.get("clientIp") });
      const { incoming, outgoing } = env;
      await new Promise<void>((resolve) => {
        outgoing.once("close", resolve);
        outgoing.once("finish", resolve);
        requestContext.run(ctx, () => {
          handlers(incoming as express.Request, outgoing as express.Response, () => {
            outgoing.statusCode = 404;
            outgoing.end();
          });
        });
      });
      return RESPONSE_ALREADY_SENT;
    });
  }
  return [issuer.href];
}
