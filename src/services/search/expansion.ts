/**
 * @module Query expansion by pseudo-relevance feedback (RM3) on the lexical channel: terms
 * of the first ranking's best passages, searched as a second BM25 query and interpolated at
 * a low weight with the first ranking.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, rowsOf } from "../../db/sql.ts";
import type { TextConfig } from "./indexing.ts";
import { bm25Idf } from "./lexical.ts";
import { synonyms } from "./synonyms.ts";

/** Pseudo-relevance feedback settings; `weight` 0 turns it off. */
export interface FeedbackSettings {
  /** Passages of the first ranking taken as relevant. */
  docs: number;
  /** Expansion terms kept. */
  terms: number;
  /** Share of the expansion ranking in the interpolated score, in [0, 1]. */
  weight: number;
}

export interface FeedbackTerm {
  term: string;
  weight: number;
}

/** A ranked chunk as the fusion sees it: an id and a score on a per-query z scale. */
export interface Ranked {
  chunkId: number;
  fused: number;
}

/**
 * RM3's relevance model over the first ranking's best `docs` passages:
 * P(w|R) ∝ Σ_d P(w|d)·P(d|q), P(w|d) the lexeme's share of the passage (analysed with
 * `config`, as the index analyses it) and P(d|q) a softmax of the passage's fused z-score.
 * Each lexeme's weight is P(w|R)·IDF (plain RM3 favours words common to every passage,
 * "model", "use", which bring no new passage); the query's own lexemes and lexemes found in
 * one passage only (which reach no other passage) are left out. One round trip.
 */
export async function feedbackTerms(
  db: Db,
  top: readonly Ranked[],
  query: string,
  count: number,
  config: TextConfig = "english",
): Promise<FeedbackTerm[]> {
  if (top.length === 0 || count <= 0) return [];
  const best = Math.max(...top.map((r) => r.fused));
  const prior = top.map((r) => Math.exp(r.fused - best));
  const total = prior.reduce((a, b) => a + b, 0);
  const rows = await rowsOf<{ term: string; p: number; df: number; n: number }>(
    db,
    sql`with d(id, w) as (
          select * from unnest(${pgArray(
            top.map((r) => r.chunkId),
            "int8",
          )}, ${sql.param(prior.map((p) => p / total))}::float8[])
        ),
        l as (
          select d.id, d.w, x.lexeme, coalesce(array_length(x.positions, 1), 1)::float8 as tf
          from d join chunks c on c.id = d.id,
               unnest(to_tsvector(${config}::regconfig, c.content)) x
        ),
        p as (
          select lexeme, sum(w * tf / len) as p
          from (select l.*, sum(tf) over (partition by id) as len from l) s
          group by lexeme
        ),
        st as (select coalesce(sum(chunks), 0)::float8 as n from search_stats)
        select p.lexeme as term, p.p, t.df, st.n
        from p join search_terms t on t.term = p.lexeme cross join st
        where t.df > 1
          and not (p.lexeme = any(tsvector_to_array(to_tsvector(${config}::regconfig, ${query}))))`,
  );
  return rows
    .map((r) => ({ term: r.term, weight: Number(r.p) * bm25Idf(Number(r.n), Number(r.df)) }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, count);
}

/** One more ranking of the query, and its share of the interpolated score. */
export interface Expansion {
  ranking: readonly Ranked[];
  weight: number;
}

/**
 * Interpolates a query's first ranking with its expansions' rankings, each on its own z
 * scale: (1 − Σw)·first + Σ w·expansion. A chunk a ranking did not list gets that
 * ranking's lowest score, so an expansion can bring in passages the first ranking missed,
 * but only by outscoring what it listed.
 */
export function interpolate<T extends Ranked>(
  first: readonly T[],
  expansions: readonly Expansion[],
  make: (chunkId: number, fused: number, from: T | undefined) => T,
): T[] {
  const used = expansions.filter((e) => e.weight > 0 && e.ranking.length > 0);
  if (used.length === 0) return [...first];
  const floor = (list: readonly Ranked[]) =>
    list.length === 0 ? 0 : Math.min(...list.map((r) => r.fused));
  const firstBy = new Map(first.map((r) => [r.chunkId, r]));
  const firstFloor = floor(first);
  const others = used.map((e) => ({
    weight: e.weight,
    by: new Map(e.ranking.map((r) => [r.chunkId, r.fused])),
    floor: floor(e.ranking),
  }));
  const ids = new Set([...firstBy.keys(), ...others.flatMap((o) => [...o.by.keys()])]);
  const share = 1 - others.reduce((sum, o) => sum + o.weight, 0);
  return [...ids]
    .map((id) => {
      const from = firstBy.get(id);
      let fused = share * (from?.fused ?? firstFloor);
      for (const o of others) fused += o.weight * (o.by.get(id) ?? o.floor);
      return make(id, fused, from);
    })
    .sort((a, b) => b.fused - a.fused || a.chunkId - b.chunkId);
}

/** Passages of the first ranking the feedback reads and the expansions are fused over. */
export const FEEDBACK_DEPTH = 100;

export interface ExpansionSettings {
  feedback: FeedbackSettings;
  /** Share of the WordNet-synonym ranking in the interpolated score; 0 is off. */
  synonymWeight: number;
}

/** Whether any expansion is on. */
export function expands(settings: ExpansionSettings): boolean {
  return settings.feedback.weight > 0 || settings.synonymWeight > 0;
}

/**
 * The first ranking of `query` re-ranked with its expansions, each searched by BM25 alone
 * (`rank`) and interpolated at its weight: WordNet synonyms of the query's words (analysed
 * in English), and RM3 feedback terms of the first ranking's best passages (one round trip
 * to find them; searched as lexemes, analysed `simple` so the stems stay as they are).
 * Synonyms can answer a query whose own words match nothing.
 */
export async function expandRanking<T extends Ranked>(
  db: Db,
  query: string,
  first: readonly T[],
  settings: ExpansionSettings,
  rank: (text: string, config: "english" | "simple") => Promise<Ranked[]>,
  make: (chunkId: number, fused: number, from: T | undefined) => T,
): Promise<T[]> {
  const { feedback, synonymWeight } = settings;
  const [bySynonyms, byFeedback] = await Promise.all([
    (async () => {
      const words = synonymWeight > 0 ? synonyms(query) : [];
      return words.length > 0 ? rank(words.join(" "), "english") : [];
    })(),
    (async () => {
      if (feedback.weight <= 0 || first.length === 0) return [];
      const terms = await feedbackTerms(db, first.slice(0, feedback.docs), query, feedback.terms);
      return terms.length > 0 ? rank(terms.map((t) => t.term).join(" "), "simple") : [];
    })(),
  ]);
  return interpolate(
    first,
    [
      { ranking: bySynonyms, weight: synonymWeight },
      { ranking: byFeedback, weight: feedback.weight },
    ],
    make,
  );
}
