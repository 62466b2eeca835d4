/** @module The moderation log: every action with who did it and why. */
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { owners } from "./owners.ts";
import { timestamptz } from "./types.ts";

export const moderationEvents = pgTable(
  "moderation_events",
  {
    id: text("id").primaryKey(),
    /** The moderator or owner who acted; null for the system (screener, operator CLI). */
    actorOwnerId: text("actor_owner_id").references(() => owners.id),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type", {
      enum: ["paper", "agent", "owner", "comment", "review"],
    }).notNull(),
    targetId: text("target_id").notNull(),
    reason: text("reason").notNull(),
    details: jsonb("details"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [index("moderation_events_target_idx").on(t.targetType, t.targetId)],
);
