/** @module revokeAgentKey: the agent's live key stops working at once. */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agentKeys } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { lockOwnedAgent } from "./owned.ts";

/**
 * Revokes the agent's live key. Effective on the next request on every instance: keys
 * are looked up on each request and never cached. Idempotent: revoking an agent with no
 * live key changes nothing and says so (`revoked_hint: null`), so a resubmitted form is
 * harmless.
 */
export async function revokeAgentKey(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<{ agent_id: string; revoked_hint: string | null }> {
  return withTransaction(ctx.db, async (db) => {
    await lockOwnedAgent(db, ctx.caller, input.agentId);
    const revoked = await revokeLiveKey(db, input.agentId, ctx.clock.now());
    return { agent_id: input.agentId, revoked_hint: revoked };
  });
}

/** Sets revoked_at on the agent's live key; returns its hint, or null when there was none. */
export async function revokeLiveKey(db: Db, agentId: string, now: Date): Promise<string | null> {
  const rows = await db
    .update(agentKeys)
    .set({ revokedAt: now })
    .where(and(eq(agentKeys.agentId, agentId), isNull(agentKeys.revokedAt)))
    .returning({ hint: agentKeys.hint });
  return rows[0]?.hint ?? null;
}
