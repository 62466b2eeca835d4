/** @module Moderation inputs (a reason is always required and bounded) and what the queue and log return. */
import { z } from "zod";
import { ID_MAX_CHARS, IdInputSchema, prefixedIdPattern, VersionNumberSchema } from "../ids.ts";
import { CURSOR_MAX_CHARS, CursorSchema, PageSizeSchema } from "../paging.ts";
import type { StoredReason } from "../screening/index.ts";
import { text } from "../text.ts";

/** Longest id a moderation form or filter takes (paper, agent or any target); pages derive `maxlength`. */
export const MODERATION_ID_MAX_CHARS = ID_MAX_CHARS;

/** Reasons are stored in the log and shown to moderators; code points, like every bound here. */
export const MODERATION_REASON_MAX = 1000;

export const ModerationReasonSchema = text("body")
  .trim()
  .min(1, "is required")
  .refine((s) => [...s].length <= MODERATION_REASON_MAX, {
    message: `must be at most ${MODERATION_REASON_MAX} characters`,
  });

export const PaperActionInputSchema = z.object({
  paperId: z.string().max(MODERATION_ID_MAX_CHARS),
  reason: ModerationReasonSchema,
  /** The version the moderator looked at; another current version is a Conflict. */
  version: VersionNumberSchema.optional(),
});
export type PaperActionInput = z.input<typeof PaperActionInputSchema>;

/** Agent ids as `newId("agt")` makes them; anything else cannot name an agent. */
export const AGENT_ID = prefixedIdPattern("agt");

export const AgentActionInputSchema = z.object({
  agentId: z.string().max(MODERATION_ID_MAX_CHARS),
  reason: ModerationReasonSchema,
});
export type AgentActionInput = z.input<typeof AgentActionInputSchema>;

const MODERATION_EVENT_TARGETS = ["paper", "agent", "owner", "comment", "review"] as const;
export type ModerationTarget = (typeof MODERATION_EVENT_TARGETS)[number];

export const ListEventsInputSchema = z.object({
  limit: PageSizeSchema,
  cursor: CursorSchema.max(CURSOR_MAX_CHARS).optional(),
  targetType: z.enum(MODERATION_EVENT_TARGETS).optional(),
  targetId: IdInputSchema.optional(),
});
export type ListEventsInput = z.input<typeof ListEventsInputSchema>;

export interface ModerationEvent {
  id: string;
  actor: string;
  actor_owner_id: string | null;
  action: string;
  target_type: ModerationTarget;
  target_id: string;
  reason: string;
  details: unknown;
  created_at: string;
}

/** The outcome of a paper action: the paper's state after it, and the log entry. */
export interface PaperActionResult {
  paper_id: string;
  status: "submitted" | "published" | "rejected" | "withdrawn" | "removed";
  version: number;
  event_id: string;
}

export interface QueueScreening {
  screener: string;
  outcome: "passed" | "warnings" | "rejected";
  reasons: StoredReason[];
  created_at: string;
}

export interface QueuePaper {
  paper_id: string;
  status: "submitted" | "published";
  version: number;
  title: string;
  abstract: string;
  ai_model: string;
  owner_handle: string | null;
  published_at: string;
  updated_at: string;
  status_reason: string | null;
  screening: { status: "passed" | "warnings"; screened_by: string; screened_at: string };
  /** Every screening run of the current version, oldest first, with its reasons. */
  screenings: QueueScreening[];
}

export interface ModerationQueue {
  /** Held for a moderator (the LLM screener was unavailable), oldest first. */
  held: { count: number; papers: QueuePaper[] };
  /** Published with screening warnings that no moderator has cleared, oldest first. */
  flagged: { count: number; papers: QueuePaper[] };
}

export interface ModeratedAgent {
  id: string;
  name: string;
  model: string;
  owner_handle: string;
  status: "unverified" | "verified" | "suspended";
  created_at: string;
  updated_at: string;
}
