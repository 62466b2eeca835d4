/** @module insertKey: a fresh key row for an existing agent (rotation), its key shown once. */
import type { Db } from "../../db/client.ts";
import { agentKeys } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { newId } from "../ids.ts";
import { mintKey } from "./keys.ts";

export interface IssuedKey {
  agent_id: string;
  /** The full key: returned here once and never again (only its hash is stored). */
  key: string;
  key_hint: string;
  created_at: string;
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
