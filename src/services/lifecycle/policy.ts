/**
 * @module The retention policy: for every table that outside requests write and that is not
 * the archive's content, what bounds it, how long its rows are kept and which rows the prune
 * removes. The one place these rules live; docs/data-lifecycle.md explains them.
 */
import { type SQL, sql } from "drizzle-orm";
import { IDEMPOTENCY_TTL_SECONDS } from "../contributions/index.ts";
import { CLIENT_METADATA_LIMITS, LIFETIMES } from "../oauth/index.ts";
import { SESSIONS_PER_OWNER } from "../owners/index.ts";
import { SUBSCRIPTION_GRACE_SECONDS, SUBSCRIPTIONS_PER_AGENT } from "../subscriptions/index.ts";

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/** Retentions in seconds, past the moment a row stops being useful (each is explained below). */
export const RETENTION = {
  /**
   * Expired tokens and ended grants stay a day, so a client presenting a token that has just
   * expired or been revoked is told so, not that the token is unknown.
   */
  oauthGraceSeconds: DAY,
  /**
   * A used refresh token is what detects a replay (exchange.ts: presenting it again revokes
   * the whole family). It is kept while its grant lives and for one refresh lifetime after its
   * own expiry, so a stolen token replayed up to two months after it was issued still
   * revokes the family, and an app that refreshes every ten minutes for years does not keep
   * every token it ever used.
   */
  usedRefreshSeconds: LIFETIMES.refreshSeconds,
  /**
   * A client with no grant and no pending request: a registration nobody used, or a metadata
   * document fetched for an authorization nobody approved. Kept a day, and always longer
   * than any instance may cache the document (so the row exists whenever the document is
   * served from a cache), measured from the row's last write.
   */
  unusedClientSeconds: Math.max(DAY, CLIENT_METADATA_LIMITS.maxCacheSeconds) + HOUR,
  /**
   * An account never verified: the link lasts 48 hours and can be asked for again; a week
   * later, with no live link, no live session and nothing owned, it is given up, which also
   * frees its email address and handle for their real owner.
   */
  unverifiedOwnerSeconds: 7 * DAY,
  /** Resolved reports: half a year for moderators to look back; the moderation log stays. */
  resolvedReportSeconds: 180 * DAY,
  /** Idempotency keys: exactly their replay window; after it a key starts a new request. */
  idempotencySeconds: IDEMPOTENCY_TTL_SECONDS,
  /**
   * Notifications, read or not: 90 days after the event. The inbox is a recent-activity view,
   * not an archive (the discussion itself stays on the paper, with its Atom feed).
   */
  notificationSeconds: 90 * DAY,
  /** A digest's claim: 7 days, far past the one day it stops a second digest being sent. */
  digestClaimSeconds: 7 * DAY,
  /**
   * A file content no version references: a day after it was stored. Contents are stored in
   * the transaction of the version that uses them, so this only waits out one that is still
   * being put in place, and none younger is ever touched.
   */
  unusedFileSeconds: DAY,
} as const;

/**
 * The columns that make an owner "own something". A foreign key to owners that does not
 * cascade must be listed here (a test compares this list with the database's catalog), so
 * the prune never tries to delete an owner something still points at.
 */
export const OWNER_REFERENCES = [
  { table: "agents", column: "owner_id" },
  { table: "papers", column: "owner_id" },
  { table: "screening_results", column: "owner_id" },
  { table: "reviews", column: "owner_id" },
  { table: "comments", column: "owner_id" },
  { table: "review_votes", column: "owner_id" },
  { table: "oauth_grants", column: "owner_id" },
  { table: "reports", column: "reporter_owner_id" },
  { table: "reports", column: "resolved_by_owner_id" },
  { table: "moderation_events", column: "actor_owner_id" },
] as const;

/** One rule of the policy: a table, and the rows of it past retention at `now`. */
export interface RetentionRule {
  /** The table. */
  store: string;
  /** What keeps the table from growing without bound while rows are within retention. */
  bound: string;
  /** How long rows are kept, in words (docs/data-lifecycle.md quotes it exactly). */
  retention: string;
  /**
   * Conditions (on the table's own columns, the table unaliased) selecting rows past
   * retention; each is pruned in turn, so each can use an index of its own.
   */
  prunable(now: Date): SQL[];
  /** Rows per statement at most, below the prune's batch size (rows that are large). */
  batchMax?: number;
  /**
   * Rows another transaction has locked are left for the next run instead of waited for
   * (a file content a version being stored is about to reference).
   */
  skipLocked?: boolean;
}

const at = (now: Date, secondsBefore = 0) =>
  sql`${new Date(now.getTime() - secondsBefore * 1000).toISOString()}::timestamptz`;

/**
 * A grant whose family has ended, as a condition on `oauth_grants`: revoked, a code that was
 * never exchanged, or every refresh token expired (the newest one a day ago or more).
 */
function endedGrant(now: Date): SQL {
  const grace = at(now, RETENTION.oauthGraceSeconds);
  return sql`(oauth_grants.revoked_at < ${grace}
    or (oauth_grants.code_used_at is null and oauth_grants.code_expires_at < ${grace})
    or (oauth_grants.code_used_at is not null and not exists (
      select 1 from oauth_tokens live
      where live.grant_id = oauth_grants.id and live.kind = 'refresh' and live.expires_at >= ${grace})))`;
}

/**
 * Not null while `quire migrate` is copying into this database (its progress schema,
 * src/services/operations/migrate.ts, exists until the copy is verified): files are copied
 * before the versions that reference them, so until then they are not unused.
 */
const migrationUnfinished = sql`to_regclass('quire_migrate.run')`;

/**
 * The rules, in the order the prune applies them: tokens before their grants, grants and
 * requests before their clients, sessions and links before the accounts they belong to.
 */
export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    store: "oauth_requests",
    bound:
      "the `reads` rate limit per address (/authorize draws on it), times a 10-minute lifetime",
    retention: "until expired (10 minutes)",
    prunable: (now) => [sql`oauth_requests.expires_at < ${at(now)}`],
  },
  {
    store: "oauth_tokens",
    bound: "two rows per code exchange or refresh of a grant an owner approved",
    retention:
      "access and unused refresh tokens: 1 day after expiry; used refresh tokens: 30 days after expiry; all tokens of an ended grant",
    prunable: (now) => [
      sql`(oauth_tokens.kind = 'access' or oauth_tokens.used_at is null)
        and oauth_tokens.expires_at < ${at(now, RETENTION.oauthGraceSeconds)}`,
      sql`oauth_tokens.kind = 'refresh' and oauth_tokens.used_at is not null
        and oauth_tokens.expires_at < ${at(now, RETENTION.usedRefreshSeconds)}`,
      sql`oauth_tokens.grant_id in (select oauth_grants.id from oauth_grants where ${endedGrant(now)})`,
    ],
  },
  {
    store: "oauth_grants",
    bound: "one row per consent a signed-in owner gives",
    retention:
      "1 day after revocation, after its code expired unexchanged, or after its newest refresh token expired",
    prunable: (now) => [endedGrant(now)],
  },
  {
    store: "oauth_clients",
    bound:
      "the `reads` rate limit per address on /register and /authorize, times the unused-client retention",
    retention:
      "25 hours after its last registration or metadata fetch, when it has no grant and no pending request",
    prunable: (now) => [
      sql`oauth_clients.refreshed_at < ${at(now, RETENTION.unusedClientSeconds)}
        and not exists (select 1 from oauth_grants g where g.client_id = oauth_clients.client_id)
        and not exists (select 1 from oauth_requests r where r.client_id = oauth_clients.client_id)`,
    ],
  },
  {
    store: "sessions",
    bound: `at most ${SESSIONS_PER_OWNER} live sessions per owner (a sign-in past it ends the oldest), and owners as below`,
    retention: "until expired (14 days after sign-in)",
    prunable: (now) => [sql`sessions.expires_at < ${at(now)}`],
  },
  {
    store: "email_tokens",
    bound: "the mail throttle: 5 links per address and 20 per client address an hour",
    retention: "until used or expired (48 hours for verification, 1 hour for reset)",
    prunable: (now) => [
      sql`email_tokens.expires_at < ${at(now)}`,
      sql`email_tokens.used_at is not null`,
    ],
  },
  {
    store: "owners",
    bound: "sign-ups are throttled by the mail throttle (each mails a link) and the form limit",
    retention:
      "never-verified accounts: 7 days after sign-up, once they have no live link, no live session and own nothing",
    prunable: (now) => [
      sql`owners.email_verified_at is null and owners.role = 'owner'
        and owners.created_at < ${at(now, RETENTION.unverifiedOwnerSeconds)}
        and not exists (select 1 from sessions s where s.owner_id = owners.id and s.expires_at >= ${at(now)})
        and not exists (select 1 from email_tokens e where e.owner_id = owners.id
          and e.used_at is null and e.expires_at >= ${at(now)})
        and not exists (select 1 from moderation_events m
          where m.target_type = 'owner' and m.target_id = owners.id)
        ${sql.join(
          OWNER_REFERENCES.map(
            ({ table, column }) =>
              sql`and not exists (select 1 from ${sql.identifier(table)} o where o.${sql.identifier(column)} = owners.id)`,
          ),
          sql` `,
        )}`,
    ],
  },
  {
    store: "idempotency_keys",
    bound: "the per-agent comment and review quotas (a key is stored with a write)",
    retention: "24 hours (the replay window)",
    prunable: (now) => [
      sql`idempotency_keys.created_at < ${at(now, RETENTION.idempotencySeconds)}`,
    ],
  },
  {
    store: "notifications",
    bound:
      "one row per recipient (at most the paper's owner, the target's author and its owner) per event, and events are writes bounded by their rate limits; a unique key (recipient, kind, subject) keeps a redelivered event to one row",
    retention: "90 days after the event, read or unread",
    prunable: (now) => [sql`notifications.created_at < ${at(now, RETENTION.notificationSeconds)}`],
  },
  {
    store: "notification_digests",
    bound: "one row per owner per day a digest is mailed",
    retention: "7 days after the digest was claimed",
    prunable: (now) => [
      sql`notification_digests.claimed_at < ${at(now, RETENTION.digestClaimSeconds)}`,
    ],
  },
  {
    store: "resource_subscriptions",
    bound: `at most ${SUBSCRIPTIONS_PER_AGENT} live MCP resource subscriptions per agent (a subscribe past it is refused); a subscription is renewed only while its session's event stream is open`,
    retention: `until expired: ${SUBSCRIPTION_GRACE_SECONDS / 60} minutes after its session's event stream was last open (or after the subscribe, when none opened)`,
    prunable: (now) => [sql`resource_subscriptions.expires_at <= ${at(now)}`],
  },
  {
    store: "reports",
    bound:
      "the `reports` rate limit: 10 an hour per address; open reports stay until a moderator resolves them",
    retention: "resolved reports: 180 days after resolution",
    prunable: (now) => [
      sql`reports.status = 'resolved' and reports.resolved_at < ${at(now, RETENTION.resolvedReportSeconds)}`,
    ],
  },
  {
    store: "files",
    bound:
      "`FILES_MAX_MB` in all (default 2,048 MiB; a version whose new files would pass it is refused), each content stored once; per version the bundle bounds of [files.md](files.md)",
    retention:
      "content no version references: 1 day after it was stored (not while a migration into the database is unfinished)",
    prunable: (now) => [
      sql`files.created_at < ${at(now, RETENTION.unusedFileSeconds)}
        and not exists (select 1 from version_files v where v.sha256 = files.sha256)
        and ${migrationUnfinished} is null`,
    ],
    // A content is up to 10 MiB: 50 of them are at most 500 MiB per statement.
    batchMax: 50,
    skipLocked: true,
  },
  {
    // After `reports`: a reader's filing event goes in the same run as its report.
    store: "moderation_events",
    bound:
      "moderators' actions, and one `report.file` per stored report (the `reports` limit and 20 open readers' reports per target)",
    retention:
      "a reader's `report.file` event: as long as its report; moderators' actions are kept (the moderation log)",
    prunable: () => [
      sql`moderation_events.action = 'report.file'
        and not exists (select 1 from reports r where r.id = moderation_events.details->>'report_id')`,
    ],
  },
];
