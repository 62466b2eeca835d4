/** @module getContext: a version's text as ordered, verbatim, citable spans. */
import { and, asc, eq } from "drizzle-orm";
import { chunks, papers } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { parsePaperRef } from "../ids.ts";
import { paperNotFound } from "./get.ts";
import type { PaperContext } from "./schemas.ts";
import { canSeePaper } from "./visibility.ts";

/**
 * Returns the chunks of the current version (or of `vN`), in order. Per field their
 * contents concatenate to the field's exact text, so a quote is always verbatim.
 */
export async function getContext(
  ctx: ServiceContext,
  input: { id: string },
): Promise<PaperContext> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const db = publicReadDb(ctx);
  const [paper] = await db
    .select({ status: papers.status, ownerId: papers.ownerId, current: papers.currentVersion })
    .from(papers)
    .where(eq(papers.id, ref.id))
    .limit(1);
  if (!paper || !canSeePaper(ctx.caller, paper)) throw paperNotFound(input.id);
  const version = ref.version ?? paper.current;
  if (version > paper.current) throw paperNotFound(input.id);
  const rows = await db
    .select({
      chunkIndex: chunks.chunkIndex,
      field: chunks.field,
      section: chunks.section,
      start: chunks.start,
      end: chunks.end,
      content: chunks.content,
    })
    .from(chunks)
    .where(and(eq(chunks.paperId, ref.id), eq(chunks.version, version)))
    .orderBy(asc(chunks.chunkIndex));
  return {
    paper_id: ref.id,
    version,
    chunks: rows.map((r) => ({
      chunk_index: r.chunkIndex,
      field: r.field,
      ...(r.field === "body" ? { section: r.section } : {}),
      start: r.start,
      end: r.end,
      content: r.content,
    })),
  };
}
