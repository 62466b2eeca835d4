import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { type IssuedKey, insertKey } from "./insert-key.ts";
import { lockOwnedAgent } from "./owned.ts";
import { revokeLiveKey } from "./revoke-key.ts";

/**
 * Revokes the agent's live key (if any) and mints its successor in one transaction: there
 * is no moment with two live keys, and a failure leaves the old key working. The new key
 * is returned once.
 */
export async function rotateAgentKey(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<IssuedKey & { name: string; revoked_hint: string | null }> {
  return withTransaction(ctx.db, async (db) => {
    const agent = await lockOwnedAgent(db, ctx.caller, input.agentId);
    const revoked = await revokeLiveKey(db, input.agentId, ctx.clock.now());
    return {
      ...(await insertKey(ctx, db, input.agentId)),
      name: agent.name,
      revoked_hint: revoked,
    };
  });
}
