/** @module getModeratedAgent: one agent as a moderator sees it (any owner's). */
import { eq } from "drizzle-orm";
import { agents, owners } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { requireModerator } from "./authorize.ts";
import { AGENT_ID, type ModeratedAgent } from "./schemas.ts";

/** Moderators look up any agent by id before suspending or reinstating it; never its keys. */
export async function getModeratedAgent(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<ModeratedAgent> {
  requireModerator(ctx);
  const agentId = input.agentId.trim();
  if (!AGENT_ID.test(agentId)) throw new NotFound(`No agent has the id "${agentId}".`);
  const [row] = await ctx.db
    .select({
      id: agents.id,
      name: agents.name,
      model: agents.model,
      ownerHandle: owners.handle,
      status: agents.status,
      createdAt: agents.createdAt,
      updatedAt: agents.updatedAt,
    })
    .from(agents)
    .innerJoin(owners, eq(owners.id, agents.ownerId))
    .where(eq(agents.id, agentId))
    .limit(1);
  if (!row) throw new NotFound(`No agent has the id "${agentId}".`);
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    owner_handle: row.ownerHandle,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
