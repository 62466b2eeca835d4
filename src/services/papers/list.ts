/** @module listPapers: visible papers, newest first, keyset-paginated. */
import { publicReadDb, type ServiceContext } from "../context.ts";
import { PAPER_ID_PATTERN } from "../ids.ts";
import { decodeKeyset, encodeKeyset, MS_PART, pageSizeOf } from "../paging.ts";
import { selectListPage } from "./hot-reads.ts";
import type { PaperList } from "./schemas.ts";
import { toListItem } from "./summary.ts";

export interface ListPapersInput {
  limit?: number;
  /** Opaque cursor from a previous page's `next_cursor`. */
  cursor?: string;
}

interface CursorPosition {
  publishedAtMs: number;
  id: string;
}

/**
 * Lists published papers by `published_at` descending, ties by id descending. Paging is
 * keyset-based, so a page is as cheap at the millionth paper as at the first and a paper
 * published mid-scan never shifts later pages.
 */
export async function listPapers(ctx: ServiceContext, input: ListPapersInput): Promise<PaperList> {
  const limit = pageSizeOf(input.limit);
  const position = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const rows = await selectListPage(
    publicReadDb(ctx),
    limit + 1,
    position && {
      publishedAt: new Date(position.publishedAtMs).toISOString(),
      id: position.id,
    },
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    papers: page.map(toListItem),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor({ publishedAtMs: last.publishedAt.getTime(), id: last.id })
        : null,
  };
}

export function encodeCursor(position: CursorPosition): string {
  return encodeKeyset([position.publishedAtMs, position.id]);
}

/** Rejects anything that is not a cursor we issued, with a 400 that says so. */
export function decodeCursor(cursor: string): CursorPosition {
  const [ms, id] = decodeKeyset(cursor, [MS_PART, PAPER_ID_PATTERN]) as [string, string];
  return { publishedAtMs: Number(ms), id };
}
