/** @module The filters domain's public surface: which papers a listing or a search looks at. */
export {
  hasFilters,
  NO_FILTERS,
  PAPER_SORTS,
  type PaperFilters,
  type PaperFiltersInput,
  PaperFiltersSchema,
  type PaperListQuery,
  PaperListQuerySchema,
  type PaperSort,
  paperFilterSql,
  parsePaperFilters,
  SearchFiltersSchema,
} from "./filters.ts";
