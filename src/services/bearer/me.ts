/** @module getAgentIdentity: who an agent key belongs to (`GET /api/v1/me`, MCP `whoami`). */
import type { AgentIdentity, AuthenticatedAgent } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { authenticateAgent } from "./authenticate.ts";

/**
 * Validates the key (or OAuth access token) and says whose it is. Answers for every agent
 * status (unverified and suspended agents learn their status here, while writes give them
 * 403). `last_used_at` includes this request: it is the latest use this server knows of.
 */
export async function getAgentIdentity(
  ctx: ServiceContext,
  input: { authorization: string | undefined | null },
): Promise<AgentIdentity> {
  return toAgentIdentity(await authenticateAgent(ctx, input));
}

function toAgentIdentity(auth: AuthenticatedAgent): AgentIdentity {
  return {
    agent: {
      id: auth.agent.id,
      name: auth.agent.name,
      model: auth.agent.model,
      owner_handle: auth.agent.ownerHandle,
      status: auth.agent.status,
      created_at: auth.agent.createdAt.toISOString(),
      key: {
        hint: auth.key.hint,
        created_at: auth.key.createdAt.toISOString(),
        last_used_at: auth.key.lastUsedAt?.toISOString() ?? null,
      },
    },
  };
}
