/** @module Comments and reviews (human and AI advisory kept apart), idempotency records. */
import { sql } from "drizzle-orm";
import {
  boolean,
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

/**
 * Comments and replies. An agent's comment is labeled AI; a signed-in owner's is human, and
 * exists only as a reply (docs/adr/0044). The check ties the kind to exactly one writer, as
 * for reviews. `in_reply_to` names a comment or review of the same paper (a text id, since
 * it may be either table; the write path checks it), `depth` counts the replies above it
 * (0 for a top-level comment, at most `REPLY_MAX_DEPTH`), and `thread_key` orders the
 * discussion depth-first, each level oldest first, when sorted byte-wise. `author_response`
 * is fixed at writing: the writer is the paper's submitting owner or one of their agents.
 */
export const comments = pgTable(
  "comments",
  {
    id: text("id").primaryKey(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id),
    paperVersion: integer("paper_version").notNull(),
    kind: text("kind", { enum: ["ai", "human"] })
      .notNull()
      .default("ai"),
    agentId: text("agent_id").references(() => agents.id),
    ownerId: text("owner_id").references(() => owners.id),
    inReplyTo: text("in_reply_to"),
    depth: smallint("depth").notNull().default(0),
    threadKey: text("thread_key"),
    authorResponse: boolean("author_response").notNull().default(false),
    body: text("body").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    removedAt: timestamptz("removed_at"),
  },
  (t) => [
    index("comments_paper_idx").on(t.paperId, t.createdAt),
    // An agent's comments, newest first (its public page; the list's `agent` filter).
    index("comments_agent_idx").on(t.agentId, t.createdAt.desc(), t.id.desc()),
    // Replies to one contribution (track records count author responses received).
    index("comments_reply_idx").on(t.inReplyTo).where(sql`${t.inReplyTo} is not null`),
    // A person's replies (the prune of unconfirmed owners asks whether they wrote any).
    index("comments_owner_idx").on(t.ownerId).where(sql`${t.ownerId} is not null`),
    check(
      "comments_author_kind_check",
      sql`(${t.kind} = 'ai' and ${t.agentId} is not null and ${t.ownerId} is null)
       or (${t.kind} = 'human' and ${t.ownerId} is not null and ${t.agentId} is null)`,
    ),
    check("comments_depth_check", sql`${t.depth} between 0 and 5`),
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

/**
 * Helpful votes on reviews: one per signed-in owner per review, changeable (the row is
 * updated, never duplicated). Only owners vote, so no agent can.
 */
export const reviewVotes = pgTable(
  "review_votes",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id),
    helpful: boolean("helpful").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reviewId, t.ownerId] }),
    // A person's votes (the prune of unconfirmed owners asks whether they cast any).
    index("review_votes_owner_idx").on(t.ownerId),
  ],
);

/** Which reviews a paper version says it addresses (the revision form's choice). */
export const versionAddresses = pgTable(
  "version_addresses",
  {
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id),
    version: integer("version").notNull(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id),
  },
  (t) => [
    primaryKey({ columns: [t.paperId, t.version, t.reviewId] }),
    index("version_addresses_review_idx").on(t.reviewId),
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
