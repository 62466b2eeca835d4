/**
 * @module The search knobs only evaluations and benchmarks turn, kept out of the product: a
 * forced channel set (each channel measured on its own), search settings per call (a tuning
 * grid) and a deeper list than the API's. Each runs the service's own pipeline with those
 * choices made (`runSearch` and `rankChunks` in src/services/search/search.ts), so what is
 * measured is what the route runs.
 */
import type { ServiceContext } from "../../src/services/context.ts";
import {
  type Channel,
  channelsFor,
  ORIGINAL_CONFIGS,
  queryVariants,
  rankChunks as rankWording,
  runSearch,
  SEARCH_LIMIT,
  type SearchMode,
  SearchQuerySchema,
  type SearchResponse,
  type SearchSettings,
  searchChunks as serviceSearch,
} from "../../src/services/search/index.ts";

export type { Channel, SearchMode };

export interface SearchInternals {
  /** Results beyond SEARCH_LIMIT.max (recall@100). */
  maxLimit?: number;
  /** Rank with these channels instead of the mode's. */
  channels?: Channel[];
  /** Settings over the context's (`ctx.search`) for this call. */
  settings?: Partial<SearchSettings>;
}

function tuned(ctx: ServiceContext, settings: Partial<SearchSettings> | undefined): ServiceContext {
  return settings ? { ...ctx, search: { ...ctx.search, ...settings } } : ctx;
}

/**
 * `searchChunks` with the knobs: without forced channels it is the service's own call; with
 * them, the same pipeline after validation, ranking with those channels.
 */
export async function searchChunks(
  ctx: ServiceContext,
  input: { q: string; limit?: number; mode?: SearchMode },
  internals: SearchInternals = {},
): Promise<SearchResponse> {
  const c = tuned(ctx, internals.settings);
  const { maxLimit, channels } = internals;
  if (!channels) return serviceSearch(c, input, maxLimit === undefined ? {} : { maxLimit });
  const limit = input.limit ?? SEARCH_LIMIT.default;
  if (limit > (maxLimit ?? SEARCH_LIMIT.max)) throw new RangeError(`limit ${limit} is too deep`);
  const query = SearchQuerySchema.parse(input.q);
  return runSearch(c, {
    query,
    limit,
    mode: input.mode ?? "hybrid",
    channels,
    wordings: queryVariants(c, query),
  });
}

/** The fused ranking of the query as typed (no translation), with the knobs. */
export function rankChunks(
  ctx: ServiceContext,
  query: string,
  mode: SearchMode,
  limit: number,
  internals: Omit<SearchInternals, "maxLimit"> = {},
) {
  const c = tuned(ctx, internals.settings);
  return rankWording(c, query, internals.channels ?? channelsFor(c, mode), limit, {
    configs: ORIGINAL_CONFIGS,
  });
}
