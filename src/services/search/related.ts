/**
 * @module rankRelated: the papers whose text is closest to one paper's, from the search index
 * (its most distinctive lexemes as a weighted BM25 query, fused with the character-gram
 * channel), for "related papers".
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, readInParts, rowsOf } from "../../db/sql.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { lexemeSequence, textConfigSql } from "./indexing.ts";
import { type Bm25Statistics, bm25Idf, bm25Search } from "./lexical.ts";
import { unitScore } from "./search.ts";
import { searchSettings } from "./settings.ts";
import { queryGramVector } from "./sparse.ts";

/** The paper version whose related papers are wanted. */
export interface RelatedSource {
  paperId: string;
  version: number;
}

export interface RelatedHit {
  paperId: string;
  /** Fused z-score of the paper's best chunk over the candidates (higher is closer). */
  fused: number;
  /** `fused` mapped into [0, 1] (see `relatedScore`). */
  score: number;
}

/** How the source's text becomes a query, and how the channels are weighed. */
export interface RelatedSettings {
  /** The source's lexemes kept, heaviest by TF-IDF first: the query BM25 ranks with. */
  terms: number;
  /** A title occurrence counts as this many occurrences in the text. */
  titleWeight: number;
  /** Characters of the body read (after the title and abstract): bounds the work. */
  bodyChars: number;
  /** Chunks BM25 returns (besides the source's own), re-scored by the character-gram channel. */
  candidates: number;
  /** Fusion weight of the character-gram channel (BM25's is 1; 0 leaves it out). */
  sparseWeight: number;
}

/**
 * Chosen on the dev half of eval:related (docs/adr/0043-related-papers-distinctive-terms.md):
 * more terms rank better (30 → 60 → 100: 0.674, 0.683, 0.690 with weight 2) but cost more
 * (p95 39, 49, 81 ms on PostgreSQL); the gram channel at weight 3 adds what 100 terms add.
 */
export const DEFAULT_RELATED_SETTINGS: RelatedSettings = {
  terms: 60,
  titleWeight: 2,
  bodyChars: 20_000,
  candidates: 50,
  sparseWeight: 3,
};

/** The deepest candidate pool (chunks) a query grows to when its papers have many chunks. */
const MAX_DEPTH = 1600;

interface SourceText {
  text: string;
  titleLexemes: string[];
  textLexemes: string[];
  dfs: [string, number][];
  chunks: number;
  total: number;
  own: number;
}

/**
 * The source version's title, abstract and the start of its body, analysed with its
 * language's configuration (as indexing analyses them), the document frequencies of its
 * lexemes, the collection's statistics and how many chunks of the source the index holds, in
 * one round trip. Null when there is no such version. The text is read from the version, not
 * from the index: a paper its owner withdrew (no longer indexed) still has related papers.
 */
async function sourceText(
  db: Db,
  source: RelatedSource,
  bodyChars: number,
): Promise<SourceText | null> {
  const config = textConfigSql(sql`v.language`);
  const [row] = await rowsOf<{
    title: string;
    text: string;
    title_lexemes: string[];
    text_lexemes: string[];
    dfs: [string, number][] | null;
    n: number;
    total: number;
    own: number;
  }>(
    db,
    sql`with v as (
          select pv.title, pv.language,
                 pv.abstract || E'\\n\\n' || left(pv.body, ${bodyChars}::int) as text
          from paper_versions pv
          where pv.paper_id = ${source.paperId} and pv.version = ${source.version}
        ),
        a as (
          select v.title, v.text,
                 ${lexemeSequence(sql`to_tsvector(${config}, v.title)`)} as title_lexemes,
                 ${lexemeSequence(sql`to_tsvector(${config}, v.text)`)} as text_lexemes
          from v
        ),
        st as (
          select coalesce(sum(chunks), 0)::float8 as n,
                 greatest(coalesce(sum(length), 0), 1)::float8 as total
          from search_stats
        )
        select a.title, a.text, a.title_lexemes, a.text_lexemes, st.n, st.total,
               (select json_agg(json_build_array(t.term, t.df))
                from search_terms t
                where t.df > 0 and t.term = any(a.title_lexemes || a.text_lexemes)) as dfs,
               (select count(*)::int from search_chunks s where s.paper_id = ${source.paperId}) as own
        from a cross join st`,
  );
  if (!row) return null;
  return {
    text: `${row.title}\n\n${row.text}`,
    titleLexemes: row.title_lexemes,
    textLexemes: row.text_lexemes,
    dfs: row.dfs ?? [],
    chunks: Number(row.n),
    total: Number(row.total),
    own: Number(row.own),
  };
}

/**
 * The source as a BM25 query: its lexemes weighted by TF-IDF, (1 + ln tf) × IDF with a title
 * occurrence counting `titleWeight` times, the `terms` heaviest kept, each ranking with that
 * weight in place of its IDF. Lexemes no searchable chunk holds are dropped (they cannot
 * match).
 */
export function sourceQuery(source: SourceText, settings: RelatedSettings): Bm25Statistics {
  const tf = new Map<string, number>();
  for (const l of source.textLexemes) tf.set(l, (tf.get(l) ?? 0) + 1);
  for (const l of source.titleLexemes) tf.set(l, (tf.get(l) ?? 0) + settings.titleWeight);
  const n = source.chunks;
  const weighted = source.dfs
    .map(([term, df]) => ({
      term,
      df: Number(df),
      weight: bm25Idf(n, Number(df)) * (1 + Math.log(tf.get(term) ?? 1)),
    }))
    .filter((t) => t.weight > 0)
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, settings.terms);
  return {
    chunks: n,
    averageLength: source.total / Math.max(1, n),
    idf: new Map(weighted.map((t) => [t.term, t.weight])),
    members: new Map(weighted.map((t) => [t.term, [t.term]])),
    // Rarest first, as bm25Search spends its postings budget.
    terms: weighted
      .map((t) => ({ term: t.term, df: t.df }))
      .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1)),
    lexemes: [...source.titleLexemes, ...source.textLexemes],
  };
}

interface Candidate {
  chunkId: number;
  paperId: string;
  sparse: number | null;
}

/**
 * The candidates that are chunks of the current version of a published paper other than
 * the source, with their character-gram similarity to the source when `gramVector` is given.
 */
async function candidateRows(
  db: Db,
  ids: number[],
  exclude: string,
  gramVector: string | null,
): Promise<Candidate[]> {
  const sparseExpr = gramVector ? sql`-(s.grams <#> ${gramVector}::sparsevec)` : sql`null::float8`;
  const read = (part: number[]) =>
    rowsOf<{ chunk_id: string | number; paper_id: string; sparse: number | null }>(
      db,
      sql`select s.chunk_id::int8 as chunk_id, s.paper_id, ${sparseExpr} as sparse
          from search_chunks s
          join papers p on p.id = s.paper_id and p.status = 'published' and p.current_version = s.version
          where s.chunk_id = any(${pgArray(part, "int8")}) and s.paper_id <> ${exclude}`,
    );
  // In chunk order, whatever the split: the z-scores sum the candidates in this order.
  return (await readInParts(db, ids, read))
    .map((r) => ({
      chunkId: Number(r.chunk_id),
      paperId: r.paper_id,
      sparse: r.sparse === null ? null : Number(r.sparse),
    }))
    .sort((a, b) => a.chunkId - b.chunkId);
}

/** z-score over the candidates (as search fuses its channels). */
function zScores(values: number[]): number[] {
  const n = Math.max(1, values.length);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
  const sd = Math.sqrt(Math.max(1e-12, variance));
  return values.map((v) => (v - mean) / sd);
}

/**
 * The `limit` papers closest to the source version's text, best first, never the source
 * paper itself (nor, so, another version of it: the index holds current versions only), and
 * only current versions of published papers (checked against the papers table, not only
 * trusted to the index).
 *
 * The source's most distinctive lexemes (TF-IDF over the index's own document frequencies)
 * are one weighted BM25 query; its best chunks are re-scored by the character-gram channel
 * with the source's whole text as the query (words, bigrams and 4-grams, IDF² on the query
 * side as search weighs them); both are z-scored over the candidates and fused, and each paper
 * counts by its best chunk. When the pool holds fewer than twice `limit` papers (papers of
 * many chunks), it is deepened. A query over the index as it stands: nothing is precomputed,
 * so a paper published a moment ago is a candidate at once. Design and figures:
 * docs/adr/0043-related-papers-distinctive-terms.md.
 */
export async function rankRelated(
  ctx: ServiceContext,
  source: RelatedSource,
  limit: number,
  overrides: Partial<RelatedSettings> = {},
): Promise<RelatedHit[]> {
  const settings = { ...DEFAULT_RELATED_SETTINGS, ...overrides };
  const db = publicReadDb(ctx);
  const text = await sourceText(db, source, settings.bodyChars);
  if (!text || text.chunks === 0) return [];
  const query = sourceQuery(text, settings);
  if (query.terms.length === 0) return [];
  const search = searchSettings(ctx.search);
  const gramVector =
    settings.sparseWeight > 0
      ? queryGramVector(db, text.text, query.lexemes, text.chunks)
      : Promise.resolve(null);
  gramVector.catch(() => {});
  let depth = settings.candidates + text.own;
  for (;;) {
    const [found, grams] = await Promise.all([bm25Search(db, query, search, depth), gramVector]);
    const candidates =
      found.hits.length === 0
        ? []
        : await candidateRows(
            db,
            found.hits.map((h) => h.chunkId),
            source.paperId,
            grams,
          );
    const papers = new Set(candidates.map((c) => c.paperId)).size;
    if (papers < 2 * limit && found.hits.length >= depth && depth < MAX_DEPTH) {
      depth = Math.min(MAX_DEPTH, depth * 4);
      continue;
    }
    return fused(candidates, new Map(found.hits.map((h) => [h.chunkId, h.score])), grams, settings)
      .slice(0, limit)
      .map(({ paperId, value }) => ({ paperId, fused: value, score: relatedScore(value) }));
  }
}

/** Each candidate paper's best fused z-score, best first (ties by id). */
function fused(
  candidates: readonly Candidate[],
  bm25: ReadonlyMap<number, number>,
  grams: string | null,
  settings: RelatedSettings,
): { paperId: string; value: number }[] {
  if (candidates.length === 0) return [];
  const zBm25 = zScores(candidates.map((c) => bm25.get(c.chunkId) ?? 0));
  const zSparse = grams ? zScores(candidates.map((c) => c.sparse ?? 0)) : null;
  const weight = 1 + (zSparse ? settings.sparseWeight : 0);
  const best = new Map<string, number>();
  candidates.forEach((c, i) => {
    const value = (zBm25[i]! + (zSparse ? settings.sparseWeight * zSparse[i]! : 0)) / weight;
    const seen = best.get(c.paperId);
    if (seen === undefined || value > seen) best.set(c.paperId, value);
  });
  return [...best]
    .map(([paperId, value]) => ({ paperId, value }))
    .sort((a, b) => b.value - a.value || (a.paperId < b.paperId ? -1 : 1));
}

/**
 * The logistic of `relatedScore`, fitted on the dev half of eval:related (`-- --calibrate`):
 * 10,000 (paper, related paper) pairs, the top 20 of 500 arXiv abstracts.
 */
const RELATED_SCORE_CURVE = { a: 0.1599, c: 0.4694 } as const;

/**
 * A fused z-score to [0, 1], keeping the order: a logistic fitted so that the score reads
 * roughly as the chance that the related paper shares the source's main subject (its first
 * arXiv category, on the arXiv sample). The slope is shallow (the fused z tells text
 * closeness, which tells subject only in part), so scores of one answer sit close together.
 */
function relatedScore(fused: number): number {
  return unitScore(fused, RELATED_SCORE_CURVE);
}
