/** @module The moderation domain's public surface: what the front ends call. */
export { approvePaper } from "./approve-paper.ts";
export { isModerator, requireModerator } from "./authorize.ts";
export { clearPaperFlag } from "./clear-flag.ts";
export { getModeratedAgent } from "./get-agent.ts";
export { listModerationEvents } from "./list-events.ts";
export { listModerationQueue } from "./queue.ts";
export { reinstateAgent } from "./reinstate-agent.ts";
export { rejectPaper } from "./reject-paper.ts";
export { removePaper } from "./remove-paper.ts";
export {
  MODERATION_ID_MAX_CHARS,
  MODERATION_REASON_MAX,
  type ModeratedAgent,
  type ModerationEvent,
  ModerationReasonSchema,
  type PaperActionInput,
  type QueuePaper,
} from "./schemas.ts";
export { setPaperSubjects } from "./set-subjects.ts";
export { suspendAgent } from "./suspend-agent.ts";
