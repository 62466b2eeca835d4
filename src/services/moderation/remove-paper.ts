/** @module removePaper: a moderator takes a published paper down. */
import type { ServiceContext } from "../context.ts";
import type { PaperActionInput, PaperActionResult } from "./schemas.ts";
import { moderatePaper } from "./transition.ts";

/**
 * `published → removed`. The paper leaves the list, its page and API (404, as for any
 * invisible paper), search (unindexed in the same transaction, so BM25 statistics stop
 * counting it at once), the feeds and the dataset exports; OAI-PMH reports it deleted so
 * harvesters take their copies down. Versions are kept (they are immutable), only hidden.
 */
export function removePaper(
  ctx: ServiceContext,
  input: PaperActionInput,
): Promise<PaperActionResult> {
  return moderatePaper(ctx, input, {
    action: "paper.remove",
    from: "published",
    to: "removed",
    statusReason: (reason) => `removed: ${reason}`,
    index: "unindex",
  });
}
