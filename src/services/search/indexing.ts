/** @module Keeping the search index equal to "current versions of published papers". */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, rowsOf, setMeta, withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { countFeatures, storedGramVector } from "./grams.ts";

/** Bumped whenever what is stored per chunk changes; a mismatch at start-up triggers a rebuild. */
export const INDEX_FORMAT = "quire-search/4";

/** PostgreSQL text search configurations chunks and queries are analysed with. */
export type TextConfig = "english" | "spanish" | "simple";

/**
 * The configuration a paper's text is analysed with, from its version's detected language
 * (ISO 639-1, "und" when unknown): English and Spanish stemming, `simple` (lower-cased
 * words, no stemming, no stop words) for every other language. A text whose language the
 * screener could not tell (too short, mostly formulas) is analysed as English, the archive's
 * main language: under `simple` each of its word forms is rare in the shared postings, so it
 * outranked real matches for any query sharing one word with it (one such SciFact abstract
 * cost lexical nDCG@10 0.044, hybrid 0.013).
 */
export function textConfigSql(language: SQL) {
  return sql`(case ${language} when 'en' then 'english' when 'und' then 'english' when 'es' then 'spanish' else 'simple' end)::regconfig`;
}

/** Counter slots for collection statistics (see search_stats). */
const STAT_SLOTS = 16;

export interface IndexChange {
  /** Chunks removed from and added to the index. */
  removed: number;
  added: number;
}

interface ChunkText {
  id: string | number;
  field: "abstract" | "body";
  content: string;
  title: string;
  lexemes: string[];
  title_lexemes: string[];
}

/** SQL: a tsvector's lexemes in text order, a lexeme once per position it holds. */
export function lexemeSequence(tsv: SQL) {
  return sql`array(select u.lexeme from unnest(${tsv}) u, unnest(u.positions) pos order by pos, u.lexeme)`;
}

/**
 * Makes the index hold exactly the current version of `paperId` if the paper is published,
 * and nothing of it otherwise. Idempotent, and safe inside the caller's transaction: pass a
 * context whose `db` is the transaction, and the index changes commit (or roll back) with
 * the paper. Publication calls it after storing a version; status changes (withdrawal,
 * removal, reinstatement) should call it after updating the paper.
 */
export async function reindexPaper(ctx: ServiceContext, paperId: string): Promise<IndexChange> {
  const removed = await removeFromIndex(ctx.db, paperId);
  const rows = await rowsOf<{ status: string; current: number }>(
    ctx.db,
    sql`select status, current_version as current from papers where id = ${paperId} for update`,
  );
  const paper = rows[0];
  if (paper?.status !== "published") return { removed, added: 0 };
  const added = await addToIndex(ctx.db, [{ paperId, version: Number(paper.current) }]);
  if (ctx.embedder && added > 0) await enqueueEmbeddings(ctx.db, { paperId });
  return { removed, added };
}

/**
 * Removes every chunk of `paperId` from the index: postings, statistics, gram frequencies,
 * dense vectors and queued embedding work. Withdrawal and removal call it in the same
 * transaction as the status change, so a hidden paper stops counting towards BM25
 * statistics the moment it stops being visible.
 */
export async function unindexPaper(ctx: ServiceContext, paperId: string): Promise<IndexChange> {
  return { removed: await removeFromIndex(ctx.db, paperId), added: 0 };
}

/**
 * Queues searchable chunks that have no vector from `model` yet (all of them, or one
 * paper's). One insert; the embedding worker does the rest.
 */
export async function enqueueEmbeddings(
  db: Db,
  scope: { paperId?: string; model?: string } = {},
): Promise<number> {
  const paper = scope.paperId === undefined ? sql`true` : sql`s.paper_id = ${scope.paperId}`;
  const missing =
    scope.model === undefined
      ? sql`true`
      : sql`not exists (select 1 from chunk_embeddings e
                        where e.chunk_id = s.chunk_id and e.model = ${scope.model})`;
  const rows = await rowsOf<{ n: number }>(
    db,
    sql`with queued as (
          insert into embedding_queue (chunk_id)
          select s.chunk_id from search_chunks s where ${paper} and ${missing}
          on conflict (chunk_id) do nothing
          returning 1
        )
        select count(*)::int as n from queued`,
  );
  return Number(rows[0]?.n ?? 0);
}

export interface RebuildProgress {
  papers: number;
  total: number;
  chunks: number;
}

/**
 * Rebuilds the whole lexical index from the papers table, in one transaction: readers
 * keep seeing the old index until the new one commits. Used when the index format changes
 * (start-up) and by `quire reindex`. Papers are indexed in set-based batches.
 */
export async function rebuildSearchIndex(
  ctx: ServiceContext,
  options: { batch?: number; onProgress?: (p: RebuildProgress) => void } = {},
): Promise<RebuildProgress> {
  const batchSize = options.batch ?? 500;
  return withTransaction(ctx.db, async (db) => {
    await db.execute(
      sql`truncate search_postings, search_chunks, search_stats, search_terms, search_grams`,
    );
    const published = await rowsOf<{ id: string; version: number }>(
      db,
      sql`select id, current_version as version from papers where status = 'published' order by id`,
    );
    const progress: RebuildProgress = { papers: 0, total: published.length, chunks: 0 };
    for (let i = 0; i < published.length; i += batchSize) {
      const batch = published.slice(i, i + batchSize);
      progress.chunks += await addToIndex(
        db,
        batch.map((p) => ({ paperId: p.id, version: Number(p.version) })),
      );
      progress.papers += batch.length;
      options.onProgress?.({ ...progress });
    }
    // Vectors and queued work of chunks that are no longer searchable.
    await db.execute(
      sql`delete from embedding_queue q where not exists
            (select 1 from search_chunks s where s.chunk_id = q.chunk_id)`,
    );
    await db.execute(
      sql`delete from chunk_embeddings e where not exists
            (select 1 from search_chunks s where s.chunk_id = e.chunk_id)`,
    );
    await setMeta(db, "index_format", INDEX_FORMAT);
    return progress;
  });
}

/**
 * Indexes the abstract and body chunks of the given paper versions, each with its paper's
 * title added (a chunk is found by what its paper is about). The title chunk itself is not
 * indexed: its words are in every other chunk already, and as a separate, very short
 * document it skews BM25's average length and wins the sparse channel's cosine on title
 * words alone (SciFact test nDCG@10, hybrid: 0.693 with title chunks, 0.717 without).
 * Lexemes come from PostgreSQL's text search configuration for the paper's language
 * (`textConfigSql`), so BM25 sees exactly what it produces; the sparse features are
 * computed here. One statement writes
 * chunk rows, postings and statistics.
 */
async function addToIndex(
  db: Db,
  versions: { paperId: string; version: number }[],
): Promise<number> {
  if (versions.length === 0) return 0;
  const texts = await rowsOf<ChunkText>(
    db,
    sql`select c.id::int8 as id, c.field, c.content, pv.title,
               ${lexemeSequence(sql`to_tsvector(${textConfigSql(sql`pv.language`)}, c.content)`)} as lexemes,
               ${lexemeSequence(sql`to_tsvector(${textConfigSql(sql`pv.language`)}, pv.title)`)} as title_lexemes
        from chunks c
        join unnest(${pgArray(
          versions.map((v) => v.paperId),
          "text",
        )},
                    ${pgArray(
                      versions.map((v) => v.version),
                      "int4",
                    )}) as want(paper_id, version)
          on c.paper_id = want.paper_id and c.version = want.version
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        where c.field <> 'title'`,
  );
  if (texts.length === 0) return 0;
  const ids: number[] = [];
  const vectors: string[] = [];
  const gramChunks = new Map<number, number>();
  for (const chunk of texts) {
    const counts = countFeatures(chunk.content, chunk.lexemes);
    countFeatures(chunk.title, chunk.title_lexemes, counts);
    ids.push(Number(chunk.id));
    vectors.push(storedGramVector(counts));
    for (const gram of counts.keys()) gramChunks.set(gram, (gramChunks.get(gram) ?? 0) + 1);
  }
  const totals = await rowsOf<{ chunks: number }>(
    db,
    sql`with doc as (
          select c.id, c.paper_id, c.version,
                 to_tsvector(${textConfigSql(sql`pv.language`)}, c.content)
                   || to_tsvector(${textConfigSql(sql`pv.language`)}, pv.title) as tsv,
                 g.grams
          from unnest(${pgArray(ids, "int8")}, ${pgArray(vectors, "text")}) as g(id, grams)
          join chunks c on c.id = g.id
          join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        ),
        lex as (
          select doc.id, u.lexeme, least(coalesce(cardinality(u.positions), 1), 32767) as tf
          from doc, unnest(doc.tsv) as u
        ),
        len as (
          select doc.id, coalesce(sum(lex.tf), 0)::int as length,
                 coalesce(array_agg(lex.lexeme) filter (where lex.lexeme is not null), '{}') as terms
          from doc left join lex on lex.id = doc.id
          group by doc.id
        ),
        added as (
          insert into search_chunks (chunk_id, paper_id, version, length, terms, grams)
          select doc.id, doc.paper_id, doc.version, len.length, len.terms, doc.grams::sparsevec
          from doc join len on len.id = doc.id
          returning chunk_id, paper_id, length
        ),
        posted as (
          insert into search_postings (term, chunk_id, tf, length)
          select lex.lexeme, lex.id, lex.tf, len.length from lex join len on len.id = lex.id
        ),
        termed as (
          insert into search_terms (term, df)
          select lexeme, count(*) from lex group by lexeme order by lexeme
          on conflict (term) do update set df = search_terms.df + excluded.df
        ),
        counted as (
          insert into search_stats (slot, chunks, length)
          select (hashtext(paper_id) & ${STAT_SLOTS - 1})::int2, count(*), sum(length)
          from added group by 1 order by 1
          on conflict (slot) do update
            set chunks = search_stats.chunks + excluded.chunks,
                length = search_stats.length + excluded.length
        )
        select count(*)::int as chunks from added`,
  );
  await bumpGrams(db, gramChunks, 1);
  return Number(totals[0]?.chunks ?? 0);
}

async function removeFromIndex(db: Db, paperId: string): Promise<number> {
  const gone = await rowsOf<{
    chunk_id: string | number;
    length: number;
    terms: string[];
    grams: string;
  }>(
    db,
    sql`delete from search_chunks where paper_id = ${paperId}
        returning chunk_id::int8 as chunk_id, length, terms, grams::text as grams`,
  );
  if (gone.length === 0) return 0;
  const terms: string[] = [];
  const chunkIds: number[] = [];
  const gramChunks = new Map<number, number>();
  let length = 0;
  for (const row of gone) {
    length += Number(row.length);
    for (const term of row.terms) {
      terms.push(term);
      chunkIds.push(Number(row.chunk_id));
    }
    for (const gram of sparsevecIndices(row.grams)) {
      gramChunks.set(gram, (gramChunks.get(gram) ?? 0) + 1);
    }
  }
  const removed = gone.map((r) => Number(r.chunk_id));
  await db.execute(
    sql`delete from search_postings p
        using unnest(${pgArray(terms, "text")}, ${pgArray(chunkIds, "int8")}) as x(term, chunk_id)
        where p.term = x.term and p.chunk_id = x.chunk_id`,
  );
  await db.execute(
    sql`insert into search_stats (slot, chunks, length)
        values ((hashtext(${paperId}) & ${STAT_SLOTS - 1})::int2, ${-gone.length}, ${-length})
        on conflict (slot) do update
          set chunks = search_stats.chunks + excluded.chunks,
              length = search_stats.length + excluded.length`,
  );
  const distinct = [...new Set(terms)].sort();
  await db.execute(
    sql`insert into search_terms (term, df)
        select term, -count(*) from unnest(${pgArray(terms, "text")}) as term
        group by term order by term
        on conflict (term) do update set df = search_terms.df + excluded.df`,
  );
  await db.execute(
    sql`delete from search_terms where term = any(${pgArray(distinct, "text")}) and df <= 0`,
  );
  await bumpGrams(db, gramChunks, -1);
  await db.execute(
    sql`delete from embedding_queue where chunk_id = any(${pgArray(removed, "int8")})`,
  );
  await db.execute(
    sql`delete from chunk_embeddings where chunk_id = any(${pgArray(removed, "int8")})`,
  );
  return gone.length;
}

/**
 * Adds `sign` × (number of chunks containing the gram) to each gram's document frequency.
 * Rows are written in gram order so concurrent publications lock them in the same order
 * and cannot deadlock; rows that fall to zero are deleted.
 */
async function bumpGrams(db: Db, gramChunks: Map<number, number>, sign: 1 | -1): Promise<void> {
  if (gramChunks.size === 0) return;
  const grams = [...gramChunks.keys()].sort((a, b) => a - b);
  const counts = grams.map((g) => sign * gramChunks.get(g)!);
  await db.execute(
    sql`insert into search_grams (gram, df)
        select g, n from unnest(${pgArray(grams, "int4")}, ${pgArray(counts, "int4")}) as x(g, n)
        order by g
        on conflict (gram) do update set df = search_grams.df + excluded.df`,
  );
  if (sign < 0) {
    await db.execute(
      sql`delete from search_grams where gram = any(${pgArray(grams, "int4")}) and df <= 0`,
    );
  }
}

/** The indices of a sparsevec's text form `{i:v,...}/dims`. */
function sparsevecIndices(text: string): number[] {
  const body = text.slice(text.indexOf("{") + 1, text.indexOf("}"));
  if (body === "") return [];
  return body.split(",").map((pair) => Number(pair.slice(0, pair.indexOf(":"))));
}
