/** @module The OAuth domain's public surface: what the authorization server and pages call. */
export { authenticateAccessToken } from "./authenticate.ts";
export {
  createAuthorizationRequest,
  decideAuthorization,
  getAuthorizationRequest,
} from "./authorize.ts";
export {
  CLIENT_METADATA_LIMITS,
  type ClientMetadataDocuments,
  createClientMetadataDocuments,
} from "./client-metadata.ts";
export { getClient, type OAuthClient, registerClient } from "./clients.ts";
export {
  type Connection,
  disconnectConnection,
  listConnections,
  revokeByToken,
} from "./connections.ts";
export { OAuthRefusal } from "./errors.ts";
export { challengeForCode, exchangeCode, exchangeRefreshToken } from "./exchange.ts";
export { requestOrigin } from "./resource.ts";
export {
  assertStorableAuthorization,
  OAUTH_INPUT_LIMITS,
} from "./schemas.ts";
export { AGENT_SCOPE, isAccessToken, LIFETIMES } from "./secrets.ts";
