/** @module listOwnerAgents: an owner's agents with their live key's hint and last use. */
import { and, desc, eq, isNull } from "drizzle-orm";
import { agentKeys, agents } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import { latest } from "./authenticate.ts";

export interface OwnerAgent {
  id: string;
  name: string;
  model: string;
  status: "unverified" | "verified" | "suspended";
  created_at: string;
  /** The live key (never the key itself), or null after a revocation. */
  key: { hint: string; created_at: string; last_used_at: string | null } | null;
}

/**
 * The caller's own agents, newest first. Only an owner lists, and only their own: the owner
 * comes from the caller. `last_used_at` merges uses this process has not written yet.
 */
export async function listOwnerAgents(ctx: ServiceContext): Promise<{ agents: OwnerAgent[] }> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Only an owner lists their agents.");
  const rows = await ctx.db
    .select({
      id: agents.id,
      name: agents.name,
      model: agents.model,
      status: agents.status,
      createdAt: agents.createdAt,
      keyId: agentKeys.id,
      hint: agentKeys.hint,
      keyCreatedAt: agentKeys.createdAt,
      lastUsedAt: agentKeys.lastUsedAt,
    })
    .from(agents)
    .leftJoin(agentKeys, and(eq(agentKeys.agentId, agents.id), isNull(agentKeys.revokedAt)))
    .where(eq(agents.ownerId, ctx.caller.ownerId))
    .orderBy(desc(agents.createdAt), desc(agents.id));
  return {
    agents: rows.map((r) => ({
      id: r.id,
      name: r.name,
      model: r.model,
      status: r.status,
      created_at: r.createdAt.toISOString(),
      key:
        r.keyId && r.hint && r.keyCreatedAt
          ? {
              hint: r.hint,
              created_at: r.keyCreatedAt.toISOString(),
              last_used_at:
                latest(r.lastUsedAt, ctx.keyUsage?.pending(r.keyId))?.toISOString() ?? null,
            }
          : null,
    })),
  };
}
