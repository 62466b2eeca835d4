/** @module searchChunks: hybrid search over verbatim chunks (BM25, character grams, dense). */
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, readInParts, rowsOf } from "../../db/sql.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { type FieldIssue, Invalid } from "../errors.ts";
import {
  hasFilters,
  type PaperFilters,
  paperFilterSql,
  parsePaperFilters,
  SearchFiltersSchema,
} from "../filters/index.ts";
import { issuesFromZod } from "../validation.ts";
import { denseCandidates, vectorLiteral } from "./dense.ts";
import { embedQuery } from "./embed-query.ts";
import { applyGlossary, englishCognates } from "./glossary.ts";
import { searchableLanguages, searchLanguageOf, type TextConfig } from "./indexing.ts";
import { bm25Scores, bm25Search, bm25Statistics } from "./lexical.ts";
import { analyseQuery, CLOSE_MATCH_COVERAGE, matchChunks, queryWeights } from "./matches.ts";
import {
  type GroupedSearchResponse,
  PASSAGES_PER_PAPER,
  SEARCH_LIMIT,
  SearchLimitSchema,
  type SearchMode,
  SearchModeSchema,
  type SearchPaper,
  SearchQuerySchema,
  type SearchResponse,
  type SearchResult,
} from "./schemas.ts";
import { searchSettings } from "./settings.ts";
import { queryGramVector } from "./sparse.ts";
import type { SearchLanguage } from "./translate.ts";

export type { SearchMode };

/** Candidates BM25 alone ranks (and z-scores over) in lexical mode. */
const LEXICAL_DEPTH = 100;

export interface SearchInput {
  q: string;
  limit?: number;
  mode?: SearchMode;
  /** Only papers with this subject (a code, an archive or a group; services/filters). */
  subject?: string | undefined;
  /** Only papers first published in this window (RFC 3339 dates or date-times, inclusive). */
  since?: string | undefined;
  until?: string | undefined;
}

/** What front ends other than the API may ask beyond the API's input. */
export interface SearchOptions {
  /**
   * A larger `limit` than SEARCH_LIMIT.max allows: the site's result pages read a deeper list
   * of the same ranking (candidates and z-scores do not depend on the depth).
   */
  maxLimit?: number;
}

/** Ranking channels; `hybrid` uses every available one. */
export type Channel = "bm25" | "sparse" | "dense";

/** One wording of the query and the text search configurations it is analysed with. */
export interface QueryVariant {
  text: string;
  configs: readonly TextConfig[];
  /**
   * The papers this wording ranks: those in `en` or `es`, or in any `other` language; all
   * papers when absent.
   */
  language?: SearchLanguage | "other";
  /**
   * For a translation: each source word's dictionary translations, ranked by BM25 as one
   * synonym group apiece (a structured query) beside the wording's own words.
   */
  groups?: string[][];
}

/** The query as typed, for papers in any language; see `queryVariants` for the others. */
export const ORIGINAL_CONFIGS: readonly TextConfig[] = ["english"];

/**
 * The wordings a query is searched in: as typed, and, when a translator is configured, its
 * English and Spanish translations (each analysed in its own language) where they differ
 * from it. A query's language is not guessed up front; the translations tell: translating
 * "curve number" es→en changes nothing and is dropped, en→es gives "número de curva"; when
 * es→en changes most of a query, it was Spanish, and its English translation replaces the
 * English analysis of its Spanish words. A translation that fails or times out is left out,
 * so search degrades to the query as typed, never to an error.
 */
export async function queryVariants(ctx: ServiceContext, query: string): Promise<QueryVariant[]> {
  // The query as typed is analysed in every language the index knows, each analysis ranking
  // the papers of its language (English stemming ranks them all, as before), so adding a
  // language never reorders the papers of another.
  const variants: QueryVariant[] = [
    { text: query, configs: ORIGINAL_CONFIGS },
    { text: spanishWording(query), configs: ["spanish"], language: "es" },
    { text: query, configs: ["simple"], language: "other" },
  ];
  const translator = ctx.translator;
  if (!translator) return variants;
  const glossed = applyGlossary(query);
  const useSenses = searchSettings(ctx.search).translationSenses;
  const [english, spanish, senses] = await Promise.all([
    // Research terms Apertium translates word by word go in already in English.
    translator.translate(glossed, "es", "en"),
    translator.translate(query, "en", "es"),
    useSenses ? (translator.senses?.(glossed, "es", "en") ?? null) : null,
  ]);
  const seen = new Set([folded(query)]);
  // (The Spanish analysis of the query as typed already covers a translation equal to it.)
  const typed = new Set(folded(query).split(" "));
  for (const [text, config, language] of [
    [english, "english", "en"],
    [spanish, "spanish", "es"],
  ] as const) {
    if (text === null || seen.has(folded(text))) continue;
    // Apertium passes words it does not know through unchanged: a "translation" that keeps
    // most of the query's words means the query was not in the source language.
    const words = folded(text).split(" ");
    const kept = words.filter((w) => typed.has(w)).length;
    if (kept >= UNCHANGED_SHARE * words.length) continue;
    seen.add(folded(text));
    // Words of a Spanish query Apertium did not know come back with their English ending.
    const wording = language === "en" ? englishCognates(text, query) : text;
    const groups =
      language === "en" && senses
        ? senses.map((s) =>
            s.unknown ? [englishCognates(s.translations[0]!, query)] : s.translations,
          )
        : undefined;
    variants.push({
      text: language === "es" ? spanishWording(wording) : wording,
      configs: [config],
      language,
      ...(groups ? { groups } : {}),
    });
    // The query was Spanish (its English translation changed most of it): its words under
    // English stemming match English papers only by accident (a shared "3D", a loanword)
    // and outrank the translation's real matches; the Spanish analysis and the English
    // translation cover both languages (Spanish queries for English papers, eval:arxiv:
    // MRR@10 0.672 with it, 0.739 without; English queries unchanged).
    if (language === "en") variants.splice(0, 1);
  }
  return variants;
}

/**
 * Spanish question words carry an accent ("¿cómo …?", "¿dónde …?") that PostgreSQL's Spanish
 * stop list lacks (it has "como", "donde"): unstopped, they stay in the query's analysis as
 * words no paper is about, and a paper holding every other word of the question reads as a
 * weak match. Written without the accent, the language's own analysis drops them.
 */
const SPANISH_QUESTION_WORDS = new Map([
  ["cómo", "como"],
  ["dónde", "donde"],
  ["adónde", "adonde"],
  ["cuándo", "cuando"],
  ["quién", "quien"],
  ["quiénes", "quienes"],
  ["cuál", "cual"],
  ["cuáles", "cuales"],
]);

/** `text` as the Spanish analysis should read it: question words without their accent. */
function spanishWording(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => {
    const plain = SPANISH_QUESTION_WORDS.get(word.toLowerCase());
    if (!plain) return word;
    return word[0] === word[0]?.toUpperCase() ? plain[0]!.toUpperCase() + plain.slice(1) : plain;
  });
}

/** A translation keeping at least this share of the query's words is not one. */
const UNCHANGED_SHARE = 0.5;

async function chunkLanguages(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<{ id: string | number; language: string }>(
    db,
    sql`select c.id::int8 as id, pv.language from chunks c
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        where c.id = any(${pgArray(ids, "int8")})`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.language]));
}

function folded(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Fuses the rankings of a query's wordings: each chunk keeps its best fused z-score over
 * the wordings (CombMAX). Every ranking is z-scored over its own candidates, so a wording
 * that matches a paper in its own language ranks it as the original would in that language.
 */
function fuseVariants(rankings: ScoredChunk[][], limit: number): ScoredChunk[] {
  if (rankings.length === 1) return rankings[0]!.slice(0, limit);
  const best = new Map<number, ScoredChunk>();
  for (const ranking of rankings) {
    for (const r of ranking) {
      const seen = best.get(r.chunkId);
      if (!seen || r.fused > seen.fused) best.set(r.chunkId, r);
    }
  }
  return [...best.values()]
    .sort((a, b) => b.fused - a.fused || a.chunkId - b.chunkId)
    .slice(0, limit);
}

/** A result with the channel scores that produced it (for tests and evaluation). */
export interface ScoredChunk {
  chunkId: number;
  fused: number;
  z: Partial<Record<Channel, number>>;
}

/**
 * Searches the current versions of published papers and returns their chunks verbatim,
 * best first. Channels: BM25 over English lexemes (in SQL), the built-in sparse channel
 * (IDF-weighted character 4-grams, re-scoring BM25's candidates) and, when an embedding
 * backend is configured, dense vectors through HNSW. Each channel's scores are z-scored per
 * query and combined with weights, which keeps a weak channel from swamping a strong one
 * (plain reciprocal rank fusion did, measured on SciFact:
 * docs/adr/0006-search-in-the-database.md); the fused value is mapped into [0, 1] by a
 * logistic, so scores are comparable in kind across queries and descend
 * with rank. Visibility is checked on every candidate against the papers table, not only
 * trusted to the index.
 */
export async function searchChunks(
  ctx: ServiceContext,
  input: SearchInput,
  options: SearchOptions = {},
): Promise<SearchResponse> {
  const { query, limit, mode, filters } = validate(ctx, input, options);
  return runSearch(ctx, {
    query,
    limit,
    mode,
    filters,
    channels: channelsFor(ctx, mode),
    // Translation starts now, while the search looks up which languages the index holds.
    wordings: queryVariants(ctx, query),
  });
}

/** How deep a grouped search reads passages to fill `limit` papers. */
const GROUPED_DEPTH = 100;

/**
 * The search grouped by paper: the ranking of `searchChunks`, read deeper, one entry per paper
 * in order of its best passage, each with its best passages; at most `limit` papers.
 */
export async function searchPapers(
  ctx: ServiceContext,
  input: SearchInput,
): Promise<GroupedSearchResponse> {
  const { query, limit, mode, filters } = validate(ctx, input, {});
  const passages = await runSearch(ctx, {
    query,
    limit: Math.min(GROUPED_DEPTH, limit * 5),
    mode,
    filters,
    channels: channelsFor(ctx, mode),
    wordings: queryVariants(ctx, query),
  });
  const papers = new Map<string, SearchPaper>();
  for (const r of passages.results) {
    const seen = papers.get(r.paper_id);
    if (seen) {
      if (seen.passages.length < PASSAGES_PER_PAPER) seen.passages.push(r);
      continue;
    }
    if (papers.size === limit) continue;
    papers.set(r.paper_id, {
      paper_id: r.paper_id,
      title: r.title,
      language: r.language,
      version: r.version,
      score: r.score,
      match: r.match,
      passages: [r],
    });
  }
  return { query, group: "paper", papers: [...papers.values()] };
}

/** A search with every choice made: what `searchChunks` runs once the input is valid. */
export interface SearchPlan {
  /** The query as validated (trimmed), answered back in the response. */
  query: string;
  limit: number;
  mode: SearchMode;
  /** Only chunks of papers these filters keep; null or absent: every visible paper. */
  filters?: PaperFilters | null;
  /** The ranking channels: `channelsFor(ctx, mode)`. */
  channels: readonly Channel[];
  /** The wordings ranked and fused: `queryVariants(ctx, query)`. */
  wordings: QueryVariant[] | Promise<QueryVariant[]>;
}

/** Ranks each wording, fuses the rankings and shows the best `limit` chunks. */
export async function runSearch(ctx: ServiceContext, plan: SearchPlan): Promise<SearchResponse> {
  const { query, limit, mode, channels } = plan;
  // What a filter keeps is looked up once for every wording.
  const filter: SearchFilter | null = plan.filters
    ? {
        filters: plan.filters,
        allowed: allowedChunks(
          publicReadDb(ctx),
          plan.filters,
          searchSettings(ctx.search).filterScanChunks,
        ),
      }
    : null;
  filter?.allowed.catch(() => {});
  // A wording that ranks the papers of one language only is skipped when the index holds no
  // chunk in that language (an English-only archive runs one wording, not four); the
  // wordings for every paper start ranking without waiting for that answer.
  const indexed = searchableLanguages(publicReadDb(ctx));
  indexed.catch(() => {});
  const wordings = await plan.wordings;
  // What the matches need of the query alone is fetched while the ranking runs.
  const analysed = analyseQuery(publicReadDb(ctx), wordings).then(async (analyses) => ({
    analyses,
    weights: analyses.length > 0 ? await queryWeights(publicReadDb(ctx), analyses) : undefined,
  }));
  analysed.catch(() => {});
  const perWording = await Promise.all(
    wordings.map(async (v) => {
      if (!v.language) return rankChunks(ctx, v.text, channels, limit, v, filter);
      if (!(await indexed).has(v.language)) return null;
      // A translation looks for papers in its language only, so it never reorders the
      // papers the query as typed already reaches.
      const deep = await rankChunks(ctx, v.text, channels, 3 * limit, v, filter);
      const languages = await chunkLanguages(
        publicReadDb(ctx),
        deep.map((r) => r.chunkId),
      );
      return deep.filter((r) => searchLanguageOf(languages.get(r.chunkId)) === v.language);
    }),
  );
  const rankings = perWording.filter((r): r is ScoredChunk[] => r !== null);
  const ranked = fuseVariants(rankings, limit);
  const curve = searchSettings(ctx.search).scoreCurves[mode];
  const db = publicReadDb(ctx);
  const ids = ranked.map((r) => r.chunkId);
  const [shown, matches] = await Promise.all([
    displayRows(db, ids),
    analysed.then(({ analyses, weights }) => matchChunks(db, ids, analyses, weights)),
  ]);
  const results: SearchResult[] = [];
  for (const r of ranked) {
    const row = shown.get(r.chunkId);
    if (!row) continue;
    const match = matches.get(r.chunkId);
    results.push({
      ...row,
      score: unitScore(r.fused, curve),
      highlights: match?.highlights ?? [],
      match:
        mode === "semantic" || (match?.coverage ?? 0) >= CLOSE_MATCH_COVERAGE ? "close" : "weak",
    });
  }
  return { query, results };
}

/**
 * The input checked by the schemas the front ends derive from (every failed check listed),
 * plus what only the service knows: a page's deeper limit, and whether this server has an
 * embedding backend for `semantic`.
 */
function validate(ctx: ServiceContext, input: SearchInput, options: SearchOptions) {
  const issues: FieldIssue[] = [];
  const named = (name: string, found: readonly { message: string }[]) => {
    for (const issue of found) issues.push({ in: "query", name, message: issue.message });
  };
  const q = SearchQuerySchema.safeParse(typeof input.q === "string" ? input.q : "");
  named("q", q.error?.issues ?? []);
  const limitSchema =
    options.maxLimit === undefined
      ? SearchLimitSchema
      : z.number().int().min(SEARCH_LIMIT.min).max(options.maxLimit).default(SEARCH_LIMIT.default);
  const limit = limitSchema.safeParse(input.limit);
  named("limit", limit.error?.issues ?? []);
  const mode = SearchModeSchema.safeParse(input.mode);
  named("mode", mode.error?.issues ?? []);
  if (mode.data === "semantic" && !ctx.embedder) {
    issues.push({
      in: "query",
      name: "mode",
      message:
        "semantic needs an embedding backend and this server has none configured (EMBEDDINGS_URL); use hybrid or lexical",
    });
  }
  const filterInput = { subject: input.subject, since: input.since, until: input.until };
  const checked = SearchFiltersSchema.safeParse(filterInput);
  if (!checked.success) issues.push(...issuesFromZod("query", checked.error.issues));
  if (issues.length > 0 || !q.success || !limit.success || !mode.success) {
    throw new Invalid("The search request is invalid; see errors.", issues);
  }
  const filters = parsePaperFilters(filterInput);
  return {
    query: q.data,
    limit: limit.data,
    mode: mode.data,
    filters: hasFilters(filters) ? filters : null,
  };
}

/** The channels a mode ranks with on this server. */
export function channelsFor(ctx: ServiceContext, mode: SearchMode): Channel[] {
  if (mode === "lexical") return ["bm25"];
  if (mode === "semantic") return ["dense"];
  return ctx.embedder ? ["bm25", "sparse", "dense"] : ["bm25", "sparse"];
}

/**
 * The fused ranking of one wording: chunk ids with fused z-scores, best first, at most
 * `limit`. The wording's configurations analyse the query, and its synonym groups (see
 * `QueryVariant.groups`) rank as BM25 structured query terms.
 */
export async function rankChunks(
  ctx: ServiceContext,
  query: string,
  channelList: readonly Channel[],
  limit: number,
  wording: Pick<QueryVariant, "configs" | "groups">,
  filter: SearchFilter | null = null,
): Promise<ScoredChunk[]> {
  const db = publicReadDb(ctx);
  const settings = searchSettings(ctx.search);
  // A filter keeping a small part of the archive is applied inside BM25's scan (exactly: the
  // best chunks among those it keeps); a broad one is applied to the candidates, with a
  // deeper second pass when too few of them are kept.
  const filters = filter?.filters ?? null;
  const allowed = filter?.allowed ?? null;
  const channels = new Set(channelList);
  const embedder = channels.has("dense") ? ctx.embedder : undefined;
  // The query embedding is the slow part when dense is on: start it first.
  const embedding = embedder ? embedQuery(embedder, query) : null;
  embedding?.catch(() => {});

  const lexical = channels.has("bm25") || channels.has("sparse");
  // BM25 alone needs no re-scoring: a short list, but a fixed one, so that its z-scores
  // (and so the scores shown) do not depend on `limit`.
  const onlyBm25 = channels.size === 1 && channels.has("bm25");
  const baseDepth = onlyBm25 ? Math.max(LEXICAL_DEPTH, 2 * limit + 20) : settings.candidates;
  // Three independent chains, in parallel: BM25's postings scan and the sparse channel's
  // document frequencies (both need only the query's statistics), and the dense search.
  // `deeper` multiplies the pools' depth: a broad filter's second pass, when the first left
  // fewer than `limit` candidates.
  const stats = lexical ? bm25Statistics(db, query, wording.configs, wording.groups) : null;
  stats?.catch(() => {});
  const lexicalChain = async (deeper: number) => {
    if (!stats) return { bm25: null, gramVector: null };
    const kept = allowed ? await allowed : null;
    const [found, grams] = await Promise.all([
      bm25Search(
        db,
        await stats,
        settings,
        deeper * baseDepth,
        kept?.exact ? kept.chunks : undefined,
      ),
      channels.has("sparse")
        ? stats.then((s) => queryGramVector(db, query, s.lexemes, s.chunks))
        : null,
    ]);
    return { bm25: found, gramVector: found.hits.length > 0 ? grams : null };
  };
  const denseChain = async (deeper: number) => {
    const vector = embedding ? await embedding : null;
    const hits =
      embedder && vector
        ? await denseCandidates(
            db,
            embedder.model,
            vector,
            deeper * settings.denseCandidates,
            settings.efSearch,
          )
        : [];
    return { vector, dense: hits };
  };
  const gather = async (deeper: number) => {
    const [{ bm25, gramVector }, { vector, dense }] = await Promise.all([
      lexicalChain(deeper),
      denseChain(deeper),
    ]);
    let candidates = new Set<number>(bm25?.hits.map((h) => h.chunkId) ?? []);
    for (const hit of dense) candidates.add(hit.chunkId);
    // A narrow filter keeps the candidates it listed; a broad one is applied by the facts'
    // own query (one statement, not a second round trip).
    let broad: PaperFilters | null = null;
    if (filters && candidates.size > 0) {
      const kept = await allowed!;
      if (kept.exact) candidates = new Set([...candidates].filter((id) => kept.chunks.has(id)));
      else broad = filters;
    }
    const denseSpec = embedder && vector ? { model: embedder.model, vector } : null;
    const facts =
      candidates.size === 0
        ? []
        : await candidateFacts(db, [...candidates], gramVector, denseSpec, broad);
    return { bm25, gramVector, vector, facts, broad };
  };
  let pass = await gather(1);
  // A broad filter is applied after ranking: when it leaves too few, rank deeper once.
  if (pass.broad && pass.facts.length < limit) pass = await gather(BROAD_FILTER_DEPTH);
  const { bm25, gramVector, vector, facts } = pass;
  if (facts.length === 0) return [];

  const lexicalScores = new Map(bm25?.hits.map((h) => [h.chunkId, h.score]) ?? []);
  if (bm25 && channels.has("bm25")) {
    const missing = facts.map((f) => f.chunkId).filter((id) => !lexicalScores.has(id));
    for (const [id, score] of await bm25Scores(db, bm25, missing, settings)) {
      lexicalScores.set(id, score);
    }
  }
  const z = {
    bm25:
      channels.has("bm25") && bm25
        ? candidateZ(facts.map((f) => lexicalScores.get(f.chunkId) ?? 0))
        : null,
    sparse:
      channels.has("sparse") && gramVector ? candidateZ(facts.map((f) => f.sparse ?? 0)) : null,
    dense: channels.has("dense") && vector ? candidateZ(facts.map((f) => f.dense ?? 0)) : null,
  };
  const weights: Record<Channel, number> = {
    bm25: 1,
    sparse: settings.sparseWeight,
    dense: settings.denseWeight,
  };
  const active = (Object.keys(z) as Channel[]).filter((c) => z[c] !== null);
  const totalWeight = active.reduce((sum, c) => sum + weights[c], 0) || 1;
  const scored: ScoredChunk[] = facts.map((f) => {
    const parts: Partial<Record<Channel, number>> = {};
    if (z.bm25) parts.bm25 = z.bm25(lexicalScores.get(f.chunkId) ?? 0);
    if (z.sparse) parts.sparse = z.sparse(f.sparse ?? 0);
    if (z.dense) parts.dense = z.dense(f.dense ?? 0);
    let fused = 0;
    for (const c of active) fused += weights[c] * (parts[c] ?? 0);
    return { chunkId: f.chunkId, fused: fused / totalWeight, z: parts };
  });
  scored.sort((a, b) => b.fused - a.fused || a.chunkId - b.chunkId);
  return scored.slice(0, limit);
}

/**
 * z-score over the candidate set. Every channel is normalised over the same candidates, so
 * the weights compare like with like; candidates are a fixed number per mode, never the
 * whole archive, so the cost does not grow with it.
 */
function candidateZ(values: number[]): (score: number) => number {
  const n = Math.max(1, values.length);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
  const sd = Math.sqrt(Math.max(1e-12, variance));
  return (score) => (score - mean) / sd;
}

/**
 * Fused z (a weighted mean of z-scores) to [0, 1]: a logistic with positive slope, so the
 * order is kept, fitted so that the score reads roughly as the chance of relevance.
 */
export function unitScore(fused: number, curve: { a: number; c: number }): number {
  return 1 / (1 + Math.exp(-(curve.a * fused + curve.c)));
}

/** A broad filter's second pass ranks pools this many times deeper. */
const BROAD_FILTER_DEPTH = 4;

/** A search's filters, with what they keep (looked up once per search, for every wording). */
export interface SearchFilter {
  filters: PaperFilters;
  allowed: Promise<{ exact: boolean; chunks: ReadonlySet<number> }>;
}

/**
 * The indexed chunks of the papers `filters` keeps, when they are few (`exact`: BM25 then
 * ranks only them, so a narrow filter loses nothing); otherwise `exact` is false and the
 * candidates are filtered instead (`keptCandidates`).
 */
async function allowedChunks(
  db: Db,
  filters: PaperFilters,
  most: number,
): Promise<{ exact: boolean; chunks: ReadonlySet<number> }> {
  const kept = sql`from search_chunks s
        join papers p on p.id = s.paper_id and p.status = 'published' and p.current_version = s.version
        where ${sql.join(paperFilterSql(filters, sql`p`, sql`pv`), sql` and `)}`;
  const key = `${most} ${filterKey(filters)}`;
  const known = broadFilters.recall(db, key);
  if (known === true) return BROAD_FILTER;
  // The planner's estimate first: a filter it expects to keep many times `most` chunks is
  // broad, and listing its first `most` would cost more than it saves.
  if (known === undefined) {
    const broad = (await estimatedRows(db, sql`select 1 ${kept}`)) > BROAD_ESTIMATE * most;
    broadFilters.remember(db, key, broad);
    if (broad) return BROAD_FILTER;
  }
  const rows = await rowsOf<{ chunk_id: string | number }>(
    db,
    sql`select s.chunk_id::int8 as chunk_id ${kept} limit ${most + 1}`,
  );
  if (rows.length > most) {
    broadFilters.remember(db, key, true);
    return BROAD_FILTER;
  }
  return { exact: true, chunks: new Set(rows.map((r) => Number(r.chunk_id))) };
}

const BROAD_FILTER = { exact: false, chunks: new Set<number>() } as const;

/** A filter the planner expects to keep more than this many times `most` chunks is broad. */
const BROAD_ESTIMATE = 4;

/** The filter as a key: what it keeps, not how it was written (`cs` and its codes alike). */
function filterKey(f: PaperFilters): string {
  return JSON.stringify([
    f.subjects,
    f.since?.getTime() ?? null,
    f.until?.getTime() ?? null,
    f.model,
    f.agent,
  ]);
}

/**
 * What searches learnt of each filter for a minute: broad (applied to the candidates), or
 * narrow by the planner's estimate (its chunks listed). A filter repeats (a subject page, a
 * facet, an agent paging through one subject), and learning it again costs a plan, or a
 * listing of 2,000 chunks that overflows, before BM25's scan can start: about a tenth of a
 * broad filter's search on PostgreSQL (`npm run bench:find`). A narrow filter's chunks are
 * listed on every search, so a paper published a moment ago is found. Bounded per database
 * (the oldest filter dropped first); a filter that changed from broad to narrow within the
 * minute is still applied correctly, to the candidates.
 */
const broadFilters = (() => {
  const TTL_MS = 60_000;
  const MAX = 256;
  const byDb = new WeakMap<Db, Map<string, { broad: boolean; until: number }>>();
  return {
    recall(db: Db, key: string): boolean | undefined {
      const seen = byDb.get(db)?.get(key);
      return seen && seen.until > performance.now() ? seen.broad : undefined;
    },
    remember(db: Db, key: string, broad: boolean): void {
      const kept = byDb.get(db) ?? new Map<string, { broad: boolean; until: number }>();
      byDb.set(db, kept);
      kept.delete(key);
      kept.set(key, { broad, until: performance.now() + TTL_MS });
      if (kept.size > MAX) kept.delete(kept.keys().next().value as string);
    },
  };
})();

/** The planner's estimate of the rows `query` returns (no rows are read). */
async function estimatedRows(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rowsOf<{ "QUERY PLAN": unknown }>(db, sql`explain (format json) ${query}`);
  const raw = row?.["QUERY PLAN"];
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as {
    Plan?: { "Plan Rows"?: number };
  }[];
  return Number(plan?.[0]?.Plan?.["Plan Rows"] ?? 0);
}

interface Fact {
  chunkId: number;
  sparse: number | null;
  dense: number | null;
}

/**
 * Per candidate: character-gram similarity and dense similarity, computed in the database,
 * and only for candidates that are chunks of the current version of a published paper (and,
 * with a broad filter, of a paper the filter keeps).
 */
async function candidateFacts(
  db: Db,
  ids: number[],
  gramVector: string | null,
  dense: { model: string; vector: readonly number[] } | null,
  filters: PaperFilters | null = null,
): Promise<Fact[]> {
  const filtered = filters
    ? sql`and ${sql.join(paperFilterSql(filters, sql`p`, sql`pv`), sql` and `)}`
    : sql``;
  const sparseExpr = gramVector ? sql`-(s.grams <#> ${gramVector}::sparsevec)` : sql`null::float8`;
  let denseExpr = sql`null::float8`;
  let denseJoin = sql``;
  if (dense) {
    const cast = sql.raw(`::vector(${dense.vector.length})`);
    denseExpr = sql`1 - (e.embedding${cast} <=> ${vectorLiteral(dense.vector)}${cast})`;
    denseJoin = sql`left join chunk_embeddings e
      on e.chunk_id = s.chunk_id and e.model = ${dense.model} and e.dims = ${dense.vector.length}`;
  }
  // Reading (detoasting) each candidate's vector is the cost: on a pool the candidates are
  // split across connections and read at once (ADR 0037). Each candidate's paper is looked up
  // by its key (the lateral join): joined plainly, the planner hashed every paper, and a
  // filter was checked on all of them rather than on the candidates' few (`bench:find`).
  const facts = async (part: number[]) =>
    rowsOf<{ chunk_id: string | number; sparse: number | null; dense: number | null }>(
      db,
      sql`select s.chunk_id::int8 as chunk_id, ${sparseExpr} as sparse, ${denseExpr} as dense
          from unnest(${pgArray(part, "int8")}) as c(id)
          join search_chunks s on s.chunk_id = c.id
          cross join lateral (
            select 1 from papers p
            where p.id = s.paper_id and p.status = 'published' and p.current_version = s.version
              ${filtered}
          ) visible
          ${denseJoin}`,
    );
  // In chunk order, whatever the split: the z-scores sum the candidates in this order.
  return (await readInParts(db, ids, facts))
    .map((r) => ({
      chunkId: Number(r.chunk_id),
      sparse: r.sparse === null ? null : Number(r.sparse),
      dense: r.dense === null ? null : Number(r.dense),
    }))
    .sort((a, b) => a.chunkId - b.chunkId);
}

type Shown = Omit<SearchResult, "score" | "highlights" | "match">;

async function displayRows(db: Db, ids: number[]): Promise<Map<number, Shown>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<{
    id: string | number;
    paper_id: string;
    version: number;
    chunk_index: number;
    field: SearchResult["field"];
    content: string;
    title: string;
    language: string;
  }>(
    db,
    sql`select c.id::int8 as id, c.paper_id, c.version, c.chunk_index, c.field, c.content, pv.title,
               pv.language
        from chunks c
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        where c.id = any(${pgArray(ids, "int8")})`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        paper_id: r.paper_id,
        field: r.field,
        quote: r.content,
        chunk_index: Number(r.chunk_index),
        title: r.title,
        language: r.language,
        version: Number(r.version),
      },
    ]),
  );
}
