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
  })
  .openapi("SearchResult");

export const SearchResponseSchema = z
  .object({ query: z.string(), results: z.array(SearchResultSchema) })
  .openapi("SearchResponse");

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
