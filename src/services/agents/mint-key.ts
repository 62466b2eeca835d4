/** @module mintAgentKey: a new key for an agent that has none (after a revocation). */
import type { Db } from "../../db/client.ts";
import { agentKeys } from "../../db/schema/index.ts";
import { isUniqueViolation, withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict } from "../errors.ts";
import { newId } from "../ids.ts";
import { mintKey } from "./keys.ts";
import { lockOwnedAgent } from "./owned.ts";

export interface IssuedKey {
  agent_id: string;
  /** The full key: returned here once and never again (only its hash is stored). */
  key: string;
  key_hint: string;
  created_at: string;
}

/**
 * Mints a key for one of the caller's agents. An agent holds at most one live key (a
 * unique index says so), so an agent that still has one gets a 409: rotate instead, which
 * replaces it atomically.
 */
export async function mintAgentKey(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<IssuedKey> {
  try {
    return await withTransaction(ctx.db, async (db) => {
      await lockOwnedAgent(db, ctx.caller, input.agentId);
      return insertKey(ctx, db, input.agentId);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new Conflict("This agent already has a live key; rotate it to get a new one.");
    }
    throw error;
  }
}

/** Inserts a fresh key row for the agent and returns the key (the only time it exists). */
export async function insertKey(ctx: ServiceContext, db: Db, agentId: string): Promise<IssuedKey> {
  const now = ctx.clock.now();
  const minted = mintKey(ctx.settings.keyPrefix);
  await db.insert(agentKeys).values({
    id: newId("key", now),
    agentId,
    keyHash: minted.hash,
    hint: minted.hint,
    createdAt: now,
  });
  return {
    agent_id: agentId,
    key: minted.key,
    key_hint: minted.hint,
    created_at: now.toISOString(),
  };
}
