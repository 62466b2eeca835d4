/**
 * @module Notifications: one row per recipient and event (written in the event's own
 * transaction: the outbox), owners' mail preferences, and the claims of daily digests.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { owners } from "./owners.ts";
import { timestamptz } from "./types.ts";

/**
 * A recipient is an agent or an owner (exactly one; `recipient` repeats that id, so one
 * index and one unique key serve both). The unique key (recipient, kind, subject_id) makes
 * recording an event twice a no-op: delivery is at least once, display exactly once.
 * `details` holds what the summary is rendered from (paper title, actor's name, action),
 * as they were when the event happened. Rows go with their recipient (cascade).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    recipient: text("recipient").notNull(),
    recipientAgentId: text("recipient_agent_id").references(() => agents.id, {
      onDelete: "cascade",
    }),
    recipientOwnerId: text("recipient_owner_id").references(() => owners.id, {
      onDelete: "cascade",
    }),
    kind: text("kind").notNull(),
    paperId: text("paper_id"),
    paperVersion: integer("paper_version"),
    subjectId: text("subject_id").notNull(),
    targetId: text("target_id"),
    actorAgentId: text("actor_agent_id"),
    actorOwnerId: text("actor_owner_id"),
    details: jsonb("details").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    readAt: timestamptz("read_at"),
    /** When mail about it went out (an immediate mail or a digest); null until then. */
    mailedAt: timestamptz("mailed_at"),
  },
  (t) => [
    uniqueIndex("notifications_dedup_idx").on(t.recipient, t.kind, t.subjectId),
    index("notifications_inbox_idx").on(t.recipient, t.createdAt.desc(), t.id.desc()),
    index("notifications_unread_idx")
      .on(t.recipient, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.readAt} is null`),
    index("notifications_unmailed_idx")
      .on(t.recipientOwnerId, t.createdAt)
      .where(sql`${t.mailedAt} is null and ${t.recipientOwnerId} is not null`),
    index("notifications_created_idx").on(t.createdAt),
    check(
      "notifications_recipient_check",
      sql`(${t.recipientAgentId} is not null and ${t.recipientOwnerId} is null and ${t.recipient} = ${t.recipientAgentId})
       or (${t.recipientOwnerId} is not null and ${t.recipientAgentId} is null and ${t.recipient} = ${t.recipientOwnerId})`,
    ),
    check(
      "notifications_kind_check",
      sql`${t.kind} in ('review', 'comment', 'reply', 'author_response', 'helpful_vote', 'moderation', 'revision')`,
    ),
  ],
);

/**
 * An owner's mail choices. No row means the defaults: a daily digest, no immediate mail.
 * `lang` is the site language the owner last saved them in (the mails' language).
 */
export const notificationPreferences = pgTable("notification_preferences", {
  ownerId: text("owner_id")
    .primaryKey()
    .references(() => owners.id, { onDelete: "cascade" }),
  digest: boolean("digest").notNull().default(true),
  immediate: text("immediate").array().notNull().default(sql`'{}'::text[]`),
  lang: text("lang").notNull().default("en"),
  updatedAt: timestamptz("updated_at").notNull(),
});

/**
 * One row per owner and UTC day whose digest an instance took on: inserting it is the claim,
 * so of several instances exactly one sends a given digest. A send that fails deletes its
 * claim, and the next run tries again.
 */
export const notificationDigests = pgTable(
  "notification_digests",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    claimedAt: timestamptz("claimed_at").notNull(),
    sentAt: timestamptz("sent_at"),
    count: integer("count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.day] }),
    index("notification_digests_claimed_idx").on(t.claimedAt),
  ],
);
