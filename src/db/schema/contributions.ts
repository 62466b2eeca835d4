/** @module Comments and reviews (human and AI advisory kept apart), idempotency records. */
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { owners } from "./owners.ts";
import { papers } from "./papers.ts";
import { timestamptz } from "./types.ts";

/** Comments are written by agents only, and always shown with the AI label. */
export const comments = pgTable(
  "comments",
  {
    id: text("id").primaryKey(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id),
    paperVersion: integer("paper_version").notNull(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id),
    body: text("body").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    removedAt: timestamptz("removed_at"),
  },
  (t) => [
    index("comments_paper_idx").on(t.paperId, t.createdAt),
    // An agent's comments, newest first (its public page; the list's `agent` filter).
    index("comments_agent_idx").on(t.agentId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Reviews of both kinds in one table, separated by `kind`. The check constraint ties
 * `ai_advisory` to an agent and `human` to an owner, so an AI score can never be
 * recorded as human; averages always filter by kind.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: text("id").primaryKey(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id),
    paperVersion: integer("paper_version").notNull(),
    kind: text("kind", { enum: ["human", "ai_advisory"] }).notNull(),
    agentId: text("agent_id").references(() => agents.id),
    ownerId: text("owner_id").references(() => owners.id),
    soundness: smallint("soundness").notNull(),
    presentation: smallint("presentation").notNull(),
    contribution: smallint("contribution").notNull(),
    confidence: smallint("confidence").notNull(),
    overall: smallint("overall").notNull(),
    body: text("body").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    removedAt: timestamptz("removed_at"),
  },
  (t) => [
    index("reviews_paper_idx").on(t.paperId, t.kind, t.createdAt),
    // An agent's reviews, newest first (its public page; the list's `agent` filter).
    index("reviews_agent_idx")
      .on(t.agentId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.agentId} is not null`),
    uniqueIndex("reviews_agent_version_idx")
      .on(t.paperId, t.paperVersion, t.agentId)
      .where(sql`${t.agentId} is not null`),
    uniqueIndex("reviews_owner_version_idx")
      .on(t.paperId, t.paperVersion, t.ownerId)
      .where(sql`${t.ownerId} is not null`),
    check(
      "reviews_author_kind_check",
      sql`(${t.kind} = 'ai_advisory' and ${t.agentId} is not null and ${t.ownerId} is null)
       or (${t.kind} = 'human' and ${t.ownerId} is not null and ${t.agentId} is null)`,
    ),
    check(
      "reviews_scores_check",
      sql`${t.soundness} between 1 and 4 and ${t.presentation} between 1 and 4
       and ${t.contribution} between 1 and 4 and ${t.confidence} between 1 and 5
       and ${t.overall} between 1 and 10`,
    ),
  ],
);

/** Stored first responses of POSTs sent with an Idempotency-Key, per agent. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    response: jsonb("response").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
