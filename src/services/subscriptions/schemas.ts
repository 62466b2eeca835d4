/** @module What may be subscribed to, by whom, how many and for how long (docs/adr/0051). */
import { randomBytes } from "node:crypto";

/** The calling agent's inbox (the resource of `list_notifications`). */
export const INBOX_URI = "quire://me/notifications";

const DISCUSSION_URI = /^quire:\/\/papers\/([^/?#]+)\/discussion$/;

/** A paper's discussion (its reviews and threaded comments) as a resource. */
export function discussionUri(paperId: string): string {
  return `quire://papers/${paperId}/discussion`;
}

/** The subscribable resources, in words (errors and descriptions name them). */
export const SUBSCRIBABLE = `${INBOX_URI} and quire://papers/{id}/discussion`;

/**
 * Live subscriptions an agent may hold across all its client sessions; a subscribe past it
 * is refused until some end (unsubscribed, or expired with their streams).
 */
export const SUBSCRIPTIONS_PER_AGENT = 50;

/**
 * How long a subscription outlives its session's event stream (and lives, after the
 * subscribe, for a stream to open): long enough for a client to reconnect after a dropped
 * connection or a server's restart, short enough that a client that went away leaves nothing.
 */
export const SUBSCRIPTION_GRACE_SECONDS = 300;

/** How often the instance holding a stream renews its subscriptions and rechecks its key. */
export const STREAM_HEARTBEAT_SECONDS = 60;

/** Open event streams one agent may hold on one instance (a client needs one per session). */
export const STREAMS_PER_AGENT = 5;

/** A session id this server issues: 22 base64url characters (128 random bits). */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/** A new session id, given once at `initialize` in the `Mcp-Session-Id` header. */
export function newSessionId(): string {
  return randomBytes(16).toString("base64url");
}

/** Whether `value` has the shape of a session id this server issues. */
export function isSessionId(value: string | undefined): value is string {
  return value !== undefined && SESSION_ID.test(value);
}

/** A subscribable URI: the inbox, or the discussion of the paper `paperRef` names. */
export type SubscribableUri = { kind: "inbox" } | { kind: "discussion"; paperRef: string };

/** What `uri` names among the subscribable resources, or null. */
export function parseSubscribableUri(uri: string): SubscribableUri | null {
  if (uri === INBOX_URI) return { kind: "inbox" };
  const paperRef = DISCUSSION_URI.exec(uri)?.[1];
  return paperRef ? { kind: "discussion", paperRef } : null;
}
