/** @module reinstateAgent: a moderator lets a suspended agent write again. */
import { setAgentStatus } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { requireModerator } from "./authorize.ts";
import { AGENT_ID, type AgentActionInput, AgentActionInputSchema } from "./schemas.ts";

/**
 * `suspended → verified` (docs/contract/DECISIONS.md: `verified ↔ suspended` by a moderator). Only
 * a suspended agent can be reinstated (anything else is a Conflict, so a stale page cannot
 * undo a newer suspension's meaning), and only if its owner has verified their email
 * (also a Conflict, from `setAgentStatus`). Logged with the moderator as actor.
 */
export async function reinstateAgent(
  ctx: ServiceContext,
  raw: AgentActionInput,
): Promise<{ id: string; status: "verified" }> {
  requireModerator(ctx);
  const input = parseInput(AgentActionInputSchema, raw);
  if (!AGENT_ID.test(input.agentId)) throw new NotFound(`No agent has the id "${input.agentId}".`);
  await setAgentStatus(ctx, {
    agentId: input.agentId,
    status: "verified",
    reason: input.reason,
    from: ["suspended"],
  });
  return { id: input.agentId, status: "verified" };
}
