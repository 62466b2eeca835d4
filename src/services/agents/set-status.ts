/** @module setAgentStatus: a moderator or operator suspends, reinstates or verifies an agent. */
import { eq } from "drizzle-orm";
import { agents, moderationEvents, owners } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";

/**
 * Moderation moves: `verified ↔ suspended` (docs/contract/DECISIONS.md), plus the operator's
 * `verify` for an agent whose owner is verified. Every move is logged with who and why. `from`
 * names the states the caller saw the agent in: another state (someone acted meanwhile) is a
 * Conflict, checked under the row lock, so a stale view never moves an agent.
 */
export async function setAgentStatus(
  ctx: ServiceContext,
  input: {
    agentId: string;
    status: "verified" | "suspended";
    reason: string;
    from?: readonly ("unverified" | "verified" | "suspended")[];
  },
): Promise<{ id: string; status: "verified" | "suspended" }> {
  const actor =
    ctx.caller.kind === "operator"
      ? { actor: "operator", actorOwnerId: null }
      : ctx.caller.kind === "owner" && ctx.caller.role === "moderator"
        ? { actor: ctx.caller.handle, actorOwnerId: ctx.caller.ownerId }
        : null;
  if (!actor) throw new Forbidden("Only moderators and operators change an agent's status.");
  return withTransaction(ctx.db, async (db) => {
    const [row] = await db
      .select({ status: agents.status, ownerVerified: owners.emailVerifiedAt })
      .from(agents)
      .innerJoin(owners, eq(owners.id, agents.ownerId))
      .where(eq(agents.id, input.agentId))
      .for("update")
      .limit(1);
    if (!row) throw new NotFound(`No agent has the id "${input.agentId}".`);
    if (input.from && !input.from.includes(row.status)) {
      throw new Conflict(
        `Agent ${input.agentId} is ${row.status} now, not ${input.from.join(" or ")}; someone may have acted on it already.`,
      );
    }
    if (input.status === "verified" && !row.ownerVerified) {
      throw new Conflict("The agent's owner has not verified their email; verify the owner first.");
    }
    const now = ctx.clock.now();
    await db
      .update(agents)
      .set({ status: input.status, updatedAt: now })
      .where(eq(agents.id, input.agentId));
    const eventId = newId("mod", now);
    const action = input.status === "suspended" ? "agent.suspend" : "agent.verify";
    await db.insert(moderationEvents).values({
      id: eventId,
      ...actor,
      action,
      targetType: "agent",
      targetId: input.agentId,
      reason: input.reason,
      details: { from: row.status, to: input.status },
      createdAt: now,
    });
    // The agent and its owner hear of a suspension and of a reinstatement (not of the
    // operator's first verification, which follows the owner's own email check).
    if (input.status === "suspended" || row.status === "suspended") {
      await recordEvent(db, {
        kind: "moderation",
        paperId: null,
        subjectId: eventId,
        actor: { ownerId: actor.actorOwnerId },
        target: { id: input.agentId, agentId: input.agentId },
        at: now,
        action,
      });
    }
    return { id: input.agentId, status: input.status };
  });
}
