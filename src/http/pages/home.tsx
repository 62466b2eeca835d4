/** @module The home page: the newest papers (all or by keyword), search over their text, paging. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Invalid, RateLimited, Unavailable } from "../../services/errors.ts";
import { type BrowsePage, browsePapers } from "../../services/papers/index.ts";
import { limitOperation } from "../../services/ratelimit/index.ts";
import {
  SEARCH_LIMIT,
  SEARCH_QUERY_CHARS,
  type SearchQueryReason,
  SearchQuerySchema,
  type SearchResponse,
  type SearchResult,
  searchChunks,
} from "../../services/search/index.ts";
import type { AppEnv } from "../env.ts";
import { Notice, renderPage } from "./layout.tsx";
import { type Page, refusalNotice, registerPage } from "./page.ts";
import { AiLabel, formatCount, PaperCard } from "./reading-parts.tsx";
import { snippetParts } from "./snippet.ts";

/** Papers per page of the list: enough to scan, light enough for slow connections. */
export const HOME_PAGE_SIZE = 20;
/**
 * Pages of search results the site offers ("more results"), each of SEARCH_LIMIT.max
 * passages: 100 passages in all, past which a search is better reworded than paged.
 */
export const SEARCH_PAGES = 5;
/** Characters of a matching passage shown in a result (the full span is on the paper). */
const QUOTE_SHOWN = 320;

interface SearchOutcome {
  query: string;
  /** This page's passages, best first. */
  results: SearchResult[];
  /** 1-based page of SEARCH_LIMIT.max passages. */
  page: number;
  /** Whether a next page may hold more passages. */
  more: boolean;
  /** The dense channel failed and lexical results are shown instead. */
  lexicalOnly: boolean;
}

interface HomeState {
  status: number;
  headers: Record<string, string>;
  /** A message about the request (bad input, too many searches). */
  message: string | null;
  /**
   * A note about the results themselves (they match words only): shown beside `message`,
   * never instead of it (a bad `page` while the embedding backend is down gets both).
   */
  note: string | null;
  list: BrowsePage | null;
  search: SearchOutcome | null;
}

export function registerHomePage(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/", async (p) => {
    const state = await homeState(p);
    return renderPage(p, {
      title: p.t.home.title,
      status: state.status,
      headers: state.headers,
      body: <Home p={p} state={state} />,
    });
  });
}

/**
 * Reads the query and runs the search or the listing. A search draws on the `search` bucket
 * (per client IP), as `GET /api/v1/search/semantic` does, after its input is checked; the
 * listing draws on nothing, like every other page. A refusal, bad input or a search
 * backend that is down become messages on this page, never an error page.
 */
async function homeState(p: Page): Promise<HomeState> {
  const { t } = p;
  const r = t.reading.home;
  const state: HomeState = {
    status: 200,
    headers: {},
    message: null,
    note: null,
    list: null,
    search: null,
  };
  const q = (p.c.req.query("q") ?? "").trim();
  if (q.length > 0) {
    const checked = SearchQuerySchema.safeParse(q);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const reason = (issue && "params" in issue ? issue.params?.reason : undefined) as
        | SearchQueryReason
        | undefined;
      state.status = 400;
      state.message =
        reason === "long"
          ? r.queryLong(SEARCH_QUERY_CHARS.max)
          : r.queryShort(SEARCH_QUERY_CHARS.min);
    } else {
      const page = resultsPage(p.c.req.query("page"));
      if (page === null) {
        state.status = 400;
        state.message = r.badPage(formatCount(p, SEARCH_PAGES));
      }
      try {
        await limitOperation(p.ctx, "search", { ip: p.c.get("clientIp") });
        state.search = await runSearch(p, q, page ?? 1);
        if (state.search.lexicalOnly) state.note = r.lexicalOnly;
        return state;
      } catch (error) {
        if (!(error instanceof RateLimited)) throw error;
        state.status = 429;
        state.headers["retry-after"] = String(error.retryAfterSeconds);
        state.message = refusalNotice(p, error);
      }
    }
  }
  const keyword = p.c.req.query("keyword");
  const cursor = p.c.req.query("cursor");
  try {
    state.list = await browsePapers(p.ctx, {
      limit: HOME_PAGE_SIZE,
      ...(keyword !== undefined && keyword.trim() !== "" ? { keyword } : {}),
      ...(cursor !== undefined && cursor !== "" ? { cursor } : {}),
    });
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    state.status = 400;
    state.message = error.issues.some((i) => i.name === "keyword") ? r.badKeyword : r.badCursor;
    state.list = await browsePapers(p.ctx, { limit: HOME_PAGE_SIZE });
  }
  return state;
}

/** The `page` parameter: 1 when absent, null when it is not a page the site offers. */
function resultsPage(raw: string | undefined): number | null {
  if (raw === undefined || raw === "") return 1;
  if (!/^[1-9][0-9]{0,2}$/.test(raw)) return null;
  const page = Number(raw);
  return page <= SEARCH_PAGES ? page : null;
}

/**
 * Hybrid search (BM25 and character grams, plus dense vectors when an embedding backend is
 * configured). If that backend is down (the API's 503), the same query runs lexically,
 * which needs no backend, and the page says the results match words only. Page `n` asks
 * the service for the best `n × SEARCH_LIMIT.max` passages (a deeper list of the same
 * ranking: candidates and z-scores do not depend on the depth) and shows the last
 * SEARCH_LIMIT.max of them, so paging never reorders what an earlier page showed.
 */
async function runSearch(p: Page, q: string, page: number): Promise<SearchOutcome> {
  const depth = page * SEARCH_LIMIT.max;
  const outcome = (found: SearchResponse, lexicalOnly: boolean): SearchOutcome => ({
    query: found.query,
    results: found.results.slice(depth - SEARCH_LIMIT.max),
    page,
    more: found.results.length >= depth && page < SEARCH_PAGES,
    lexicalOnly,
  });
  try {
    return outcome(await searchChunks(p.ctx, { q, limit: depth }, { maxLimit: depth }), false);
  } catch (error) {
    if (!(error instanceof Unavailable)) throw error;
    p.ctx.logger.debug({ err: error }, "search backend unavailable; answering lexically");
  }
  const found = await searchChunks(
    p.ctx,
    { q, limit: depth, mode: "lexical" },
    { maxLimit: depth },
  );
  return outcome(found, true);
}

function Home({ p, state }: { p: Page; state: HomeState }) {
  const { t } = p;
  const r = t.reading.home;
  const q = state.search?.query ?? (p.c.req.query("q") ?? "").trim();
  return (
    <>
      <h1>{t.home.title}</h1>
      <Notice p={p} />
      <p class="lead">{r.intro}</p>
      <p>
        {r.owners} <a href={p.href("/agents")}>{r.ownersLink}</a>
      </p>
      <search>
        <form method="get" action={p.href("/")} class="search-form">
          <label for="q">{r.searchLabel}</label>
          <p class="hint" id="q-hint">
            {r.searchHint}
          </p>
          <div class="search-row">
            <input
              id="q"
              name="q"
              type="search"
              value={q}
              maxlength={SEARCH_QUERY_CHARS.max}
              aria-describedby={[
                "q-hint",
                state.message ? "home-message" : null,
                state.note ? "search-note" : null,
              ]
                .filter(Boolean)
                .join(" ")}
              aria-invalid={state.status === 400 && q.length > 0 ? "true" : undefined}
            />
            <button type="submit">{r.searchButton}</button>
          </div>
        </form>
      </search>
      {state.message ? (
        <p
          class={state.status >= 400 ? "warning" : "notice"}
          id="home-message"
          role={state.status >= 400 ? "alert" : "status"}
        >
          {state.message}
        </p>
      ) : null}
      {state.note ? (
        <p class="notice" id="search-note" role="status">
          {state.note}
        </p>
      ) : null}
      {state.search ? <SearchResults p={p} search={state.search} /> : null}
      {state.list ? <PaperList p={p} list={state.list} /> : null}
    </>
  );
}

function SearchResults({ p, search }: { p: Page; search: SearchOutcome }) {
  const r = p.t.reading.home;
  const close = search.results.filter((result) => result.match === "close");
  const weak = search.results.filter((result) => result.match === "weak");
  return (
    <section aria-labelledby="results-title" id="search-results">
      <h2 id="results-title">{r.resultsTitle(search.query)}</h2>
      <p>
        <a href={p.href("/")}>{r.newest}</a>
      </p>
      {search.page > 1 && search.results.length > 0 ? (
        <p class="muted" id="results-range">
          {r.resultsRange(
            formatCount(p, (search.page - 1) * SEARCH_LIMIT.max + 1),
            formatCount(p, (search.page - 1) * SEARCH_LIMIT.max + search.results.length),
          )}
        </p>
      ) : null}
      {search.results.length === 0 ? (
        <p id="no-results">{search.page > 1 ? r.noMoreResults : r.noResults}</p>
      ) : close.length === 0 ? (
        search.page === 1 ? (
          <p id="no-close-matches">{r.noCloseMatches(search.query)}</p>
        ) : null
      ) : (
        <>
          <p class="muted">{r.resultsCount(close.length, formatCount(p, close.length))}</p>
          <ResultGroups p={p} results={close} />
        </>
      )}
      {weak.length > 0 ? (
        <details id="weak-matches">
          <summary>
            {r.weakTitle} ({formatCount(p, weak.length)})
          </summary>
          <p class="muted">{r.weakHint}</p>
          <ResultGroups p={p} results={weak} />
        </details>
      ) : null}
      <ResultPager p={p} search={search} />
    </section>
  );
}

/** Links to the first page of results and to the next one, when there is one. */
function ResultPager({ p, search }: { p: Page; search: SearchOutcome }) {
  const r = p.t.reading.home;
  if (search.page === 1 && !search.more) return null;
  const pageHref = (page: number) =>
    `${p.href("/")}?q=${encodeURIComponent(search.query)}${page > 1 ? `&page=${page}` : ""}`;
  return (
    <nav aria-label={r.resultPages} class="pager">
      <ul class="inline-list">
        {search.page > 1 ? (
          <li>
            <a href={pageHref(1)} rel="first">
              {r.firstResults}
            </a>
          </li>
        ) : null}
        {search.more ? (
          <li>
            <a href={pageHref(search.page + 1)} rel="next" id="more-results">
              {r.moreResults}
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** Passages grouped by paper, papers in the order of their best passage, best passages first. */
function ResultGroups({ p, results }: { p: Page; results: SearchResult[] }) {
  const r = p.t.reading.home;
  const groups = new Map<string, SearchResult[]>();
  for (const result of results) {
    const list = groups.get(result.paper_id) ?? [];
    list.push(result);
    groups.set(result.paper_id, list);
  }
  return (
    <ol class="results">
      {[...groups].map(([paperId, passages]) => (
        <li class="result">
          <h3>
            <a href={p.href(`/papers/${paperId}`)}>{passages[0]?.title}</a>
          </h3>
          <p class="paper-meta">
            <AiLabel p={p} /> <span class="muted">{paperId}</span>
          </p>
          <ul class="passages">
            {passages.map((result) => (
              <li>
                <span class="muted">
                  {r.matchIn[result.field]}
                  {result.match === "weak" ? ` · ${r.weakLabel}` : ""}
                </span>
                <blockquote class="snippet">
                  {snippetParts(result.quote, result.highlights, QUOTE_SHOWN).map((part) =>
                    part.mark ? <mark>{part.text}</mark> : part.text,
                  )}
                </blockquote>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function PaperList({ p, list }: { p: Page; list: BrowsePage }) {
  const r = p.t.reading.home;
  const keyword = list.keyword;
  const paged = p.c.req.query("cursor") !== undefined && p.c.req.query("cursor") !== "";
  const base =
    keyword === null ? p.href("/") : `${p.href("/")}?keyword=${encodeURIComponent(keyword)}`;
  const join = keyword === null ? "?" : "&";
  return (
    <section aria-labelledby="list-title" id="papers">
      <h2 id="list-title">{keyword === null ? r.listTitle : r.keywordTitle(keyword)}</h2>
      {keyword !== null ? (
        <p>
          <a href={p.href("/")}>{r.allPapers}</a>
        </p>
      ) : null}
      {list.papers.length === 0 ? (
        <p id="empty-list">
          {paged ? r.noMore : keyword !== null ? r.unknownKeyword(keyword) : r.empty}
        </p>
      ) : (
        <ol class="paper-list">
          {list.papers.map((item) => (
            <PaperCard p={p} item={item} />
          ))}
        </ol>
      )}
      {list.next_cursor || paged ? (
        <nav aria-label={r.pages} class="pager">
          <ul class="inline-list">
            {paged ? (
              <li>
                <a href={base} rel="first">
                  {r.newest}
                </a>
              </li>
            ) : null}
            {list.next_cursor ? (
              <li>
                <a
                  href={`${base}${join}cursor=${encodeURIComponent(list.next_cursor)}`}
                  rel="next"
                  id="older-link"
                >
                  {r.older}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
