/** @module The join of a paper to its current version, which most reads start from. */
import { and, eq } from "drizzle-orm";
import { papers, paperVersions } from "../../db/schema/index.ts";

/** `paper_versions` row of `papers.current_version`: the join condition every listing uses. */
export const isCurrentVersion = and(
  eq(paperVersions.paperId, papers.id),
  eq(paperVersions.version, papers.currentVersion),
);
