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
import { domainErrorOf, Unavailable } from "../../services/errors.ts";
import {
  AGENT_SCOPE,
  assertStorableAuthorization,
  OAUTH_INPUT_LIMITS,
  OAuthRefusal,
} from "../../services/oauth/index.ts";
import { mcpResource } from "./protected-resource.ts";
import { type OAuthRequestState, quireOAuthProvider, requestContext } from "./provider.ts";
import { temporarilyUnavailable } from "./unavailable.ts";

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
 * with `ctx` as the provider's request context, resolving when the response is sent. Around
 * the SDK's router: the registration body's type and size, the stored authorization
 * parameters' bounds, body errors answered in OAuth's shape instead of falling through, and
 * failures (an outage, a bug) answered and logged as every other front end does.
 */
export function sdkHandlers(issuer: URL, baseUrl: string) {
  const off = { rateLimit: false } as const;
  const handlers = express();
  handlers.disable("x-powered-by");
  handlers.use(answerFailures);
  handlers.post(
    "/register",
    requireJsonBody,
    express.json({ limit: OAUTH_INPUT_LIMITS.registrationBodyBytes, verify: strictUtf8 }),
  );
  handlers.all(
    "/authorize",
    express.urlencoded({ extended: false, verify: strictUtf8 }),
    boundAuthorization,
  );
  // Parsed here so their bytes are checked too; the SDK's own parser then finds them parsed.
  handlers.post(["/token", "/revoke"], express.urlencoded({ extended: false, verify: strictUtf8 }));
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
  handlers.use(bodyErrors);
  return (
    ctx: ServiceContext,
    requestId: string,
    incoming: IncomingMessage,
    outgoing: ServerResponse,
  ) =>
    new Promise<void>((resolve) => {
      outgoing.once("close", resolve);
      outgoing.once("finish", resolve);
      outgoing.setHeader("x-request-id", requestId);
      const state: OAuthRequestState = { ctx, requestId };
      requestContext.run(state, () => {
        const req = incoming as express.Request;
        const res = outgoing as express.Response;
        handlers(req, res, (error?: unknown) => {
          if (error) {
            state.failure ??= error;
            answerFailure(state, res);
            return;
          }
          oauthError(res, 404, "invalid_request", "No OAuth endpoint is at this path.");
        });
      });
    });
}

type Handler = (req: express.Request, res: express.Response, next: express.NextFunction) => void;

function oauthError(res: express.Response, status: number, error: string, description: string) {
  res.status(status).set("cache-control", "no-store").json({
    error,
    error_description: description,
  });
}

/**
 * The SDK answers every failure that is not a protocol error as a bare 500 `server_error`
 * (or an error redirect). When the provider recorded one (`OAuthRequestState.failure`), that
 * answer is replaced: an outage is 503 with Retry-After and RFC 6749's
 * `temporarily_unavailable`, logged as a warning; anything else stays 500 and is logged as an
 * error, with the request id to quote. Either way the client is not redirected.
 */
const answerFailures: Handler = (_req, res, next) => {
  const state = requestContext.getStore();
  if (!state) return next();
  const json = res.json.bind(res);
  const redirect = res.redirect.bind(res);
  res.json = (body: unknown) => {
    if (state.failure === undefined) return json(body);
    answerFailure(state, res, json);
    return res;
  };
  res.redirect = ((...args: Parameters<express.Response["redirect"]>) => {
    if (state.failure === undefined) return redirect(...args);
    answerFailure(state, res, json);
  }) as express.Response["redirect"];
  next();
};

function answerFailure(
  state: OAuthRequestState,
  res: express.Response,
  json: (body: unknown) => express.Response = res.json.bind(res),
): void {
  const error = state.failure;
  state.failure = undefined;
  if (res.headersSent) return;
  res.set("cache-control", "no-store");
  const domain = domainErrorOf(error);
  if (domain instanceof Unavailable) {
    state.ctx.logger.warn({ err: error }, "oauth request unavailable");
    const answer = temporarilyUnavailable(domain);
    res.status(answer.status).set(answer.headers);
    json(answer.body);
    return;
  }
  state.ctx.logger.error({ err: error }, "oauth request failed");
  res.status(500);
  json({
    error: "server_error",
    error_description: `Something went wrong on our side; quote request id ${state.requestId}.`,
  });
}

/** RFC 7591 registration is JSON; any other type is 415 rather than an empty metadata error. */
const requireJsonBody: Handler = (req, res, next) => {
  if (req.is("application/json")) return next();
  res.set("access-control-allow-origin", "*");
  oauthError(res, 415, "invalid_client_metadata", "Send the client metadata as application/json.");
};

/**
 * `state` and the PKCE challenge are stored until the owner decides, so their bounds are
 * checked before the SDK sees the request, and a refusal is a plain 400: never an error
 * redirect that would carry an oversized `state` back, and before anything is stored.
 */
const boundAuthorization: Handler = (req, res, next) => {
  const params = (req.method === "POST" ? req.body : req.query) as Record<string, unknown> | null;
  const text = (name: string) =>
    typeof params?.[name] === "string" ? (params[name] as string) : undefined;
  try {
    assertStorableAuthorization({ state: text("state"), codeChallenge: text("code_challenge") });
  } catch (error) {
    if (!(error instanceof OAuthRefusal)) throw error;
    oauthError(res, 400, error.oauthCode, error.message);
    return;
  }
  next();
};

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes are kept or refused (as every other front end: src/http/body-limit.ts): a body that is
 * not UTF-8 is a 400 before anything reads it, never decoded with U+FFFD in place of its bytes.
 */
function strictUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  try {
    UTF8.decode(body);
  } catch {
    throw Object.assign(new Error("The request body is not valid UTF-8."), {
      status: 400,
      type: "encoding.invalid",
    });
  }
}

/**
 * Body parser errors (malformed JSON or form, over the size bound, an unsupported charset):
 * answered in OAuth's shape with their own status (400, 413, 415) instead of falling through
 * to a bare 404; registration's are `invalid_client_metadata` (RFC 7591 §3.2.2).
 */
function bodyErrors(
  error: unknown,
  req: express.Request,
  res: express.Response,
  next: express.NextFunction,
): void {
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (typeof status !== "number" || status >= 500 || res.headersSent) {
    next(error);
    return;
  }
  const code = req.path === "/register" ? "invalid_client_metadata" : "invalid_request";
  const description =
    type === "entity.too.large"
      ? req.path === "/register"
        ? `The registration body is over ${OAUTH_INPUT_LIMITS.registrationBodyBytes / 1024} KiB.`
        : "The request body is too large."
      : type === "entity.parse.failed"
        ? "The request body is not valid JSON."
        : type === "encoding.invalid"
          ? "The request body is not valid UTF-8."
          : type === "charset.unsupported" || type === "encoding.unsupported"
            ? "The request body's charset or encoding is not supported."
            : "The request body could not be read.";
  res.set("access-control-allow-origin", "*");
  oauthError(res, status, code, description);
}
