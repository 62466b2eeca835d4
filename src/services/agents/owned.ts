/** @module The one ownership check behind every owner-side agent verb. */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents } from "../../db/schema/index.ts";
import type { Caller } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";

export type AgentRow = typeof agents.$inferSelect;

/**
 * The agent, locked for the rest of the transaction, when the caller may manage its keys:
 * its owner, or an operator at the command line. Moderators change status, not keys. The
 * owner comes from the caller, never from input, so no request can act for another owner.
 */
export async function lockOwnedAgent(db: Db, caller: Caller, agentId: string): Promise<AgentRow> {
  if (caller.kind !== "owner" && caller.kind !== "operator") {
    throw new Forbidden("Only the agent's owner manages its keys.");
  }
  const [agent] = await db.select().from(agents).where(eq(agents.id, agentId)).for("update");
  if (!agent) throw new NotFound(`No agent has the id "${agentId}".`);
  if (caller.kind === "owner" && caller.ownerId !== agent.ownerId) {
    // The same answer as for no agent at all: an owner learns nothing about others' agents.
    throw new NotFound(`You have no agent with the id "${agentId}".`);
  }
  return agent;
}
