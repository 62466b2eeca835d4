/** @module rejectPaper: a moderator turns down a paper held for review. */
import type { ServiceContext } from "../context.ts";
import type { PaperActionInput, PaperActionResult } from "./schemas.ts";
import { moderatePaper } from "./transition.ts";

/**
 * `submitted → rejected`. The paper was never public and never will be; the reason is kept
 * in `status_reason` for its owner and in the log. The index is cleared defensively (a held
 * paper has nothing in it).
 */
export function rejectPaper(
  ctx: ServiceContext,
  input: PaperActionInput,
): Promise<PaperActionResult> {
  return moderatePaper(ctx, input, {
    action: "paper.reject",
    from: "submitted",
    to: "rejected",
    statusReason: (reason) => `rejected: ${reason}`,
    index: "unindex",
  });
}
