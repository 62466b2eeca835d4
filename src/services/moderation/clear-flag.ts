/** @module clearPaperFlag: a moderator has read a published paper's screening warnings and lets it stand. */
import type { ServiceContext } from "../context.ts";
import type { PaperActionInput, PaperActionResult } from "./schemas.ts";
import { moderatePaper } from "./transition.ts";

/**
 * Leaves the paper published and unchanged (not even `updated_at`, which harvesters read as
 * "the record changed"); only the log entry, naming the version, takes it out of the
 * flagged queue. A later version with warnings is flagged again: the moderator cleared what
 * they read, not what the owner may write next.
 */
export function clearPaperFlag(
  ctx: ServiceContext,
  input: PaperActionInput,
): Promise<PaperActionResult> {
  return moderatePaper(ctx, input, {
    action: "paper.clear_flag",
    from: "published",
    needsFlag: true,
  });
}
