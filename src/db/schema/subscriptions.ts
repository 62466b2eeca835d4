/**
 * @module MCP resource subscriptions: which agent's client session wants
 * `notifications/resources/updated` for which resource (docs/adr/0051).
 */
import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { papers } from "./papers.ts";
import { timestamptz } from "./types.ts";

/**
 * One row per agent, client session (the `Mcp-Session-Id` the server gave at initialize) and
 * resource URI. Any instance reads them: the one holding the session's event stream matches
 * every wake-up against them. A row lives while its session's stream is open (the holder
 * pushes `expires_at` forward) and a grace after; `detached_at` says a stream was open and
 * closed, so one that opens again first re-announces the resource. `paper_id` is set for a
 * paper's discussion, for the match by paper. Rows go with their agent or paper (cascade).
 */
export const resourceSubscriptions = pgTable(
  "resource_subscriptions",
  {
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    uri: text("uri").notNull(),
    paperId: text("paper_id").references(() => papers.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    detachedAt: timestamptz("detached_at"),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.sessionId, t.uri] }),
    index("resource_subscriptions_paper_idx").on(t.paperId).where(sql`${t.paperId} is not null`),
    index("resource_subscriptions_expires_idx").on(t.expiresAt),
  ],
);
