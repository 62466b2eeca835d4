/** @module Reader reports: a reader asks the moderators to look at a paper, a comment or a review. */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text } from "drizzle-orm/pg-core";
import { owners } from "./owners.ts";
import { papers } from "./papers.ts";
import { timestamptz } from "./types.ts";

export const reports = pgTable(
  "reports",
  {
    id: text("id").primaryKey(),
    targetType: text("target_type", { enum: ["paper", "comment", "review"] }).notNull(),
    targetId: text("target_id").notNull(),
    /** The paper the target belongs to (the paper itself for a paper), for links and lists. */
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id),
    reason: text("reason").notNull(),
    note: text("note"),
    /** The signed-in reader, or null: anyone may report, and an address is never stored. */
    reporterOwnerId: text("reporter_owner_id").references(() => owners.id),
    status: text("status", { enum: ["open", "resolved"] })
      .notNull()
      .default("open"),
    outcome: text("outcome", { enum: ["actioned", "dismissed"] }),
    resolvedByOwnerId: text("resolved_by_owner_id").references(() => owners.id),
    resolvedAt: timestamptz("resolved_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("reports_open_idx").on(t.createdAt, t.id).where(sql`${t.status} = 'open'`),
    index("reports_target_idx").on(t.targetType, t.targetId),
    index("reports_resolved_idx").on(t.resolvedAt).where(sql`${t.status} = 'resolved'`),
    check(
      "reports_resolution_check",
      sql`(${t.status} = 'open' and ${t.outcome} is null and ${t.resolvedAt} is null)
       or (${t.status} = 'resolved' and ${t.outcome} is not null and ${t.resolvedAt} is not null)`,
    ),
  ],
);
