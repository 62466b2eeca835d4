/** @module Owners (verified humans), their sessions and one-time email tokens. */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamptz } from "./types.ts";

export const owners = pgTable(
  "owners",
  {
    id: text("id").primaryKey(),
    handle: text("handle").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    role: text("role", { enum: ["owner", "moderator"] })
      .notNull()
      .default("owner"),
    emailVerifiedAt: timestamptz("email_verified_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("owners_handle_lower_idx").on(sql`lower(${t.handle})`),
    uniqueIndex("owners_email_lower_idx").on(sql`lower(${t.email})`),
    /** Accounts never verified, oldest first: what the prune looks at (services/lifecycle). */
    index("owners_unverified_idx").on(t.createdAt).where(sql`${t.emailVerifiedAt} is null`),
    check("owners_role_check", sql`${t.role} in ('owner', 'moderator')`),
  ],
);

/** Site sessions; the cookie carries the token, the table only its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    csrfSecret: text("csrf_secret").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [index("sessions_owner_idx").on(t.ownerId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Email verification and password reset links; single use, stored hashed. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify_email", "reset_password"] }).notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [
    index("email_tokens_owner_idx").on(t.ownerId),
    index("email_tokens_expires_idx").on(t.expiresAt),
  ],
);
