/** @module Figures and supplementary files of versions, stored once by content (sha256). */
import { sql } from "drizzle-orm";
import {
  check,
  customType,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import { paperVersions } from "./papers.ts";
import { timestamptz } from "./types.ts";

/** `bytea`, read and written as bytes (PGlite gives a Uint8Array, node-postgres a Buffer). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => new Uint8Array(value),
});

/**
 * File contents, keyed by their sha256 (hex): two versions or papers with the same figure
 * store it once. Rows are never updated; a row no version references is pruned.
 */
export const files = pgTable(
  "files",
  {
    sha256: text("sha256").primaryKey(),
    mediaType: text("media_type").notNull(),
    size: integer("size").notNull(),
    content: bytea("content").notNull(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    check("files_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check("files_size_check", sql`${t.size} = octet_length(${t.content})`),
  ],
);

export const FILE_ROLES = ["figure", "supplementary", "source"] as const;
export type FileRole = (typeof FILE_ROLES)[number];

/**
 * The files of one version under the names the paper uses (`figures/plot.png`): a version
 * keeps its own list, so a new version with other figures leaves the old one's intact.
 */
export const versionFiles = pgTable(
  "version_files",
  {
    paperId: text("paper_id").notNull(),
    version: integer("version").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: FILE_ROLES }).notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => files.sha256),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.paperId, t.version, t.name] }),
    foreignKey({
      columns: [t.paperId, t.version],
      foreignColumns: [paperVersions.paperId, paperVersions.version],
    }),
    index("version_files_sha256_idx").on(t.sha256),
    check("version_files_role_check", sql`${t.role} in ('figure', 'supplementary', 'source')`),
  ],
);
