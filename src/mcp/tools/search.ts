/** @module search_papers: the semantic search (twin of GET /api/v1/search/semantic). */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describeLimits } from "../../services/ratelimit/index.ts";
import {
  type GroupedSearchResponse,
  GroupedSearchResponseSchema,
  SEARCH_LIMIT,
  SEARCH_QUERY_CHARS,
  SearchInputSchema,
  type SearchResponse,
  SearchResponseSchema,
  searchChunks,
  searchPapers,
} from "../../services/search/index.ts";
import type { McpRequest } from "../request.ts";
import { runTool } from "./run.ts";

export function registerSearchTools(server: McpServer, rc: McpRequest) {
  server.registerTool(
    "search_papers",
    {
      title: "Search papers",
      description:
        "Finds passages in published papers that answer a query (a question or topic in " +
        `plain words, ${SEARCH_QUERY_CHARS.min} to ${SEARCH_QUERY_CHARS.max} characters). Returns up to \`limit\` ` +
        `(${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}, default ${SEARCH_LIMIT.default}) ` +
        "verbatim quotes, best first, each with its paper id, title, language, version, field " +
        "(`caption` for a figure's or table's caption), chunk index, a relevance score in [0, 1] (for ordering within one answer; over a small " +
        "archive every score is low), `highlights` ([start, end] code point ranges of " +
        "the matched words inside the quote) and `match` (`close`, or `weak` when the passage " +
        "shares only some words with the query: treat weak results as no answer). When the " +
        "server has Apertium, English and Spanish queries also find papers in the other " +
        "language; quotes stay in the paper's language. Use it to find papers about something; then " +
        "`get_paper_context` for the full text. `mode`: `hybrid` (default) fuses BM25, " +
        "character n-grams and, when the server has an embedding backend, dense vectors; " +
        "`lexical` is BM25 only; `semantic` is dense vectors only (an error when no " +
        "embedding backend is configured). Narrow it with `subject` (an arXiv code such as " +
        "`cs.CL`, an archive or a group such as `cs`), `since` and `until` (first " +
        "publication, RFC 3339 date or date-time, inclusive). `group: paper` answers one " +
        "entry per paper (`papers`, each with its best passages) instead of `results`. " +
        `${describeLimits("search")}.`,
      inputSchema: SearchInputSchema.shape,
      // Either shape, as REST answers with `group` or without it.
      outputSchema: {
        query: SearchResponseSchema.shape.query,
        results: SearchResponseSchema.shape.results.optional(),
        group: GroupedSearchResponseSchema.shape.group.optional(),
        papers: GroupedSearchResponseSchema.shape.papers.optional(),
      },
      annotations: {
        title: "Search papers",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ group, ...input }) =>
      runTool(
        rc,
        "search",
        { group, ...input },
        async (): Promise<SearchResponse | GroupedSearchResponse> =>
          group === "paper" ? searchPapers(rc.ctx, input) : searchChunks(rc.ctx, input),
        renderSearch,
      ),
  );
}

function renderSearch(response: SearchResponse | GroupedSearchResponse): string {
  if ("papers" in response) {
    if (response.papers.length === 0) return `No papers match "${response.query}".`;
    return response.papers
      .map(
        (p, i) =>
          `${i + 1}. ${p.paper_id} v${p.version} "${p.title}" — score ${p.score.toFixed(3)}, ${p.match} match\n` +
          p.passages.map((r) => `   ${r.field} chunk ${r.chunk_index}: "${r.quote}"`).join("\n"),
      )
      .join("\n");
  }
  if (response.results.length === 0) return `No passages match "${response.query}".`;
  const lines = response.results.map(
    (r, i) =>
      `${i + 1}. ${r.paper_id} v${r.version} "${r.title}" — ${r.field} chunk ${r.chunk_index}, score ${r.score.toFixed(3)}, ${r.match} match\n   "${r.quote}"`,
  );
  if (response.results.every((r) => r.match === "weak")) {
    lines.unshift(
      `No close matches for "${response.query}": these passages share only some words with it.`,
    );
  }
  return lines.join("\n");
}
