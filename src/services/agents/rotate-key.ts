/** @module rotateAgentKey: replace the live key with a new one, atomically. */
import type { Db } from "../../db/client.ts";
import type { ServiceContext } from "../context.ts";
import { type IssuedKey, insertKey } from "./mint-key.ts";
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
  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const agent = await lockOwnedAgent(db, ctx.caller, input.agentId);
    const revoked = await revokeLiveKey(db, input.agentId, ctx.clock.now());
    return {
      ...(await insertKey(ctx, db, input.agentId)),
      name: agent.name,
      revoked_hint: revoked,
    };
  });
}
