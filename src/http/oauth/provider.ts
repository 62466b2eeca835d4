/** @module The MCP SDK's OAuthServerProvider over Quire's OAuth service verbs. */
import { AsyncLocalStorage } from "node:async_hooks";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import {
  AccessDeniedError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  type OAuthError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ServiceContext } from "../../services/context.ts";
import { domainErrorOf, Invalid } from "../../services/errors.ts";
import {
  authenticateAccessToken,
  challengeForCode,
  createAuthorizationRequest,
  exchangeCode,
  exchangeRefreshToken,
  getClient,
  type OAuthClient,
  OAuthRefusal,
  registerClient,
  revokeByToken,
} from "../../services/oauth/index.ts";

/**
 * The request the SDK's Express handlers are answering: its service context, and the first
 * failure that was not a protocol refusal (an outage, a bug). The SDK's provider methods get
 * no request object, so this travels with the async call chain; the SDK answers such a
 * failure as a bare 500 `server_error`, which sdk-handlers.ts replaces using `failure`.
 */
export interface OAuthRequestState {
  ctx: ServiceContext;
  requestId: string;
  failure?: unknown;
}

export const requestContext = new AsyncLocalStorage<OAuthRequestState>();

function state(): OAuthRequestState {
  const current = requestContext.getStore();
  if (!current) throw new Error("OAuth request without a service context");
  return current;
}

const ctx = (): ServiceContext => state().ctx;

/** RFC 7591 §3.2.2; the SDK has no class for it. */
class InvalidRedirectUriError extends InvalidClientMetadataError {
  static override errorCode = "invalid_redirect_uri";
}

const ERRORS: Record<OAuthRefusal["oauthCode"], new (message: string) => OAuthError> = {
  invalid_request: InvalidRequestError,
  invalid_client: InvalidClientError,
  invalid_grant: InvalidGrantError,
  invalid_target: InvalidTargetError,
  access_denied: AccessDeniedError,
  invalid_client_metadata: InvalidClientMetadataError,
  invalid_redirect_uri: InvalidRedirectUriError,
};

/**
 * The one mapping of the OAuth service's errors to the SDK's: refusals become protocol
 * errors (400 or an error redirect), other invalid input `invalid_request`; anything else is
 * remembered as the request's failure and rethrown for the SDK to answer (see `state`).
 */
async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthRefusal) throw new ERRORS[error.oauthCode](error.message);
    const domain = domainErrorOf(error);
    if (domain instanceof Invalid) throw new InvalidRequestError(domain.message);
    const current = state();
    current.failure ??= error;
    throw error;
  }
}

/**
 * The SDK validates each request (client, redirect URI with RFC 8252 loopback ports, S256
 * challenge, registration metadata, the PKCE verifier) and calls these; Quire stores and
 * decides, with the context of the request being answered (`requestContext`).
 */
export function quireOAuthProvider(): OAuthServerProvider {
  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) =>
      mapped(() => getClient(ctx(), { clientId })) as Promise<
        OAuthClientInformationFull | undefined
      >,
    registerClient: (client) =>
      mapped(() =>
        registerClient(ctx(), client as OAuthClient),
      ) as Promise<OAuthClientInformationFull>,
  };
  return {
    clientsStore,
    async authorize(client, params, res) {
      const { requestId } = await mapped(() =>
        createAuthorizationRequest(ctx(), {
          client: client as OAuthClient,
          params: {
            state: params.state,
            scopes: params.scopes,
            codeChallenge: params.codeChallenge,
            redirectUri: params.redirectUri,
            resource: params.resource?.href,
          },
        }),
      );
      res.redirect(302, `/oauth/consent/${requestId}`);
    },
    challengeForAuthorizationCode: (client, code) =>
      mapped(() => challengeForCode(ctx(), { clientId: client.client_id, code })),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      mapped(() =>
        exchangeCode(ctx(), {
          clientId: client.client_id,
          code,
          redirectUri,
          resource: resource?.href,
        }),
      ),
    exchangeRefreshToken: (client, refreshToken, _scopes, resource) =>
      mapped(() =>
        exchangeRefreshToken(ctx(), {
          clientId: client.client_id,
          refreshToken,
          resource: resource?.href,
        }),
      ),
    async verifyAccessToken(token): Promise<AuthInfo> {
      const auth = await authenticateAccessToken(ctx(), { token });
      return { token, clientId: auth.key.id, scopes: ["agent"] };
    },
    revokeToken: (client, request) =>
      mapped(() => revokeByToken(ctx(), { clientId: client.client_id, token: request.token })),
  };
}
