/** @module addMissingCaptionChunks: caption chunks for versions stored before captions were chunks. */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { chunks } from "../../db/schema/index.ts";
import { pairIn, rowsOf } from "../../db/sql.ts";
import { bodyCaptions, captionChunks } from "./chunk-version.ts";
import type { ChunkOptions } from "./chunker.ts";
import { chunkRow } from "./rows.ts";

/** Versions read per statement. */
const BATCH = 200;

/**
 * Adds the `caption` chunks of every version (of any paper, any status) whose body holds
 * captions but that has none, numbered after its existing chunks, which stay as they are
 * (chunks are immutable rows; only new ones are written). Versions published since captions
 * became chunks have them already, so a second run adds nothing. `quire reindex` and the
 * start-up rebuild of a search index of an older format run it first, in their transaction.
 * Returns the versions and chunks added.
 */
export async function addMissingCaptionChunks(
  db: Db,
  options: ChunkOptions,
): Promise<{ versions: number; chunks: number }> {
  const added = { versions: 0, chunks: 0 };
  let after: { paperId: string; version: number } | null = null;
  for (;;) {
    const rows: { paper_id: string; version: number; body: string }[] = await rowsOf(
      db,
      sql`select pv.paper_id, pv.version, pv.body
          from paper_versions pv
          where (strpos(pv.body, '![') > 0 or strpos(pv.body, 'Table:') > 0)
            and ${after === null ? sql`true` : sql`(pv.paper_id, pv.version) > (${after.paperId}, ${after.version}::int)`}
            and not exists (select 1 from chunks k
                            where k.paper_id = pv.paper_id and k.version = pv.version
                              and k.field = 'caption')
          order by pv.paper_id, pv.version
          limit ${BATCH}`,
    );
    if (rows.length === 0) return added;
    const last = rows[rows.length - 1];
    after = last ? { paperId: last.paper_id, version: Number(last.version) } : null;
    const found = [];
    for (const row of rows) {
      const captions = await bodyCaptions(row.body);
      if (captions.length > 0) found.push({ ...row, version: Number(row.version), captions });
    }
    if (found.length > 0) {
      const existing = await rowsOf<{
        paper_id: string;
        version: number;
        chunk_index: number;
        field: string;
        start: number;
        end: number;
        section: string | null;
      }>(
        db,
        sql`select c.paper_id, c.version, c.chunk_index, c.field, c.start, c."end", c.section
            from chunks c
            where ${pairIn(
              [sql`c.paper_id`, sql`c.version`],
              [found.map((f) => f.paper_id), "text"],
              [found.map((f) => f.version), "int4"],
            )}`,
      );
      const byVersion = new Map<string, typeof existing>();
      for (const c of existing) {
        const key = `${c.paper_id}v${Number(c.version)}`;
        const list = byVersion.get(key);
        if (list) list.push(c);
        else byVersion.set(key, [c]);
      }
      const rowsToAdd: (typeof chunks.$inferInsert)[] = [];
      for (const version of found) {
        const own = byVersion.get(`${version.paper_id}v${version.version}`) ?? [];
        const next = own.reduce((max, c) => Math.max(max, Number(c.chunk_index) + 1), 0);
        const body = own
          .filter((c) => c.field === "body")
          .map((c) => ({ start: Number(c.start), end: Number(c.end), section: c.section }));
        const spans = captionChunks(version.body, version.captions, body, next, options);
        for (const chunk of spans)
          rowsToAdd.push(chunkRow(version.paper_id, version.version, chunk));
        if (spans.length > 0) added.versions++;
        added.chunks += spans.length;
      }
      if (rowsToAdd.length > 0) await db.insert(chunks).values(rowsToAdd);
    }
    if (rows.length < BATCH) return added;
  }
}
