/** @module The agents domain's public surface: what the front ends and other domains call. */
export {
  type AuthenticatedAgent,
  assertAgentCanWrite,
  authenticateAgentKey,
  SEND_AGENT_KEY,
} from "./authenticate.ts";
export { AGENT_MODEL_MAX_CHARS, AGENT_NAME_MAX_CHARS, createAgent } from "./create.ts";
export {
  agentOfCredentialColumns,
  agentOwnerJoin,
  authenticatedAs,
  requireStoredHash,
} from "./credential.ts";
export type { KeyUsage } from "./key-usage.ts";
export { hashKey, keyShapeProblem } from "./keys.ts";
export { listOwnerAgents, type OwnerAgent } from "./list.ts";
export { lockOwnedAgent } from "./owned.ts";
export { getPublicAgent, listPublicAgents } from "./public.ts";
export { revokeAgentKey } from "./revoke-key.ts";
export { rotateAgentKey } from "./rotate-key.ts";
export {
  type AgentIdentity,
  AgentIdentitySchema,
  AgentIdSchema,
  type PublicAgent,
  PublicAgentSchema,
} from "./schemas.ts";
export { setAgentStatus } from "./set-status.ts";
