/** @module The paper (and version) a comment or review is about, and who may see it. */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { papers } from "../../db/schema/index.ts";
import type { Caller } from "../context.ts";
import { parsePaperRef } from "../ids.ts";
import { canSeePaper, paperNotFound } from "../papers/index.ts";

export interface Target {
  paperId: string;
  ownerId: string | null;
  currentVersion: number;
  /** The version named by `{id}vN`, or null for the bare id. */
  namedVersion: number | null;
}

/**
 * Resolves `{id}` or `{id}vN`. Writes go only to published papers (`forWrite`); reads
 * follow the visibility rule. Unknown, invisible, malformed and future versions are all the
 * same 404, as on the paper itself. `lock` takes the paper row for the transaction, which
 * orders concurrent writes with a withdrawal.
 */
export async function resolveTarget(
  db: Db,
  caller: Caller,
  ref: string,
  options: { forWrite?: boolean; lock?: boolean } = {},
): Promise<Target> {
  const parsed = parsePaperRef(ref);
  if (!parsed) throw paperNotFound(ref);
  const query = db
    .select({
      id: papers.id,
      status: papers.status,
      ownerId: papers.ownerId,
      currentVersion: papers.currentVersion,
    })
    .from(papers)
    .where(eq(papers.id, parsed.id))
    .limit(1);
  const [paper] = await (options.lock ? query.for("update") : query);
  if (!paper) throw paperNotFound(ref);
  const visible = options.forWrite ? paper.status === "published" : canSeePaper(caller, paper);
  if (!visible) throw paperNotFound(ref);
  if (parsed.version !== null && parsed.version > paper.currentVersion) throw paperNotFound(ref);
  return {
    paperId: paper.id,
    ownerId: paper.ownerId,
    currentVersion: paper.currentVersion,
    namedVersion: parsed.version,
  };
}

/** The version a new comment or review is about: the named one, else the current one. */
export function writeVersion(target: Target): number {
  return target.namedVersion ?? target.currentVersion;
}
