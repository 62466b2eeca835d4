/** @module approvePaper: a moderator publishes a paper held for review. */
import type { ServiceContext } from "../context.ts";
import type { PaperActionInput, PaperActionResult } from "./schemas.ts";
import { moderatePaper } from "./transition.ts";

/**
 * `submitted → published` for a paper the submit flow held (the LLM screener could not be
 * reached). Approval is the paper's publication: `published_at` becomes now, so it enters
 * the list and the feeds at the top instead of behind papers published while it waited.
 * It also counts as clearing the version's warnings (it never enters the flagged queue).
 */
export function approvePaper(
  ctx: ServiceContext,
  input: PaperActionInput,
): Promise<PaperActionResult> {
  return moderatePaper(ctx, input, {
    action: "paper.approve",
    from: "submitted",
    to: "published",
    statusReason: () => null,
    index: "reindex",
  });
}
