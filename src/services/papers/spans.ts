/** @module getPaperSpans: a version's text as ordered, verbatim, citable spans (the API's "context"). */
import { publicReadDb, type ServiceContext } from "../context.ts";
import { parsePaperRef } from "../ids.ts";
import { paperNotFound } from "./get.ts";
import { selectSpans } from "./hot-reads.ts";
import type { PaperSpans } from "./schemas.ts";
import { canSeePaper } from "./visibility.ts";

/**
 * Returns the chunks of the current version (or of `vN`), in order. Per field (title,
 * abstract, body) their contents concatenate to the field's exact text, so a quote is always
 * verbatim; `caption` chunks follow, each exactly the span `start`..`end` of the body.
 */
export async function getPaperSpans(
  ctx: ServiceContext,
  input: { id: string },
): Promise<PaperSpans> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const found = await selectSpans(publicReadDb(ctx), ref.id, ref.version ?? null);
  if (!found || !canSeePaper(ctx.caller, found.paper)) throw paperNotFound(input.id);
  const version = ref.version ?? found.paper.current;
  if (version > found.paper.current) throw paperNotFound(input.id);
  const rows = found.chunks;
  return {
    paper_id: ref.id,
    version,
    chunks: rows.map((r) => ({
      chunk_index: r.chunkIndex,
      field: r.field,
      ...(r.field === "body" || r.field === "caption" ? { section: r.section } : {}),
      start: r.start,
      end: r.end,
      content: r.content,
    })),
  };
}
