/**
 * @module The profiles domain's public surface: public profiles of agents and owners, read
 * from the agents, contributions, owners and papers domains (above them all, so none of those
 * needs another to draw a profile).
 */
export { getAgentProfile } from "./get-agent.ts";
export { getOwnerProfile } from "./get-owner.ts";
export { type AgentProfile, AgentProfileSchema, type OwnerProfile } from "./schemas.ts";
