/** @module Papers, their immutable versions, id counters and screening results. */
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import { owners } from "./owners.ts";
import { timestamptz } from "./types.ts";

export const PAPER_STATUSES = [
  "submitted",
  "published",
  "rejected",
  "withdrawn",
  "removed",
] as const;
export type PaperStatus = (typeof PAPER_STATUSES)[number];

/**
 * A paper: identity, lifecycle and a pointer to its current version. Only `published`
 * papers are visible. `published_at` is the first publication and orders the list.
 */
export const papers = pgTable(
  "papers",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").references(() => owners.id),
    status: text("status", { enum: PAPER_STATUSES }).notNull(),
    currentVersion: integer("current_version").notNull(),
    publishedAt: timestamptz("published_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
    statusReason: text("status_reason"),
    /** Caller-supplied key that makes `quire import` idempotent (sha256 of the source record). */
    importKey: text("import_key"),
    /**
     * Visible (not removed) comments and reviews of every version. Maintained by triggers on
     * `comments` and `reviews` (migration 0005), in the same transaction as the write, so
     * every writer (services, moderation, SQL by hand) keeps them exact; the list reads
     * them instead of counting per row.
     */
    commentCount: integer("comment_count").notNull().default(0),
    aiReviewCount: integer("ai_review_count").notNull().default(0),
    humanReviewCount: integer("human_review_count").notNull().default(0),
    /**
     * Subject codes of the arXiv category scheme (services/subjects), the primary first, then
     * up to four cross-lists; empty for papers published before subjects existed.
     */
    subjects: text("subjects").array().notNull().default(sql`'{}'::text[]`),
    /**
     * For a paper without subjects: the subject its closest papers share, found when a version
     * is published (services/papers `suggestSubject`); shown to its owner and to moderators,
     * never applied by itself. Null when the paper has subjects or no subject stood out.
     */
    suggestedSubject: text("suggested_subject"),
  },
  (t) => [
    index("papers_list_idx")
      .on(t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'published'`),
    // The list's other orders (`sort=updated`, `sort=discussed`) and its subject filter.
    index("papers_updated_idx")
      .on(t.updatedAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'published'`),
    index("papers_discussed_idx")
      .on(sql`(${t.commentCount} + ${t.aiReviewCount} + ${t.humanReviewCount}) desc`, t.id.desc())
      .where(sql`${t.status} = 'published'`),
    index("papers_subjects_idx").using("gin", t.subjects).where(sql`${t.status} = 'published'`),
    index("papers_owner_idx").on(t.ownerId),
    index("papers_import_key_idx").on(t.importKey),
    check(
      "papers_status_check",
      sql`${t.status} in ('submitted', 'published', 'rejected', 'withdrawn', 'removed')`,
    ),
    check("papers_subjects_check", sql`cardinality(${t.subjects}) <= 5`),
  ],
);

/** Monotonic per-month counters behind `YYMM.NNNNN` ids. */
export const paperIdCounters = pgTable("paper_id_counters", {
  yymm: text("yymm").primaryKey(),
  last: integer("last").notNull(),
});

/**
 * One row per published version. Rows are immutable: a trigger in the migrations rejects
 * every UPDATE, so a version once read is the version forever.
 */
export const paperVersions = pgTable(
  "paper_versions",
  {
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    abstract: text("abstract").notNull(),
    body: text("body").notNull(),
    aiModel: text("ai_model").notNull(),
    license: text("license").notNull(),
    keywords: text("keywords").array().notNull(),
    language: text("language").notNull(),
    changelog: text("changelog"),
    createdAt: timestamptz("created_at").notNull(),
    screeningStatus: text("screening_status", { enum: ["passed", "warnings"] }).notNull(),
    screenedAt: timestamptz("screened_at").notNull(),
    screenedBy: text("screened_by").notNull(),
    contentHash: text("content_hash").notNull(),
    simhash: bigint("simhash", { mode: "bigint" }).notNull(),
    /** 8-bit slices of `simhash`, tagged with their position, for near-duplicate lookup. */
    simhashBands: integer("simhash_bands").array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.paperId, t.version] }),
    index("paper_versions_content_hash_idx").on(t.contentHash),
    index("paper_versions_bands_idx").using("gin", t.simhashBands),
    index("paper_versions_keywords_idx").using("gin", sql`quire_lower_keywords(${t.keywords})`),
    check("paper_versions_version_check", sql`${t.version} >= 1`),
  ],
);

/**
 * Every screening run, including rejected submissions (which never get a paper id), so
 * owners can see why and moderators can audit the screener.
 */
export const screeningResults = pgTable(
  "screening_results",
  {
    id: text("id").primaryKey(),
    paperId: text("paper_id").references(() => papers.id),
    version: integer("version"),
    ownerId: text("owner_id").references(() => owners.id),
    title: text("title").notNull(),
    contentHash: text("content_hash").notNull(),
    outcome: text("outcome", { enum: ["passed", "warnings", "rejected"] }).notNull(),
    screener: text("screener").notNull(),
    reasons: jsonb("reasons").notNull(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    index("screening_results_paper_idx").on(t.paperId, t.version),
    index("screening_results_owner_idx").on(t.ownerId),
  ],
);
