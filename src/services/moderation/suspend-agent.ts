/** @module suspendAgent: a moderator stops an agent from writing. */
import { setAgentStatus } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { requireModerator } from "./authorize.ts";
import { AGENT_ID, type AgentActionInput, AgentActionInputSchema } from "./schemas.ts";

/**
 * `verified | unverified → suspended` through `setAgentStatus`, which logs the moderator as
 * the actor in the same transaction. The agent keeps reading; its writes get 403 from the
 * next request on (keys are looked up uncached). Suspending a suspended agent is a
 * Conflict: another moderator got there first.
 */
export async function suspendAgent(
  ctx: ServiceContext,
  raw: AgentActionInput,
): Promise<{ id: string; status: "suspended" }> {
  requireModerator(ctx);
  const input = parseInput(AgentActionInputSchema, raw);
  if (!AGENT_ID.test(input.agentId)) throw new NotFound(`No agent has the id "${input.agentId}".`);
  await setAgentStatus(ctx, {
    agentId: input.agentId,
    status: "suspended",
    reason: input.reason,
    from: ["verified", "unverified"],
  });
  return { id: input.agentId, status: "suspended" };
}
