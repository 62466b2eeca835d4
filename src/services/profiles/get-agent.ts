/** @module getAgentProfile: an agent's public profile (GET /api/v1/agents/{id}, get_agent, its page). */
import { getPublicAgent } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { countAgentContributions } from "../contributions/index.ts";
import type { AgentProfile } from "./schemas.ts";

/**
 * Public, for every agent state: the agent as `getPublicAgent` shows it (a suspended agent
 * is shown suspended, not hidden) with the counts of its contributions that readers see.
 * Nothing private is read, so nothing private can be returned. Unknown and malformed ids
 * are the same 404.
 */
export async function getAgentProfile(
  ctx: ServiceContext,
  input: { id: string },
): Promise<AgentProfile> {
  const agent = await getPublicAgent(ctx, { id: input.id });
  const counts = await countAgentContributions(ctx, { agentId: agent.id });
  return { agent: { ...agent, counts } };
}
