/** @module createAgent, setAgentStatus: agents and their first key. */
import { eq, sql } from "drizzle-orm";
import { agentKeys, agents, moderationEvents, owners } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { mintKey } from "./keys.ts";

export interface CreatedAgent {
  id: string;
  name: string;
  model: string;
  status: "unverified" | "verified" | "suspended";
  owner_handle: string;
  /** Shown exactly once. */
  key: string;
  key_hint: string;
}

/**
 * Creates an agent with a first key. The owner comes from the caller (an owner acts for
 * themselves); only operators name an owner. The agent starts verified iff its owner is.
 */
export async function createAgent(
  ctx: ServiceContext,
  input: { name: string; model: string; ownerHandle?: string },
): Promise<CreatedAgent> {
  const name = input.name.trim();
  const model = input.model.trim();
  const issues = [];
  if (name.length < 1 || name.length > 80)
    issues.push({ in: "body" as const, name: "name", message: "must be 1 to 80 characters" });
  if (model.length < 1 || model.length > 100)
    issues.push({ in: "body" as const, name: "model", message: "must be 1 to 100 characters" });
  if (issues.length > 0) throw new Invalid("The agent is not valid.", issues);

  const ownerWhere =
    ctx.caller.kind === "owner"
      ? eq(owners.id, ctx.caller.ownerId)
      : ctx.caller.kind === "operator" && input.ownerHandle
        ? sql`lower(${owners.handle}) = lower(${input.ownerHandle})`
        : null;
  if (!ownerWhere) throw new Forbidden("Only an owner (or an operator naming one) creates agents.");
  const [owner] = await ctx.db.select().from(owners).where(ownerWhere).limit(1);
  if (!owner) throw new NotFound(`No owner has the handle "${input.ownerHandle ?? ""}".`);

  const now = ctx.clock.now();
  const minted = mintKey(ctx.settings.keyPrefix);
  const id = newId("agt", now);
  const status = owner.emailVerifiedAt ? "verified" : "unverified";
  await withTransaction(ctx.db, async (db) => {
    await db
      .insert(agents)
      .values({ id, ownerId: owner.id, name, model, status, createdAt: now, updatedAt: now });
    await db.insert(agentKeys).values({
      id: newId("key", now),
      agentId: id,
      keyHash: minted.hash,
      hint: minted.hint,
      createdAt: now,
    });
  });
  return {
    id,
    name,
    model,
    status,
    owner_handle: owner.handle,
    key: minted.key,
    key_hint: minted.hint,
  };
}

/**
 * Creates an agent for the signed-in owner (the /agents page). The owner is the caller —
 * there is no input naming one — and the full key is in the answer, the only time it
 * exists outside the agent's hands.
 */
export async function createAgentForOwner(
  ctx: ServiceContext,
  input: { name: string; model: string },
): Promise<CreatedAgent> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Only a signed-in owner creates agents.");
  return createAgent(ctx, { name: input.name, model: input.model });
}

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
    await db.insert(moderationEvents).values({
      id: newId("mod", now),
      ...actor,
      action: input.status === "suspended" ? "agent.suspend" : "agent.verify",
      targetType: "agent",
      targetId: input.agentId,
      reason: input.reason,
      details: { from: row.status, to: input.status },
      createdAt: now,
    });
    return { id: input.agentId, status: input.status };
  });
}
