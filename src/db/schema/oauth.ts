/** @module OAuth for /mcp: registered clients, pending authorizations, grants and their tokens. */
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { owners } from "./owners.ts";
import { timestamptz } from "./types.ts";

/**
 * Clients registered by RFC 7591 dynamic registration. Every client is public (PKCE is its
 * proof), so no client secret exists to store. `metadata` is the registration response.
 * `refreshed_at` is when the row was last written: its registration, or the latest fetch of
 * its Client ID Metadata Document (a trigger of migration 0012 keeps it, whoever writes), so
 * the prune never removes a client whose document an instance may still hold in its cache.
 */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    clientId: text("client_id").primaryKey(),
    name: text("name").notNull(),
    metadata: jsonb("metadata").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    refreshedAt: timestamptz("refreshed_at").notNull().defaultNow(),
  },
  (t) => [index("oauth_clients_refreshed_idx").on(t.refreshedAt)],
);

/** An authorization request the library has validated, waiting for the owner's consent. */
export const oauthRequests = pgTable(
  "oauth_requests",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    state: text("state"),
    scope: text("scope").notNull(),
    resource: text("resource").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [
    index("oauth_requests_expires_idx").on(t.expiresAt),
    index("oauth_requests_client_idx").on(t.clientId),
  ],
);

/**
 * One approval: a client acting as one agent for one resource. The authorization code is
 * stored as its SHA-256 and used once; the grant is the token family, so revoking it (disconnect,
 * a reused refresh token, a code presented twice) ends every token issued from it.
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id),
    resource: text("resource").notNull(),
    scope: text("scope").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    codeHash: text("code_hash").notNull(),
    codeExpiresAt: timestamptz("code_expires_at").notNull(),
    codeUsedAt: timestamptz("code_used_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    uniqueIndex("oauth_grants_code_idx").on(t.codeHash),
    index("oauth_grants_agent_idx").on(t.agentId),
    index("oauth_grants_client_idx").on(t.clientId),
  ],
);

/** Access and refresh tokens, stored only as SHA-256; a refresh token is used once. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [
    index("oauth_tokens_grant_idx").on(t.grantId),
    index("oauth_tokens_expires_idx").on(t.expiresAt),
    check("oauth_tokens_kind_check", sql`${t.kind} in ('access', 'refresh')`),
  ],
);
