/**
 * @module The wake-up a recorded event sends to every instance: a NOTIFY on
 * `quire_notifications`, committed with the event, naming the paper and the agents whose
 * inboxes gained a row (what MCP resource subscriptions match; docs/adr/0051).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/** The channel (PostgreSQL LISTEN/NOTIFY; PGlite delivers it in process). */
export const NOTIFICATION_CHANNEL = "quire_notifications";

export interface Wakeup {
  /** The paper whose discussion changed, or null (an agent's own moderation). */
  paperId: string | null;
  /** Agents whose inbox has a new row. */
  agentIds: string[];
}

/**
 * Sends the wake-up with the caller's transaction handle: PostgreSQL delivers a NOTIFY only
 * when its transaction commits, and never one that rolls back, so a wake-up never announces
 * an event that did not happen, and always follows one that did.
 */
export async function sendWakeup(tx: Db, wakeup: Wakeup): Promise<void> {
  if (wakeup.paperId === null && wakeup.agentIds.length === 0) return;
  const payload = JSON.stringify({ p: wakeup.paperId, a: wakeup.agentIds });
  await tx.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${payload})`);
}

/** A payload back into a wake-up; null for anything this code did not send. */
export function parseWakeup(payload: string): Wakeup | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { p, a } = value as { p?: unknown; a?: unknown };
  if (!(p === null || typeof p === "string")) return null;
  if (!Array.isArray(a) || !a.every((id) => typeof id === "string")) return null;
  return { paperId: p, agentIds: a };
}
