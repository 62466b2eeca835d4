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
import { DEFAULT_SEARCH_SETTINGS, searchSettings } from "./settings.ts";
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
  /** The source's lexemes kept, by TF-IDF weight: the query BM25 ranks with. */
  terms: number;
  /** Query-side term frequency: each kept lexeme's BM25 weight is idf × this of its tf. */
  queryTf: "one" | "log" | "raw";
  /** A title occurrence counts as this many occurrences in the text. */
  titleWeight: number;
  /** Characters of the body read (after the title and abstract): bounds the work. */
  bodyChars: number;
  /** Chunks BM25 returns, re-scored by the character-gram channel. */
  candidates: number;
  /** Fusion weight of the character-gram channel (BM25's is 1; 0 leaves it out). */
  sparseWeight: number;
  /** BM25's saturation and length normalisation for this query (search's when absent). */
  k1?: number;
  b?: number;
  /** Postings BM25 scans in full before commoner terms are only looked up (search's when absent). */
  postingsBudget?: number;
  /** Whether the gram channel's query holds the source's character 4-grams (else words and bigrams only). */
  sparseGrams: boolean;
  /** Pseudo-relevance feedback: the first pass's best papers added to the query (0: off). */
  prfDocs: number;
  /** Their mean vector's weight beside the source's (both unit length). */
  prfWeight: number;
}

export const DEFAULT_RELATED_SETTINGS: RelatedSettings = {
  terms: 60,
  queryTf: "log",
  titleWeight: 2,
  bodyChars: 20_000,
  candidates: 50,
  sparseWeight: 3,
  sparseGrams: true,
  prfDocs: 0,
  prfWeight: 1,
};

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
 * language's configuration (as indexing analyses it), the document frequencies of its
 * lexemes and the collection's statistics, in one round trip. Null when there is no such
 * version.
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
                 pv.abstract || E'\n\n' || left(pv.body, ${bodyChars}::int) as text
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
 * The source's query: its lexemes weighted by TF-IDF (title occurrences counting
 * `titleWeight` times), the `terms` heaviest kept, as BM25 statistics whose per-term weight
 * is the term's IDF times its query-side frequency. Lexemes no searchable chunk holds are
 * dropped (they cannot match).
 */
export function sourceQuery(source: SourceText, settings: RelatedSettings): Bm25Statistics {
  const tf = new Map<string, number>();
  for (const l of source.textLexemes) tf.set(l, (tf.get(l) ?? 0) + 1);
  for (const l of source.titleLexemes) tf.set(l, (tf.get(l) ?? 0) + settings.titleWeight);
  const n = source.chunks;
  const weighted = source.dfs
    .map(([term, df]) => {
      const f = tf.get(term) ?? 0;
      const q = settings.queryTf === "one" ? 1 : settings.queryTf === "raw" ? f : 1 + Math.log(f);
      const idf = bm25Idf(n, Number(df));
      return { term, df: Number(df), idf, weight: idf * q };
    })
    .filter((t) => t.weight > 0)
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, settings.terms);
  const terms = weighted
    .map((t) => ({ term: t.term, df: t.df }))
    .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
  return {
    chunks: n,
    averageLength: source.total / Math.max(1, n),
    idf: new Map(weighted.map((t) => [t.term, t.weight])),
    members: new Map(weighted.map((t) => [t.term, [t.term]])),
    terms,
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
  return (await readInParts(db, ids, read))
    .map((r) => ({
      chunkId: Number(r.chunk_id),
      paperId: r.paper_id,
      sparse: r.sparse === null ? null : Number(r.sparse),
    }))
    .sort((a, b) => a.chunkId - b.chunkId);
}

function bm25Params(ctx: ServiceContext, settings: RelatedSettings) {
  const search = searchSettings(ctx.search);
  return {
    k1: settings.k1 ?? search.k1,
    b: settings.b ?? search.b,
    postingsBudget: settings.postingsBudget ?? search.postingsBudget,
  };
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
 * trusted to the index). The source's most distinctive lexemes (TF-IDF over the index's own
 * document frequencies) are one weighted BM25 query; its candidates are re-scored by the
 * character-gram channel with the source's whole text as the query; both are z-scored over
 * the candidates and fused, and each paper counts by its best chunk. Design and figures:
 * docs/adr/0040-related-papers-distinctive-terms.md.
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
  const stats = sourceQuery(text, settings);
  if (stats.terms.length === 0) return [];
  const gramVector =
    settings.sparseWeight > 0
      ? queryGramVector(db, settings.sparseGrams ? text.text : "", stats.lexemes, text.chunks)
      : Promise.resolve(null);
  gramVector.catch(() => {});
  const pass = (query: Bm25Statistics) =>
    fusedPass(db, query, bm25Params(ctx, settings), settings, text.own, source.paperId, gramVector);
  let ranked = await pass(stats);
  if (settings.prfDocs > 0 && ranked.length > 0) {
    const feedback = await feedbackVectors(
      db,
      ranked.slice(0, settings.prfDocs).map((r) => r.paperId),
      settings,
      text.chunks,
    );
    const expanded = expandedQuery(text, stats, feedback, settings);
    if (expanded.terms.length > 0) ranked = await pass(expanded);
  }
  return ranked
    .slice(0, limit)
    .map(({ paperId, fused }) => ({ paperId, fused, score: relatedScore(fused) }));
}

/** One ranking: BM25 over `query`, re-scored by the gram channel, fused, one entry a paper. */
async function fusedPass(
  db: Db,
  query: Bm25Statistics,
  params: { k1: number; b: number; postingsBudget: number },
  settings: RelatedSettings,
  own: number,
  exclude: string,
  gramVector: Promise<string | null>,
): Promise<{ paperId: string; fused: number }[]> {
  const [found, grams] = await Promise.all([
    bm25Search(db, query, params, settings.candidates + own),
    gramVector,
  ]);
  if (found.hits.length === 0) return [];
  const bm25 = new Map(found.hits.map((h) => [h.chunkId, h.score]));
  const candidates = await candidateRows(
    db,
    found.hits.map((h) => h.chunkId),
    exclude,
    grams,
  );
  if (candidates.length === 0) return [];
  const zBm25 = zScores(candidates.map((c) => bm25.get(c.chunkId) ?? 0));
  const zSparse = grams ? zScores(candidates.map((c) => c.sparse ?? 0)) : null;
  const weight = 1 + (zSparse ? settings.sparseWeight : 0);
  const best = new Map<string, number>();
  candidates.forEach((c, i) => {
    const fused = (zBm25[i]! + (zSparse ? settings.sparseWeight * zSparse[i]! : 0)) / weight;
    const seen = best.get(c.paperId);
    if (seen === undefined || fused > seen) best.set(c.paperId, fused);
  });
  return [...best]
    .map(([paperId, fused]) => ({ paperId, fused }))
    .sort((a, b) => b.fused - a.fused || (a.paperId < b.paperId ? -1 : 1));
}

/** Lexeme → TF-IDF weight (query-side tf as `settings.queryTf`), unit length. */
function unitWeights(
  tf: ReadonlyMap<string, number>,
  dfs: ReadonlyMap<string, number>,
  n: number,
  settings: RelatedSettings,
): Map<string, number> {
  const out = new Map<string, number>();
  let norm = 0;
  for (const [term, f] of tf) {
    const df = dfs.get(term);
    if (!df) continue;
    const q = settings.queryTf === "one" ? 1 : settings.queryTf === "raw" ? f : 1 + Math.log(f);
    const w = bm25Idf(n, df) * q;
    if (w <= 0) continue;
    out.set(term, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [term, w] of out) out.set(term, w / norm);
  return out;
}

function termFrequencies(
  titleLexemes: readonly string[],
  textLexemes: readonly string[],
  titleWeight: number,
): Map<string, number> {
  const tf = new Map<string, number>();
  for (const l of textLexemes) tf.set(l, (tf.get(l) ?? 0) + 1);
  for (const l of titleLexemes) tf.set(l, (tf.get(l) ?? 0) + titleWeight);
  return tf;
}

/** The feedback papers' TF-IDF vectors (current versions, analysed as the source is). */
async function feedbackVectors(
  db: Db,
  paperIds: string[],
  settings: RelatedSettings,
  n: number,
): Promise<{ vectors: Map<string, number>[]; dfs: Map<string, number> }> {
  const config = textConfigSql(sql`pv.language`);
  const rows = await rowsOf<{ title_lexemes: string[]; text_lexemes: string[] }>(
    db,
    sql`select ${lexemeSequence(sql`to_tsvector(${config}, pv.title)`)} as title_lexemes,
               ${lexemeSequence(
                 sql`to_tsvector(${config}, pv.abstract || E'\n\n' || left(pv.body, ${settings.bodyChars}::int))`,
               )} as text_lexemes
        from papers p join paper_versions pv on pv.paper_id = p.id and pv.version = p.current_version
        where p.id = any(${pgArray(paperIds, "text")})`,
  );
  const tfs = rows.map((r) =>
    termFrequencies(r.title_lexemes, r.text_lexemes, settings.titleWeight),
  );
  const terms = [...new Set(tfs.flatMap((tf) => [...tf.keys()]))];
  const dfRows = await rowsOf<{ term: string; df: number }>(
    db,
    sql`select term, df from search_terms where df > 0 and term = any(${pgArray(terms, "text")})`,
  );
  const dfs = new Map(dfRows.map((r) => [r.term, Number(r.df)]));
  return { vectors: tfs.map((tf) => unitWeights(tf, dfs, n, settings)), dfs };
}

/**
 * Rocchio's expansion: the source's unit TF-IDF vector plus `prfWeight` times the mean of
 * the feedback papers' vectors, its `terms` heaviest lexemes as the new BM25 query.
 */
function expandedQuery(
  source: SourceText,
  first: Bm25Statistics,
  feedback: { vectors: Map<string, number>[]; dfs: Map<string, number> },
  settings: RelatedSettings,
): Bm25Statistics {
  const dfs = new Map(feedback.dfs);
  for (const [term, df] of source.dfs) dfs.set(term, Number(df));
  const tf = termFrequencies(source.titleLexemes, source.textLexemes, settings.titleWeight);
  const combined = unitWeights(tf, dfs, source.chunks, settings);
  const share = settings.prfWeight / Math.max(1, feedback.vectors.length);
  for (const vector of feedback.vectors) {
    for (const [term, w] of vector) combined.set(term, (combined.get(term) ?? 0) + share * w);
  }
  const kept = [...combined]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.terms);
  return {
    ...first,
    idf: new Map(kept),
    members: new Map(kept.map(([term]) => [term, [term]])),
    terms: kept
      .map(([term]) => ({ term, df: dfs.get(term)! }))
      .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1)),
  };
}

/**
 * A fused z-score to [0, 1]: the hybrid search curve's logistic (settings.ts), so the order
 * is kept and the scale is search's.
 */
export function relatedScore(fused: number): number {
  return unitScore(fused, DEFAULT_SEARCH_SETTINGS.scoreCurves.hybrid);
}
