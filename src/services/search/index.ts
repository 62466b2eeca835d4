/** @module The search domain's public surface: what the front ends call. */
export { rebuildSearchIndex } from "./indexing.ts";
export { type RelatedHit, type RelatedSource, rankRelated } from "./related.ts";
export {
  SEARCH_LIMIT,
  SEARCH_QUERY_CHARS,
  SearchInputSchema,
  type SearchQueryReason,
  SearchQuerySchema,
  type SearchResponse,
  SearchResponseSchema,
  type SearchResult,
} from "./schemas.ts";
export { searchChunks } from "./search.ts";
export { CROSS_LINGUAL_HOWTO } from "./translate.ts";
export { drainEmbeddingQueue, queueMissingEmbeddings } from "./worker.ts";
