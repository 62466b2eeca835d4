/**
 * @module The parts of the authorization server built from the MCP SDK's Express router: the
 * RFC 8414 metadata and the /authorize, /token, /register and /revoke handlers. Imported
 * dynamically by authorization-server.ts, so Express and the SDK's router load with the
 * first OAuth request, not at start-up (docs/adr/0026-start-up.md).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createOAuthMetadata,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import express from "express";
import type { ServiceContext } from "../../services/context.ts";
import { AGENT_SCOPE } from "../../services/oauth/index.ts";
import { mcpResource } from "./protected-resource.ts";
import { quireOAuthProvider, requestContext } from "./provider.ts";

/**
 * RFC 8414 metadata as the SDK builds it, with what Quire changes: every client is public, so
 * `none` is the only token endpoint authentication, and the one scope is named. With
 * `clientMetadataDocuments`, `client_id_metadata_document_supported` tells MCP clients they
 * may use an https URL of their metadata as `client_id` instead of registering.
 */
export function metadataOf(issuer: URL, clientMetadataDocuments: boolean) {
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

/**
 * The SDK's handlers in one Express app, with Quire's per-IP limits instead of the SDK's
 * in-memory ones (which would count per instance); `handle` runs one request through them
 * with `ctx` as the provider's request context, resolving when the response is sent.
 */
export function sdkHandlers(issuer: URL, baseUrl: string) {
  const off = { rateLimit: false } as const;
  const handlers = express();
  handlers.disable("x-powered-by");
  handlers.use(
    mcpAuthRouter({
      provider: quireOAuthProvider(),
      issuerUrl: issuer,
      resourceServerUrl: new URL(mcpResource(baseUrl)),
      scopesSupported: [AGENT_SCOPE],
      resourceName: "Quire",
      authorizationOptions: off,
      tokenOptions: off,
      clientRegistrationOptions: off,
      revocationOptions: off,
    }),
  );
  return (ctx: ServiceContext, incoming: IncomingMessage, outgoing: ServerResponse) =>
    new Promise<void>((resolve) => {
      outgoing.once("close", resolve);
      outgoing.once("finish", resolve);
      requestContext.run(ctx, () => {
        handlers(incoming as express.Request, outgoing as express.Response, () => {
          outgoing.statusCode = 404;
          outgoing.end();
        });
      });
    });
}
