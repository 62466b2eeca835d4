/** @module Semantic search shapes (docs/contract/: the specification and DECISIONS.md). */
import { z } from "@hono/zod-openapi";
import { SearchFiltersSchema } from "../filters/index.ts";
import { text } from "../text.ts";

export const SEARCH_LIMIT = { min: 1, max: 20, default: 8 } as const;
export const SEARCH_QUERY_CHARS = { min: 2, max: 1000 } as const;
const SEARCH_MODES = ["hybrid", "lexical", "semantic"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

const codePoints = (s: string) => [...s].length;

/** Why a query was refused, on its zod issue (`params.reason`), for a page's own wording. */
export type SearchQueryReason = "short" | "long";

/**
 * `q`, the one search query rule of every front end: line text (no control characters),
 * trimmed, then 2 to 1000 characters (Unicode code points, as JSON Schema's
 * `minLength`/`maxLength` count them).
 */
export const SearchQuerySchema = text("line")
  .trim()
  .refine((s) => codePoints(s) >= SEARCH_QUERY_CHARS.min, {
    message: `must be at least ${SEARCH_QUERY_CHARS.min} characters after trimming`,
    params: { reason: "short" satisfies SearchQueryReason },
    abort: true,
  })
  .refine((s) => codePoints(s) <= SEARCH_QUERY_CHARS.max, {
    message: `must be at most ${SEARCH_QUERY_CHARS.max} characters`,
    params: { reason: "long" satisfies SearchQueryReason },
  })
  // The refinements count code points, which zod cannot show; say the bounds for both
  // documents (OpenAPI and the MCP tool list).
  .meta({
    description: `Query, ${SEARCH_QUERY_CHARS.min} to ${SEARCH_QUERY_CHARS.max} characters.`,
    minLength: SEARCH_QUERY_CHARS.min,
    maxLength: SEARCH_QUERY_CHARS.max,
  });

/** `limit`: results, 1 to 20 (default 8); coerced, so a query string's `"5"` reads as 5. */
export const SearchLimitSchema = z.coerce
  .number()
  .int()
  .min(SEARCH_LIMIT.min)
  .max(SEARCH_LIMIT.max)
  .default(SEARCH_LIMIT.default)
  .openapi({ example: SEARCH_LIMIT.default })
  .describe(
    `Results, ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max} (default ${SEARCH_LIMIT.default}).`,
  );

/** `mode`: the ranking channels. */
export const SearchModeSchema = z
  .enum(SEARCH_MODES)
  .default("hybrid")
  .describe(
    "Ranking channels. `hybrid` (default): BM25 fused with the built-in character " +
      "n-gram channel (a lexical model, not a neural one) and, when the server has an " +
      "embedding backend, dense vectors. `lexical`: BM25 only. `semantic`: dense vectors " +
      "only; refused when no embedding backend is configured.",
  );

/** Passages shown per paper when results are grouped by paper. */
export const PASSAGES_PER_PAPER = 3;

/** `group`: `paper` gives one entry per paper with its best passages. */
const SearchGroupSchema = z
  .enum(["paper"])
  .optional()
  .describe(
    `\`paper\`: one entry per paper (at most \`limit\` papers, best first), each with its best passages (up to ${PASSAGES_PER_PAPER}); absent: passages, one per result.`,
  );

/** The input of `searchChunks`, which REST, MCP and the home page all derive from. */
export const SearchInputSchema = z.object({
  q: SearchQuerySchema,
  limit: SearchLimitSchema,
  mode: SearchModeSchema,
  ...SearchFiltersSchema.shape,
  group: SearchGroupSchema,
});

/** The language of a result's paper version, for a client to mark its title and quote. */
const LanguageSchema = z.string().openapi({
  description:
    "The paper version's language as the screener detected it: ISO 639-1, or `und`. The title and `quote` are in it (a page marks them with `lang`).",
  example: "en",
});

const SearchResultSchema = z
  .object({
    paper_id: z.string(),
    field: z.enum(["title", "abstract", "body", "caption"]).openapi({
      description:
        "The part of the paper the passage comes from; `caption` is a figure's or a table's caption (a span of the body, which search finds as itself rather than inside its paragraph).",
    }),
    quote: z.string().openapi({ description: "A chunk's content, verbatim." }),
    score: z.number().min(0).max(1).openapi({
      description:
        "Relevance in [0, 1], descending within a response: a logistic of how far the passage stands above this query's other candidates, fitted on SciFact (5,183 abstracts) so that over an archive of that size it reads roughly as the chance that the passage is relevant. Over a small archive every score is low, so compare scores within one response only; whether a passage answers the query at all is `match`.",
    }),
    chunk_index: z.number().int(),
    title: z.string(),
    language: LanguageSchema,
    version: z.number().int(),
    highlights: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])).openapi({
      description:
        "Where the query's words (or their translation, with cross-lingual search) occur in `quote`: `[start, end]` ranges of Unicode code points, end exclusive, ascending and disjoint. Matching is by stem, so `curvas` is marked for `curva`.",
      example: [
        [4, 10],
        [25, 31],
      ],
    }),
    match: z.enum(["close", "weak"]).openapi({
      description:
        "`close` when the passage contains most of the query (IDF-weighted: its rarest words count most, in some language the query was searched in); `weak` when it shares only some words with it and is probably not about the query. Semantic mode, which matches meaning rather than words, marks every result `close`.",
    }),
  })
  .openapi("SearchResult");

export const SearchResponseSchema = z
  .object({ query: z.string(), results: z.array(SearchResultSchema) })
  .openapi("SearchResponse");

const SearchPaperSchema = z
  .object({
    paper_id: z.string(),
    title: z.string(),
    language: LanguageSchema,
    version: z.number().int(),
    score: z.number().min(0).max(1).openapi({ description: "Its best passage's score." }),
    match: z.enum(["close", "weak"]).openapi({ description: "Its best passage's match." }),
    passages: z.array(SearchResultSchema).openapi({
      description: `Its best passages, best first (up to ${PASSAGES_PER_PAPER}).`,
    }),
  })
  .openapi("SearchPaper");

export const GroupedSearchResponseSchema = z
  .object({
    query: z.string(),
    group: z.literal("paper"),
    papers: z.array(SearchPaperSchema),
  })
  .openapi("GroupedSearchResponse");

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchPaper = z.infer<typeof SearchPaperSchema>;
export type GroupedSearchResponse = z.infer<typeof GroupedSearchResponseSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
