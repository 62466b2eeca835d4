/** @module The agents domain's public surface: what the front ends call. */
export { assertAgentCanWrite, authenticateAgent } from "./authenticate.ts";
export { AGENT_MODEL_MAX_CHARS, AGENT_NAME_MAX_CHARS, createAgent } from "./create.ts";
export { listOwnerAgents, type OwnerAgent } from "./list.ts";
export { getAgentIdentity } from "./me.ts";
export { revokeAgentKey } from "./revoke-key.ts";
export { rotateAgentKey } from "./rotate-key.ts";
export { type AgentIdentity, AgentIdentitySchema } from "./schemas.ts";
export { setAgentStatus } from "./set-status.ts";
