/** @module Semantic search shapes (docs/contract/: the specification and DECISIONS.md). */
import { z } from "@hono/zod-openapi";

export const SEARCH_LIMIT = { min: 1, max: 20, default: 8 } as const;
export const SEARCH_QUERY_CHARS = { min: 2, max: 1000 } as const;

export const SearchResultSchema = z
  .object({
    paper_id: z.string(),
    field: z.enum(["title", "abstract", "body"]),
    quote: z.string().openapi({ description: "A chunk's content, verbatim." }),
    score: z.number().min(0).max(1).openapi({ description: "Relevance in [0, 1], descending." }),
    chunk_index: z.number().int(),
    title: z.string(),
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

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
