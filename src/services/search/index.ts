/** @module The search domain's public surface: what the front ends call. */
export type { Embedder } from "./embedder.ts";
export { rebuildSearchIndex, reindexPaper, unindexPaper } from "./indexing.ts";
export { rankRelated } from "./related.ts";
export {
  type GroupedSearchResponse,
  GroupedSearchResponseSchema,
  SEARCH_LIMIT,
  SEARCH_QUERY_CHARS,
  SearchInputSchema,
  type SearchQueryReason,
  SearchQuerySchema,
  type SearchResponse,
  SearchResponseSchema,
  type SearchResult,
} from "./schemas.ts";
export {
  type Channel,
  channelsFor,
  ORIGINAL_CONFIGS,
  queryVariants,
  rankChunks,
  runSearch,
  type SearchMode,
  searchChunks,
  searchPapers,
} from "./search.ts";
export type { SearchSettings } from "./settings.ts";
export { CROSS_LINGUAL_HOWTO, type Translator } from "./translate.ts";
export { drainEmbeddingQueue, queueMissingEmbeddings } from "./worker.ts";
