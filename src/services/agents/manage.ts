/** @module The owner's side of agents on the site: list them, rotate or revoke their keys. */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agentKeys, agents } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { mintKey } from "./keys.ts";

export interface OwnerAgentKey {
  hint: string;
  created_at: string;
  last_used_at: string | null;
  /** Set when the agent's newest key was revoked and no other was minted since. */
  revoked_at: string | null;
}

export interface OwnerAgent {
  id: string;
  name: string;
  model: string;
  status: "unverified" | "verified" | "suspended";
  created_at: string;
  /** The agent's live key, else its latest revoked one; null if it never had a key. */
  key: OwnerAgentKey | null;
}

function ownerOf(ctx: ServiceContext): string {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Sign in to manage your agents.");
  return ctx.caller.ownerId;
}

/** The signed-in owner's agents, newest first, each with its live key (or its last revoked one). */
export async function listOwnerAgents(ctx: ServiceContext): Promise<OwnerAgent[]> {
  const ownerId = ownerOf(ctx);
  const rows = await ctx.db
    .select()
    .from(agents)
    .where(eq(agents.ownerId, ownerId))
    .orderBy(desc(agents.createdAt), desc(agents.id));
  if (rows.length === 0) return [];
  const keys = await ctx.db
    .select()
    .from(agentKeys)
    .where(
      inArray(
        agentKeys.agentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(
      sql`${agentKeys.revokedAt} is null desc`,
      desc(agentKeys.createdAt),
      desc(agentKeys.id),
    );
  const newest = new Map<string, (typeof keys)[number]>();
  for (const key of keys) if (!newest.has(key.agentId)) newest.set(key.agentId, key);
  return rows.map((row) => {
    const key = newest.get(row.id);
    return {
      id: row.id,
      name: row.name,
      model: row.model,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      key: key
        ? {
            hint: key.hint,
            created_at: key.createdAt.toISOString(),
            last_used_at: key.lastUsedAt?.toISOString() ?? null,
            revoked_at: key.revokedAt?.toISOString() ?? null,
          }
        : null,
    };
  });
}

/** Locks one of the caller's agents; anyone else's agent is a 404, never a 403 (no probing). */
async function lockOwnAgent(db: Db, ownerId: string, agentId: string) {
  const [row] = await db
    .select({ id: agents.id, name: agents.name })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.ownerId, ownerId)))
    .for("update")
    .limit(1);
  if (!row) throw new NotFound("You have no agent with that id.");
  return row;
}

/**
 * Mints a new key for one of the caller's agents and revokes its old ones in the same
 * transaction: the old key stops working the moment the new one exists (no grace period).
 * The new key is returned once and never stored.
 */
export async function rotateAgentKey(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<{ agent_id: string; name: string; key: string; key_hint: string }> {
  const ownerId = ownerOf(ctx);
  const now = ctx.clock.now();
  const minted = mintKey(ctx.settings.keyPrefix);
  const name = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const agent = await lockOwnAgent(db, ownerId, input.agentId);
    await db
      .update(agentKeys)
      .set({ revokedAt: now })
      .where(and(eq(agentKeys.agentId, input.agentId), isNull(agentKeys.revokedAt)));
    await db.insert(agentKeys).values({
      id: newId("key", now),
      agentId: input.agentId,
      keyHash: minted.hash,
      hint: minted.hint,
      createdAt: now,
    });
    return agent.name;
  });
  ctx.logger.info({ agent_id: input.agentId }, "agent key rotated");
  return { agent_id: input.agentId, name, key: minted.key, key_hint: minted.hint };
}

/** Revokes every live key of one of the caller's agents; the agent stays and can get a new key. */
export async function revokeAgentKey(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<{ agent_id: string; revoked: number }> {
  const ownerId = ownerOf(ctx);
  const now = ctx.clock.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await lockOwnAgent(db, ownerId, input.agentId);
    const rows = await db
      .update(agentKeys)
      .set({ revokedAt: now })
      .where(and(eq(agentKeys.agentId, input.agentId), isNull(agentKeys.revokedAt)))
      .returning({ id: agentKeys.id });
    return rows.length;
  });
  ctx.logger.info({ agent_id: input.agentId, revoked }, "agent key revoked");
  return { agent_id: input.agentId, revoked };
}
