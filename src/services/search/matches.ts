/**
 * @module What a result matched: the query words highlighted in its verbatim quote, and how
 * much of the query (IDF-weighted) it contains, which decides a close or a weak match.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, readInParts, rowsOf } from "../../db/sql.ts";
import { indexedTextSql, type TextConfig, textConfigSql } from "./indexing.ts";
import { bm25Idf, postingAt } from "./lexical.ts";

/** One analysis of one wording of the query: its distinct lexemes under one configuration. */
export type QueryAnalysis = string[];

/**
 * A result is a close match when it holds at least this share of some analysis of the
 * query, weighted by IDF (a word no paper contains weighs as much as the rarest word).
 * A first choice, not yet fitted on any evaluation set (issue 16 leaves the fit open).
 */
export const CLOSE_MATCH_COVERAGE = 0.5;

/** The distinct lexemes of each (wording, configuration) pair, empty analyses dropped. */
export async function analyseQuery(
  db: Db,
  variants: readonly { text: string; configs: readonly TextConfig[] }[],
): Promise<QueryAnalysis[]> {
  const texts: string[] = [];
  const configs: string[] = [];
  for (const v of variants) {
    for (const c of v.configs) {
      texts.push(v.text);
      configs.push(c);
    }
  }
  const rows = await rowsOf<{ lexemes: string[] }>(
    db,
    sql`select array(select distinct lexeme from unnest(to_tsvector(x.cfg::regconfig, x.t)) order by 1) as lexemes
        from unnest(${pgArray(texts, "text")}, ${pgArray(configs, "text")}) with ordinality as x(t, cfg, i)
        order by x.i`,
  );
  return rows.map((r) => r.lexemes).filter((l) => l.length > 0);
}

export interface ChunkMatch {
  /** `[start, end]` code point ranges of matched words inside the quote, ascending. */
  highlights: [number, number][];
  /** The best IDF-weighted share of an analysis of the query the chunk contains, in [0, 1]. */
  coverage: number;
}

const START = "\u0001";
const STOP = "\u0002";

/**
 * Highlights and coverage for the given chunks. Highlights come from PostgreSQL's
 * `ts_headline` over the text the index analysed for the chunk (`indexedTextSql`: a body
 * chunk's captions blanked out, its length unchanged) with its paper's configuration, so a
 * word is marked exactly when the index would match it ("curvas" for "curva", "measured" for
 * "measure"); offsets are code points, like the chunks' `start`/`end`, and hold in the quote. If the marked text
 * is not the quote plus markers (a quote that holds the marker characters), that chunk gets
 * no highlights rather than wrong ones.
 */
export async function matchChunks(
  db: Db,
  chunkIds: readonly number[],
  analyses: readonly QueryAnalysis[],
  weights?: QueryWeights,
): Promise<Map<number, ChunkMatch>> {
  const out = new Map<number, ChunkMatch>();
  const lexemes = [...new Set(analyses.flat())];
  if (chunkIds.length === 0 || lexemes.length === 0) return out;
  const idf = weights ?? (await queryWeights(db, analyses));
  // `ts_headline` is the cost (about a millisecond a chunk): on a pool the chunks are
  // split across connections and marked at once (ADR 0037).
  const mark = (part: readonly number[]) =>
    rowsOf<{ id: string | number; content: string; marked: string; terms: string[] | null }>(
      db,
      sql`with q as (
          select string_agg(plainto_tsquery('simple', l)::text, ' | ')::tsquery as tsq
          from unnest(${pgArray(lexemes, "text")}) l
        )
        select c.id::int8 as id, x.text as content,
               array(select t from unnest(${pgArray(lexemes, "text")}) as t
                     where exists ${postingAt(sql`t`, sql`c.id`)}) as terms,
               ts_headline(${textConfigSql(sql`pv.language`)}, x.text, q.tsq,
                           ${`HighlightAll=true, StartSel="${START}", StopSel="${STOP}"`}) as marked
        from chunks c
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        cross join q
        cross join lateral (select ${indexedTextSql()} as text) x
        where c.id = any(${pgArray([...part], "int8")})`,
    );
  const rows = await readInParts(db, chunkIds, mark);
  for (const row of rows) {
    const terms = new Set(row.terms ?? []);
    let coverage = 0;
    for (const analysis of analyses) {
      let total = 0;
      let matched = 0;
      for (const t of analysis) {
        const w = idf(t);
        total += w;
        if (terms.has(t)) matched += w;
      }
      if (total > 0) coverage = Math.max(coverage, matched / total);
    }
    out.set(Number(row.id), { highlights: markedRanges(row.content, row.marked), coverage });
  }
  return out;
}

/** IDF of a query lexeme, for coverage (a lexeme no chunk holds weighs as the rarest). */
export type QueryWeights = (lexeme: string) => number;

/**
 * The IDF of every lexeme of the analyses, from the collection's statistics; needs only the
 * query, so a search fetches it while ranking and passes it to `matchChunks`.
 */
export async function queryWeights(
  db: Db,
  analyses: readonly QueryAnalysis[],
): Promise<QueryWeights> {
  const lexemes = [...new Set(analyses.flat())];
  const [stats] = await rowsOf<{ n: number; df: Record<string, number> }>(
    db,
    sql`select (select coalesce(sum(chunks), 0)::float8 from search_stats) as n,
               (select coalesce(json_object_agg(term, df), '{}') from search_terms
                where term = any(${pgArray(lexemes, "text")})) as df`,
  );
  const n = Number(stats?.n ?? 0);
  const df = stats?.df ?? {};
  const unseen = bm25Idf(n, 0);
  return (t) => (df[t] ? bm25Idf(n, Number(df[t])) : unseen);
}

/** Code point ranges between START/STOP markers; [] unless removing them gives `original`. */
function markedRanges(original: string, marked: string): [number, number][] {
  if (original.includes(START) || original.includes(STOP)) return [];
  const ranges: [number, number][] = [];
  let plain = "";
  let offset = 0;
  let open = -1;
  for (const ch of marked) {
    if (ch === START) open = offset;
    else if (ch === STOP) {
      if (open >= 0 && offset > open) ranges.push([open, offset]);
      open = -1;
    } else {
      plain += ch;
      offset++;
    }
  }
  return plain === original ? ranges : [];
}
