/** @module recordEvent: the outbox. Writes each recipient's notification in the event's transaction. */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, notifications, owners, papers, paperVersions } from "../../db/schema/index.ts";
import { newId } from "../ids.ts";
import type { NotificationDetails } from "./render.ts";
import type { NotificationKind } from "./schemas.ts";
import { sendWakeup } from "./wakeup.ts";

export interface NotificationEvent {
  kind: NotificationKind;
  /**
   * The paper (base id) the event is about; null only for a moderation action on an agent
   * itself (a suspension), which concerns no paper.
   */
  paperId: string | null;
  paperVersion?: number;
  /** Id of what happened (the new comment/review/vote/moderation event/version). */
  subjectId: string;
  /** Who did it (never notified of their own act). */
  actor: { agentId?: string | null; ownerId?: string | null };
  /** The contribution acted upon (reply target, voted review…), with its author. */
  target?: { id: string; agentId?: string | null; ownerId?: string | null };
  at: Date;
  /** Moderation: the logged action (`paper.remove`, `agent.suspend`, …). */
  action?: string;
}

/**
 * Kinds the paper's submitting owner hears of. A helpful vote concerns the review's author
 * only; the rest is activity on the owner's paper.
 */
const PAPER_OWNER_KINDS: ReadonlySet<NotificationKind> = new Set([
  "review",
  "comment",
  "reply",
  "author_response",
  "moderation",
  "revision",
]);

type Recipient = { agentId: string } | { ownerId: string };

/**
 * Writes the recipients' notification rows with the caller's transaction handle, so they
 * commit or roll back with the event (the outbox: nothing is sent from the request).
 * Recipients: the paper's submitting owner (for the kinds above); the target's author (an
 * agent: that agent and its owner; an owner: that owner); never the actor, nor, when an
 * agent acts, its own owner. A row's key is (recipient, kind, subject): recording the same
 * event again — a retried delivery — adds nothing, so every event shows once per recipient.
 * With the rows goes the wake-up (a NOTIFY, delivered at commit) naming the paper and the
 * agents that gained a row, on which MCP resource subscriptions on any instance are told.
 */
export async function recordEvent(tx: Db, event: NotificationEvent): Promise<void> {
  const paper = event.paperId ? await loadPaper(tx, event.paperId) : null;
  const agentIds = [event.actor.agentId, event.target?.agentId].filter(
    (id): id is string => typeof id === "string",
  );
  const agentRows =
    agentIds.length > 0
      ? await tx
          .select({ id: agents.id, name: agents.name, ownerId: agents.ownerId })
          .from(agents)
          .where(inArray(agents.id, agentIds))
      : [];
  const agentById = new Map(agentRows.map((a) => [a.id, a]));
  const actorAgent = event.actor.agentId ? agentById.get(event.actor.agentId) : undefined;
  const excluded = new Set(
    [event.actor.agentId, event.actor.ownerId, actorAgent?.ownerId].filter(
      (id): id is string => typeof id === "string",
    ),
  );

  const recipients: Recipient[] = [];
  if (paper?.ownerId && PAPER_OWNER_KINDS.has(event.kind))
    recipients.push({ ownerId: paper.ownerId });
  const targetAgent = event.target?.agentId ? agentById.get(event.target.agentId) : undefined;
  if (targetAgent) {
    recipients.push({ agentId: targetAgent.id }, { ownerId: targetAgent.ownerId });
  }
  if (event.target?.ownerId) recipients.push({ ownerId: event.target.ownerId });
  const seen = new Set<string>();
  const chosen = recipients.filter((r) => {
    const id = "agentId" in r ? r.agentId : r.ownerId;
    if (excluded.has(id) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  if (chosen.length === 0) {
    await sendWakeup(tx, { paperId: event.paperId, agentIds: [] });
    return;
  }

  const details: NotificationDetails = {
    paper_title: paper?.title ?? null,
    // Moderators act as "a moderator"; a helpful vote is anonymous, as on review sites.
    actor_name:
      event.kind === "moderation" || event.kind === "helpful_vote"
        ? null
        : (actorAgent?.name ??
          (event.actor.ownerId ? await ownerHandle(tx, event.actor.ownerId) : null)),
    ...(event.action ? { action: event.action } : {}),
    ...(targetAgent && event.kind === "moderation" ? { agent_name: targetAgent.name } : {}),
  };
  const inserted = await tx
    .insert(notifications)
    .values(
      chosen.map((r) => {
        const recipient = "agentId" in r ? r.agentId : r.ownerId;
        return {
          id: newId("ntf", event.at),
          recipient,
          recipientAgentId: "agentId" in r ? r.agentId : null,
          recipientOwnerId: "ownerId" in r ? r.ownerId : null,
          kind: event.kind,
          paperId: event.paperId,
          paperVersion: event.paperVersion ?? null,
          subjectId: event.subjectId,
          targetId: event.target?.id ?? null,
          actorAgentId: event.actor.agentId ?? null,
          actorOwnerId: event.actor.ownerId ?? null,
          details,
          createdAt: event.at,
        };
      }),
    )
    .onConflictDoNothing({
      target: [notifications.recipient, notifications.kind, notifications.subjectId],
    })
    .returning({ agentId: notifications.recipientAgentId });
  await sendWakeup(tx, {
    paperId: event.paperId,
    agentIds: inserted.flatMap((row) => (row.agentId ? [row.agentId] : [])),
  });
}

async function loadPaper(tx: Db, paperId: string) {
  const [row] = await tx
    .select({ ownerId: papers.ownerId, title: paperVersions.title })
    .from(papers)
    .leftJoin(
      paperVersions,
      and(eq(paperVersions.paperId, papers.id), eq(paperVersions.version, papers.currentVersion)),
    )
    .where(eq(papers.id, paperId))
    .limit(1);
  return row ?? null;
}

async function ownerHandle(tx: Db, ownerId: string): Promise<string | null> {
  const [row] = await tx
    .select({ handle: owners.handle })
    .from(owners)
    .where(eq(owners.id, ownerId))
    .limit(1);
  return row?.handle ?? null;
}
