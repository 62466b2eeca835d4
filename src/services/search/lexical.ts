/** @module BM25 over chunk lexemes, computed in the database from the postings. */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, readInParts, rowsOf } from "../../db/sql.ts";
import { lexemeSequence, type TextConfig } from "./indexing.ts";

export interface Bm25Params {
  k1: number;
  b: number;
  /**
   * Postings a query may scan in full. The rarest query terms are scanned until this is
   * spent; the commoner ones are only looked up for the candidates the rare ones found.
   */
  postingsBudget: number;
}

interface Bm25Hit {
  chunkId: number;
  score: number;
}

export interface Bm25Result {
  /** The best chunks, best first, at most the requested number. */
  hits: Bm25Hit[];
  /** Searchable chunks in the collection (N) and their average length. */
  chunks: number;
  averageLength: number;
  /**
   * The query's terms that occur in the index, with their IDF. A term is a lexeme, or a
   * synonym group's key (see `members`).
   */
  idf: Map<string, number>;
  /**
   * The lexemes each term of `idf` counts: itself for a plain lexeme; for a synonym group
   * (the dictionary translations of one query word, ADR 0036) all of them, their term
   * frequencies summed in a chunk and their document frequencies summed for its IDF.
   */
  members: Map<string, string[]>;
  /** True when every chunk containing a query term was scored (nothing was pruned). */
  exhaustive: boolean;
  /** The query's lexemes in text order (for the sparse channel's word features). */
  lexemes: string[];
}

/**
 * SQL: the postings (term, chunk_id, tf, length) of the lexemes in `terms` (a text[]
 * expression), packed (`search_blocks`) and not yet packed (`search_postings`).
 */
export function postingsOf(terms: SQL): SQL {
  return sql`(select b.term, x.chunk_id, x.tf, x.length
              from search_blocks b
              cross join lateral unnest(b.chunk_ids, b.tfs, b.lengths) as x(chunk_id, tf, length)
              where b.term = any(${terms})
              union all
              select d.term, d.chunk_id, d.tf, d.length from search_postings d
              where d.term = any(${terms}))`;
}

/**
 * SQL: the posting (tf, length) of lexeme `term` in chunk `chunk` (both SQL expressions), as
 * zero or one row: one probe of the blocks' key (the block whose range can hold the chunk)
 * and one of the unpacked postings' key.
 */
export function postingAt(term: SQL, chunk: SQL): SQL {
  return sql`(select b.tfs[b.k] as tf, b.lengths[b.k] as length
              from (select array_position(b.chunk_ids, (${chunk})::int4) as k, b.tfs, b.lengths
                    from search_blocks b
                    where b.term = ${term} and b.first_chunk <= ${chunk}
                    order by b.first_chunk desc limit 1) b
              where b.k is not null
              union all
              select d.tf, d.length from search_postings d
              where d.term = ${term} and d.chunk_id = ${chunk})`;
}

/** Okapi BM25's IDF, never negative. */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** One term's BM25 contribution; the same formula as the SQL below. */
export function bm25Term(
  idf: number,
  tf: number,
  length: number,
  averageLength: number,
  { k1, b }: Pick<Bm25Params, "k1" | "b">,
): number {
  return (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / averageLength));
}

/**
 * Okapi BM25's best `limit` chunks for `query`, analysed with each of `configs` (the query's
 * terms are the union; the first config gives the lexeme sequence the sparse channel reads),
 * with exact statistics: N and the average
 * length from the counter slots, document frequencies from `search_terms`, all describing
 * exactly the searchable chunks at the moment of the query.
 *
 * Work is bounded whatever the archive's size, by term-at-a-time pruning: the query's terms
 * are taken rarest first while their postings fit `postingsBudget`; those postings are
 * scanned (index-only) and scored, and the best `1.5 × limit` chunks then get the commoner
 * terms' contributions by primary-key lookups. A chunk containing only common terms (whose
 * score is bounded by their small IDFs) is not a candidate. On corpora where all the
 * query's postings fit the budget, the result is exact.
 */
export async function bm25Candidates(
  db: Db,
  query: string,
  params: Bm25Params,
  limit: number,
  configs: readonly TextConfig[] = ["english"],
): Promise<Bm25Result> {
  return bm25Search(db, await bm25Statistics(db, query, configs), params, limit);
}

/**
 * The first half of `bm25Candidates`: the query's lexemes, their IDF and the collection's
 * statistics, in one round trip. Split out so that what needs only these (the sparse
 * channel's document frequencies) runs alongside the postings scan.
 */
export async function bm25Statistics(
  db: Db,
  query: string,
  configs: readonly TextConfig[] = ["english"],
  groups?: readonly (readonly string[])[],
): Promise<Bm25Statistics> {
  if (!groups || groups.length === 0) return flatStatistics(db, query, configs);
  // Two round trips in parallel: the query's own statistics and its groups' lexemes.
  const [flat, rows] = await Promise.all([
    flatStatistics(db, query, configs),
    groupLexemes(db, groups, configs[0] ?? "english"),
  ]);
  return groupedStatistics(flat, rows);
}

/** Each group's words analysed with `config`: (group, lexeme, df) for lexemes in the index. */
async function groupLexemes(
  db: Db,
  groups: readonly (readonly string[])[],
  config: TextConfig,
): Promise<{ i: number; term: string; df: number }[]> {
  const words: string[] = [];
  const index: number[] = [];
  groups.forEach((group, i) => {
    for (const word of group) {
      words.push(word);
      index.push(i);
    }
  });
  return rowsOf<{ i: number; term: string; df: number }>(
    db,
    sql`select distinct g.i, lx.lexeme as term, t.df
        from unnest(${pgArray(words, "text")}, ${pgArray(index, "int4")}) as g(word, i)
        cross join lateral unnest(to_tsvector(${config}::regconfig, g.word)) as lx
        join search_terms t on t.term = lx.lexeme and t.df > 0`,
  );
}

/**
 * Synonym groups (Pirkola's structured query), from each group's lexemes (`groupLexemes`): a
 * group of two or more lexemes in the index becomes one term whose frequency in a chunk is the
 * sum of its lexemes' and whose document frequency is the sum of theirs (at most N); a group
 * of one stays that lexeme. The flat query's lexemes no group holds stay as they are.
 */
function groupedStatistics(
  flat: Bm25Statistics,
  rows: { i: number; term: string; df: number }[],
): Bm25Statistics {
  const dfs = new Map<string, number>();
  const byGroup = new Map<number, Set<string>>();
  for (const r of rows) {
    dfs.set(r.term, Number(r.df));
    const set = byGroup.get(Number(r.i)) ?? new Set<string>();
    set.add(r.term);
    byGroup.set(Number(r.i), set);
  }
  const terms = new Map<string, { term: string; df: number }>();
  const members = new Map<string, string[]>();
  const grouped = new Set<string>();
  for (const set of byGroup.values()) {
    const lexemes = [...set].sort();
    for (const l of lexemes) grouped.add(l);
    const key = lexemes.length === 1 ? lexemes[0]! : `{${lexemes.join("|")}}`;
    if (terms.has(key)) continue;
    const df = Math.min(
      flat.chunks,
      lexemes.reduce((sum, l) => sum + (dfs.get(l) ?? 0), 0),
    );
    terms.set(key, { term: key, df });
    members.set(key, lexemes);
  }
  for (const t of flat.terms) {
    if (grouped.has(t.term) || terms.has(t.term)) continue;
    terms.set(t.term, t);
    members.set(t.term, [t.term]);
  }
  const sorted = [...terms.values()].sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
  return {
    ...flat,
    terms: sorted,
    idf: new Map(sorted.map((t) => [t.term, bm25Idf(flat.chunks, t.df)])),
    members,
  };
}

async function flatStatistics(
  db: Db,
  query: string,
  configs: readonly TextConfig[],
): Promise<Bm25Statistics> {
  const analysed = sql.join(
    configs.map((c) => sql`select lexeme from unnest(to_tsvector(${c}::regconfig, ${query}))`),
    sql` union `,
  );
  const [head] = await rowsOf<{
    n: number;
    total: number;
    terms: [string, number][];
    lexemes: string[];
  }>(
    db,
    sql`with st as (
          select coalesce(sum(chunks), 0)::float8 as n,
                 greatest(coalesce(sum(length), 0), 1)::float8 as total
          from search_stats
        ),
        q as (select distinct lexeme as term from (${analysed}) a)
        select st.n, st.total,
               coalesce((select json_agg(json_build_array(q.term, t.df) order by t.df, q.term)
                         from q join search_terms t on t.term = q.term where t.df > 0), '[]') as terms,
               ${lexemeSequence(sql`to_tsvector(${configs[0] ?? "english"}::regconfig, ${query})`)} as lexemes
        from st`,
  );
  const n = Number(head?.n ?? 0);
  const averageLength = Number(head?.total ?? 1) / Math.max(1, n);
  const terms = (head?.terms ?? []).map(([term, df]) => ({ term, df: Number(df) }));
  const idf = new Map(terms.map((t) => [t.term, bm25Idf(n, t.df)]));
  return {
    chunks: n,
    averageLength,
    idf,
    terms,
    members: new Map(terms.map((t) => [t.term, [t.term]])),
    lexemes: head?.lexemes ?? [],
  };
}

/**
 * Lexeme → the query terms it counts for (`members`: a plain lexeme counts for itself; a
 * synonym group's lexemes for the group, and a lexeme may also count on its own or for two
 * groups).
 */
function termsOfLexemes(
  terms: Iterable<string>,
  members: ReadonlyMap<string, readonly string[]>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const term of terms) {
    for (const lexeme of members.get(term) ?? [term]) {
      const counted = out.get(lexeme);
      if (counted) counted.push(term);
      else out.set(lexeme, [term]);
    }
  }
  return out;
}

/** What `bm25Statistics` found: everything of a `Bm25Result` but the hits. */
export interface Bm25Statistics extends Omit<Bm25Result, "hits" | "exhaustive"> {
  /** The query's lexemes in the index with their document frequencies, rarest first. */
  terms: { term: string; df: number }[];
}

/** The second half of `bm25Candidates`: the postings scan, pruned as described there. */
export async function bm25Search(
  db: Db,
  stats: Bm25Statistics,
  params: Bm25Params,
  limit: number,
  /** Rank only these chunks (a narrow filter's); all chunks when absent. */
  allowed?: ReadonlySet<number>,
): Promise<Bm25Result> {
  const { terms, idf, averageLength, members } = stats;
  const empty = {
    hits: [],
    chunks: stats.chunks,
    averageLength,
    idf,
    members,
    exhaustive: true,
    lexemes: stats.lexemes,
  };
  if (terms.length === 0 || limit <= 0) return empty;

  const scanned: string[] = [];
  let spent = 0;
  for (const t of terms) {
    if (scanned.length > 0 && spent + t.df > params.postingsBudget) break;
    scanned.push(t.term);
    spent += t.df;
  }
  const looked = terms.slice(scanned.length).map((t) => t.term);
  const depth = looked.length > 0 ? Math.ceil(limit * 1.5) : limit;
  const { k1, b } = params;
  // The scanned terms' postings are scored here, not in SQL: PostgreSQL's executor spent
  // ~50 ms per query at 100k chunks unnesting, joining, sorting and grouping the ~24,000
  // postings row by row; read as one string per block and summed in a Map they take a
  // fraction of that (ADR 0035). The arithmetic is the SQL's below, operand for operand.
  const k1p1 = k1 + 1;
  const oneMinusB = 1 - b;
  const bOverAvg = b / averageLength;
  // A synonym group's lexemes are read under their own names and summed per chunk below
  // (a lexeme may count for a group and on its own, or for two groups).
  const keysOf = termsOfLexemes(scanned, members);
  const groupTfs = new Map<string, Map<number, [number, number]>>();
  for (const key of scanned) {
    if ((members.get(key) ?? [key]).length > 1) groupTfs.set(key, new Map());
  }
  const lexemes = [...keysOf.keys()];
  const posted = await rowsOf<{ term: string; ids: string; tfs: string; lengths: string }>(
    db,
    sql`select b.term, array_to_string(b.chunk_ids, ',') as ids,
               array_to_string(b.tfs, ',') as tfs, array_to_string(b.lengths, ',') as lengths
        from search_blocks b where b.term = any(${pgArray(lexemes, "text")})
        union all
        select d.term, d.chunk_id::text, d.tf::text, d.length::text
        from search_postings d where d.term = any(${pgArray(lexemes, "text")})`,
  );
  // Each term's postings as (chunk, contribution) sorted by chunk, then merged term by term.
  const perTerm = new Map<string, { ids: number[]; scores: number[] }>();
  const contribution = (w: number, tf: number, length: number) =>
    (w * tf * k1p1) / (tf + k1 * (oneMinusB + bOverAvg * length));
  for (const row of posted) {
    const ids = row.ids.split(",");
    const tfs = row.tfs.split(",");
    const lengths = row.lengths.split(",");
    for (const key of keysOf.get(row.term) ?? [row.term]) {
      const summed = groupTfs.get(key);
      if (summed) {
        for (let k = 0; k < ids.length; k++) {
          const id = Number(ids[k]);
          const seen = summed.get(id);
          if (seen) seen[0] += Number(tfs[k]);
          else summed.set(id, [Number(tfs[k]), Number(lengths[k])]);
        }
        continue;
      }
      const w = idf.get(key) ?? 0;
      let list = perTerm.get(key);
      if (!list) {
        list = { ids: [], scores: [] };
        perTerm.set(key, list);
      }
      for (let k = 0; k < ids.length; k++) {
        list.ids.push(Number(ids[k]));
        list.scores.push(contribution(w, Number(tfs[k]), Number(lengths[k])));
      }
    }
  }
  for (const [key, summed] of groupTfs) {
    const w = idf.get(key) ?? 0;
    const ids = [...summed.keys()].sort((x, y) => x - y);
    perTerm.set(key, {
      ids,
      scores: ids.map((id) => {
        const [tf, length] = summed.get(id)!;
        return contribution(w, tf, length);
      }),
    });
  }
  let merged: { ids: number[]; scores: number[] } = { ids: [], scores: [] };
  for (const term of scanned) {
    const list = perTerm.get(term);
    if (list) merged = mergeSorted(merged, sortedByChunk(list));
  }
  if (allowed) {
    const ids: number[] = [];
    const scores: number[] = [];
    merged.ids.forEach((id, k) => {
      if (allowed.has(id)) {
        ids.push(id);
        scores.push(merged.scores[k]!);
      }
    });
    merged = { ids, scores };
  }
  const best = topScores(merged, depth);
  if (looked.length === 0 || best.length === 0)
    return { ...empty, hits: best.slice(0, limit), exhaustive: looked.length === 0 };
  // Plain float8 arithmetic: bare decimal literals would make PostgreSQL compute in numeric,
  // several times slower.
  const f = (x: number) => `${x}::float8`;
  // A group's lexemes' term frequencies are summed per chunk (its length is one value).
  const weight = sql.raw(
    `w.idf * sum(p.tf) * ${f(k1p1)} / (sum(p.tf) + ${f(k1)} * (${f(oneMinusB)} + ${f(bOverAvg)} * max(p.length)))`,
  );
  const lookedTerms: string[] = [];
  const lookedKeys: string[] = [];
  const lookedIdf: number[] = [];
  for (const key of looked) {
    for (const l of members.get(key) ?? [key]) {
      lookedTerms.push(l);
      lookedKeys.push(key);
      lookedIdf.push(idf.get(key) ?? 0);
    }
  }
  // The probes are the statement's cost (one index probe per candidate and term): on a
  // pool, the candidates are split across connections and probed at once, and the parts'
  // best are merged here in the statement's own order (ADR 0037).
  const probe = async (part: Bm25Hit[]) =>
    rowsOf<{ chunk_id: string | number; score: number }>(
      db,
      sql`with w(term, key, idf) as (
          select * from unnest(${pgArray(lookedTerms, "text")}, ${pgArray(lookedKeys, "text")}, ${sql.param(lookedIdf)}::float8[])
        ),
        e(chunk_id, score) as (
          select * from unnest(${pgArray(
            part.map((h) => h.chunkId),
            "int8",
          )}, ${sql.param(part.map((h) => h.score))}::float8[])
        )
        select e.chunk_id::int8 as chunk_id, e.score + coalesce(r.extra, 0) as score
        from e
        cross join lateral (
          select sum(g.s) as extra from (
            select ${weight} as s
            from w cross join lateral ${postingAt(sql`w.term`, sql`e.chunk_id`)} as p
            group by w.key, w.idf
          ) g
        ) r
        order by score desc, chunk_id
        limit ${limit}`,
    );
  const hits = (await readInParts(db, best, probe))
    .map((r) => ({ chunkId: Number(r.chunk_id), score: Number(r.score) }))
    .sort((x, y) => y.score - x.score || x.chunkId - y.chunkId)
    .slice(0, limit);
  return { ...empty, hits, exhaustive: looked.length === 0 };
}

/** The list itself when its chunks ascend (blocks and the delta table almost always do). */
function sortedByChunk(list: { ids: number[]; scores: number[] }) {
  let sorted = true;
  for (let k = 1; k < list.ids.length && sorted; k++) sorted = list.ids[k - 1]! < list.ids[k]!;
  if (sorted) return list;
  const order = list.ids.map((_, k) => k).sort((x, y) => list.ids[x]! - list.ids[y]!);
  return { ids: order.map((k) => list.ids[k]!), scores: order.map((k) => list.scores[k]!) };
}

/** Two chunk-sorted lists summed chunk by chunk (in one linear pass). */
function mergeSorted(
  a: { ids: number[]; scores: number[] },
  b: { ids: number[]; scores: number[] },
): { ids: number[]; scores: number[] } {
  if (a.ids.length === 0) return b;
  const ids: number[] = [];
  const scores: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.ids.length || j < b.ids.length) {
    const x = i < a.ids.length ? a.ids[i]! : Number.POSITIVE_INFINITY;
    const y = j < b.ids.length ? b.ids[j]! : Number.POSITIVE_INFINITY;
    if (x === y) {
      ids.push(x);
      scores.push(a.scores[i++]! + b.scores[j++]!);
    } else if (x < y) {
      ids.push(x);
      scores.push(a.scores[i++]!);
    } else {
      ids.push(y);
      scores.push(b.scores[j++]!);
    }
  }
  return { ids, scores };
}

/**
 * The `depth` best (score descending, then chunk ascending) without sorting them all: the
 * depth-th best score from a native numeric sort of the scores, then only the chunks at or
 * above it are ordered.
 */
function topScores(list: { ids: number[]; scores: number[] }, depth: number): Bm25Hit[] {
  const n = list.ids.length;
  if (n === 0 || depth <= 0) return [];
  const sorted = Float64Array.from(list.scores).sort();
  const threshold = sorted[Math.max(0, n - depth)]!;
  const hits: Bm25Hit[] = [];
  for (let k = 0; k < n; k++) {
    if (list.scores[k]! >= threshold) hits.push({ chunkId: list.ids[k]!, score: list.scores[k]! });
  }
  return hits.sort((x, y) => y.score - x.score || x.chunkId - y.chunkId).slice(0, depth);
}

/**
 * BM25 scores of given chunks (candidates another channel found), with the statistics of
 * the query's `bm25Candidates` run, so both sets are on one scale. Postings are read by
 * primary key, (term, chunk) pairs.
 */
export async function bm25Scores(
  db: Db,
  stats: Bm25Result,
  chunkIds: number[],
  params: Bm25Params,
): Promise<Map<number, number>> {
  const scores = new Map<number, number>();
  if (stats.idf.size === 0 || chunkIds.length === 0) return scores;
  const keyOf = termsOfLexemes(stats.idf.keys(), stats.members);
  const rows = await rowsOf<{
    term: string;
    chunk_id: string | number;
    tf: number;
    length: number;
  }>(
    db,
    sql`select t.term, c.chunk_id::int8 as chunk_id, p.tf, p.length
        from unnest(${pgArray([...keyOf.keys()], "text")}) as t(term)
        cross join unnest(${pgArray(chunkIds, "int8")}) as c(chunk_id)
        cross join lateral ${postingAt(sql`t.term`, sql`c.chunk_id`)} as p`,
  );
  // Term frequencies per (term, chunk), a synonym group's lexemes summed.
  const tfs = new Map<string, [number, number]>();
  for (const row of rows) {
    for (const key of keyOf.get(row.term) ?? []) {
      const at = `${key}\u0000${row.chunk_id}`;
      const seen = tfs.get(at);
      if (seen) seen[0] += Number(row.tf);
      else tfs.set(at, [Number(row.tf), Number(row.length)]);
    }
  }
  for (const [at, [tf, length]] of tfs) {
    const [key, chunk] = at.split("\u0000") as [string, string];
    const id = Number(chunk);
    const s = bm25Term(stats.idf.get(key) ?? 0, tf, length, stats.averageLength, params);
    scores.set(id, (scores.get(id) ?? 0) + s);
  }
  return scores;
}
