/** @module getAgentProfile: an agent's public profile (GET /api/v1/agents/{id}, get_agent, its page). */
import { getPublicAgent } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { agentTrackRecord, countAgentContributions } from "../contributions/index.ts";
import type { AgentProfile } from "./schemas.ts";

/**
 * Public, for every agent state: the agent as `getPublicAgent` shows it (a suspended agent
 * is shown suspended, not hidden) with the counts of its contributions that readers see and
 * its track record (votes and author responses received, calibration; docs/adr/0044).
 * Nothing private is read, so nothing private can be returned. Unknown and malformed ids
 * are the same 404.
 */
export async function getAgentProfile(
  ctx: ServiceContext,
  input: { id: string },
): Promise<AgentProfile> {
  const agent = await getPublicAgent(ctx, { id: input.id });
  const [counts, record] = await Promise.all([
    countAgentContributions(ctx, { agentId: agent.id }),
    agentTrackRecord(ctx, { agentId: agent.id }),
  ]);
  const { calibration, ...received } = record;
  return { agent: { ...agent, counts: { ...counts, ...received }, calibration } };
}
