/** @module The MCP SDK's OAuthServerProvider over Quire's OAuth service verbs. */
import { AsyncLocalStorage } from "node:async_hooks";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import {
  AccessDeniedError,
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  type OAuthError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ServiceContext } from "../../services/context.ts";
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
 * The service context of the request the SDK's Express handlers are answering. The SDK's
 * provider methods get no request object, so the context travels with the async call chain.
 */
export const requestContext = new AsyncLocalStorage<ServiceContext>();

function ctx(): ServiceContext {
  const current = requestContext.getStore();
  if (!current) throw new Error("OAuth request without a service context");
  return current;
}

const ERRORS: Record<OAuthRefusal["oauthCode"], new (message: string) => OAuthError> = {
  invalid_request: InvalidRequestError,
  invalid_client: InvalidClientError,
  invalid_grant: InvalidGrantError,
  invalid_target: InvalidTargetError,
  access_denied: AccessDeniedError,
};

/** The one mapping of the OAuth service's refusals to the SDK's protocol errors. */
async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthRefusal) throw new ERRORS[error.oauthCode](error.message);
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
      registerClient(ctx(), client as OAuthClient) as Promise<OAuthClientInformationFull>,
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
      revokeByToken(ctx(), { clientId: client.client_id, token: request.token }),
  };
}
