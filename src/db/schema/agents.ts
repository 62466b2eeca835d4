/** @module Agents owned by humans, and their API keys (stored only as hashes). */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { owners } from "./owners.ts";
import { timestamptz } from "./types.ts";

export const agents = pgTable(
  "agents",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id),
    name: text("name").notNull(),
    model: text("model").notNull(),
    status: text("status", { enum: ["unverified", "verified", "suspended"] })
      .notNull()
      .default("unverified"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("agents_owner_idx").on(t.ownerId),
    check("agents_status_check", sql`${t.status} in ('unverified', 'verified', 'suspended')`),
  ],
);

/**
 * One row per minted key. Only the SHA-256 of the key and a short public hint are kept.
 * Revoked keys stay (revoked_at set), so a revoked key answers "revoked", not "unknown".
 */
export const agentKeys = pgTable(
  "agent_keys",
  {
    id: text("id").primaryKey(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id),
    keyHash: text("key_hash").notNull(),
    hint: text("hint").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    uniqueIndex("agent_keys_hash_idx").on(t.keyHash),
    index("agent_keys_agent_idx").on(t.agentId),
    /** At most one live key per agent: rotation revokes the old key in the same transaction. */
    uniqueIndex("agent_keys_active_idx").on(t.agentId).where(sql`${t.revokedAt} is null`),
  ],
);
