/**
 * @module The home page: the newest papers (all, or filtered by keyword, subject, dates and order
 * from the query string, so the URL is the filter), subject facets, search over the papers' text
 * with the subjects of its results and a feed to follow it, paging.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Invalid, RateLimited, Unavailable } from "../../services/errors.ts";
import {
  type BrowsePage,
  browsePapers,
  PAPER_SORTS,
  type PaperSort,
  type SubjectCounts,
  subjectCounts,
} from "../../services/papers/index.ts";
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
import { AiLabel, formatCount, PaperPages, textLang } from "./reading-parts.tsx";
import { snippetParts } from "./snippet.ts";
import { FacetList, subjectHref, subjectLabel } from "./subject-parts.tsx";

/** Papers per page of the list: enough to scan, light enough for slow connections. */
export const HOME_PAGE_SIZE = 20;
/**
 * Pages of search results the site offers ("more results"), each of SEARCH_LIMIT.max
 * passages: 100 passages in all, past which a search is better reworded than paged.
 */
export const SEARCH_PAGES = 5;
/** Characters of a matching passage shown in a result (the full span is on the paper). */
const QUOTE_SHOWN = 320;
/** Categories in the home page's facet list, most listed first (the rest are on /subjects). */
const FACET_CATEGORIES = 15;
/** The list's filters the home page reads from its query string, beside `keyword` and `cursor`. */
const LIST_FILTERS = ["subject", "since", "until", "sort"] as const;
type ListFilter = (typeof LIST_FILTERS)[number];

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
  /** Papers per subject beside the list (its dates applied, not its subject). */
  facets: SubjectCounts | null;
  /** Subjects of the papers of this page of search results. */
  searchFacets: SubjectCounts | null;
}

export function registerHomePage(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/", async (p) => {
    const state = await homeState(p);
    const feed = state.search
      ? `/feed.atom?q=${encodeURIComponent(state.search.query)}`
      : state.list?.filters.subject
        ? `/feed.atom?subject=${encodeURIComponent(state.list.filters.subject)}`
        : null;
    return renderPage(p, {
      title: p.t.home.title,
      status: state.status,
      headers: state.headers,
      ...(feed ? { head: <link rel="alternate" type="application/atom+xml" href={feed} /> } : {}),
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
    facets: null,
    searchFacets: null,
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
        state.searchFacets = await subjectCounts(p.ctx, {
          paperIds: [...new Set(state.search.results.map((result) => result.paper_id))],
        });
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
  const filters = listFilters(p);
  try {
    state.list = await browsePapers(p.ctx, {
      limit: HOME_PAGE_SIZE,
      ...filters,
      sort: filters.sort as PaperSort | undefined,
      ...(keyword !== undefined && keyword.trim() !== "" ? { keyword } : {}),
      ...(cursor !== undefined && cursor !== "" ? { cursor } : {}),
    });
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const named = (...names: string[]) => error.issues.some((i) => names.includes(i.name));
    const f = t.subjects.filters;
    state.status = 400;
    state.message = named("keyword")
      ? r.badKeyword
      : named("subject")
        ? f.badSubject
        : named("since", "until")
          ? f.badDates
          : named("sort")
            ? f.badSort
            : r.badCursor;
    state.list = await browsePapers(p.ctx, { limit: HOME_PAGE_SIZE });
  }
  const applied = state.status === 400 ? {} : filters;
  state.facets = await subjectCounts(p.ctx, {
    filters: {
      ...(applied.since ? { since: applied.since } : {}),
      ...(applied.until ? { until: applied.until } : {}),
    },
  });
  return state;
}

/** The list filters in the query string; an empty one is absent. */
function listFilters(p: Page): Partial<Record<ListFilter, string>> {
  const out: Partial<Record<ListFilter, string>> = {};
  for (const name of LIST_FILTERS) {
    const value = p.c.req.query(name);
    if (value !== undefined && value !== "") out[name] = value;
  }
  return out;
}

/**
 * The query string of the list as shown (keyword and filters that applied, `newest` left out
 * as the default), with `change` over it: every link of the list keeps what is filtered on.
 */
function listHref(
  p: Page,
  list: BrowsePage,
  change: Partial<Record<ListFilter | "keyword" | "cursor", string | null>> = {},
): string {
  const raw = listFilters(p);
  const values: Record<string, string | null | undefined> = {
    keyword: list.keyword,
    subject: list.filters.subject,
    since: list.filters.since ? raw.since : null,
    until: list.filters.until ? raw.until : null,
    sort: list.sort === "newest" ? null : list.sort,
    ...change,
  };
  const query = ["keyword", ...LIST_FILTERS, "cursor"]
    .flatMap((name) => {
      const value = values[name];
      return value ? [`${name}=${encodeURIComponent(value)}`] : [];
    })
    .join("&");
  return query ? `${p.href("/")}?${query}` : p.href("/");
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
      {state.search ? (
        <SearchSubjects p={p} query={state.search.query} counts={state.searchFacets} />
      ) : null}
      {state.list ? <ListFilters p={p} list={state.list} /> : null}
      {state.list && state.facets ? (
        <SubjectFacets p={p} list={state.list} counts={state.facets} />
      ) : null}
      {state.list ? <PaperList p={p} list={state.list} /> : null}
    </>
  );
}

function SearchResults({ p, search }: { p: Page; search: SearchOutcome }) {
  const r = p.t.reading.home;
  // A paper with a close passage is listed once, among the close ones, with its weaker
  // passages marked; the weak section holds the papers that have only weak ones.
  const closePapers = new Set(
    search.results.filter((result) => result.match === "close").map((result) => result.paper_id),
  );
  const close = search.results.filter((result) => closePapers.has(result.paper_id));
  const weak = search.results.filter((result) => !closePapers.has(result.paper_id));
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
            <a
              href={p.href(`/papers/${paperId}`)}
              lang={passages[0] ? textLang(passages[0].language) : undefined}
            >
              {passages[0]?.title}
            </a>
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
                <blockquote class="snippet" lang={textLang(result.language)}>
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

/**
 * The search results' subjects, among the papers of this page of results. The search service
 * has no subject filter yet, so each links to the subject's page rather than to the search
 * narrowed to it. And the search as a feed to follow.
 */
function SearchSubjects(props: { p: Page; query: string; counts: SubjectCounts | null }) {
  const { p, counts } = props;
  const t = p.t.subjects.facets;
  return (
    <section aria-labelledby="search-subjects-title" id="search-subjects">
      {counts && counts.subjects.length > 0 ? (
        <>
          <h2 id="search-subjects-title">{t.searchTitle}</h2>
          <p class="muted">{t.searchNote}</p>
          <FacetList
            p={p}
            id="search-facets"
            label={t.searchTitle}
            counts={counts.subjects}
            href={(code) => subjectHref(p, code)}
          />
        </>
      ) : (
        <h2 id="search-subjects-title" class="visually-hidden">
          {t.searchTitle}
        </h2>
      )}
      <p>
        <a
          href={`/feed.atom?q=${encodeURIComponent(props.query)}`}
          type="application/atom+xml"
          id="follow-search"
        >
          {t.followSearch}
        </a>
      </p>
    </section>
  );
}

/** The list's order and dates as a plain GET form (the subject and keyword carried along). */
function ListFilters({ p, list }: { p: Page; list: BrowsePage }) {
  const t = p.t.subjects.filters;
  const raw = listFilters(p);
  const filtered =
    list.filters.subject !== null ||
    list.filters.since !== null ||
    list.filters.until !== null ||
    list.sort !== "newest";
  return (
    <form method="get" action={p.href("/")} class="list-filters" id="list-filters">
      <fieldset>
        <legend>{t.legend}</legend>
        {list.keyword !== null ? <input type="hidden" name="keyword" value={list.keyword} /> : null}
        {list.filters.subject !== null ? (
          <input type="hidden" name="subject" value={list.filters.subject} />
        ) : null}
        <div class="field">
          <label for="filter-sort">{t.sort}</label>
          <select id="filter-sort" name="sort">
            {PAPER_SORTS.map((sort) => (
              <option value={sort} selected={list.sort === sort}>
                {t.sorts[sort]}
              </option>
            ))}
          </select>
        </div>
        <p class="hint" id="filter-dates-hint">
          {t.dateHint}
        </p>
        <div class="field">
          <label for="filter-since">{t.since}</label>
          <input
            id="filter-since"
            name="since"
            type="date"
            value={list.filters.since ? raw.since : ""}
            aria-describedby="filter-dates-hint"
          />
        </div>
        <div class="field">
          <label for="filter-until">{t.until}</label>
          <input
            id="filter-until"
            name="until"
            type="date"
            value={list.filters.until ? raw.until : ""}
            aria-describedby="filter-dates-hint"
          />
        </div>
        <button type="submit" class="secondary">
          {t.apply}
        </button>
        {filtered ? (
          <a href={p.href("/")} id="clear-filters">
            {t.clear}
          </a>
        ) : null}
      </fieldset>
    </form>
  );
}

/** Papers per group and per most-listed category, each a link that filters the list. */
function SubjectFacets(props: { p: Page; list: BrowsePage; counts: SubjectCounts }) {
  const { p, list, counts } = props;
  const t = p.t.subjects.facets;
  if (counts.groups.length === 0) return null;
  const href = (code: string) => listHref(p, list, { subject: code, keyword: null, cursor: null });
  return (
    <nav aria-labelledby="facets-title" id="subject-facets" class="facet-nav">
      <h2 id="facets-title">{t.title}</h2>
      <h3 id="facet-groups-title">{t.groups}</h3>
      <FacetList
        p={p}
        id="facet-groups"
        label={t.groups}
        counts={counts.groups}
        href={href}
        current={list.filters.subject}
      />
      <h3 id="facet-categories-title">{t.categories}</h3>
      <FacetList
        p={p}
        id="facet-categories"
        label={t.categories}
        counts={counts.subjects.slice(0, FACET_CATEGORIES)}
        href={href}
        current={list.filters.subject}
      />
      <p>
        <a href={p.href("/subjects")}>{t.all}</a>
      </p>
    </nav>
  );
}

function PaperList({ p, list }: { p: Page; list: BrowsePage }) {
  const r = p.t.reading.home;
  const keyword = list.keyword;
  const subject = list.filters.subject;
  const paged = p.c.req.query("cursor") !== undefined && p.c.req.query("cursor") !== "";
  const base = listHref(p, list, { cursor: null });
  const join = base.includes("?") ? "&" : "?";
  const titles = [
    subject !== null ? p.t.subjects.filters.subjectTitle(subjectLabel(p, subject)) : null,
    keyword !== null ? r.keywordTitle(keyword) : null,
  ].filter((x) => x !== null);
  return (
    <section aria-labelledby="list-title" id="papers">
      <h2 id="list-title">{titles.length === 0 ? r.listTitle : titles.join(" · ")}</h2>
      {keyword !== null || subject !== null ? (
        <p>
          <a href={p.href("/")}>{r.allPapers}</a>
          {subject !== null ? (
            <>
              {" · "}
              <a href={subjectHref(p, subject)}>{subjectLabel(p, subject)}</a>
            </>
          ) : null}
        </p>
      ) : null}
      <PaperPages
        p={p}
        papers={list.papers}
        empty={
          paged
            ? r.noMore
            : keyword !== null && titles.length === 1
              ? r.unknownKeyword(keyword)
              : list.filters.subject !== null || list.filters.since || list.filters.until
                ? p.t.subjects.filters.none
                : r.empty
        }
        first={paged ? base : null}
        next={
          list.next_cursor ? `${base}${join}cursor=${encodeURIComponent(list.next_cursor)}` : null
        }
      />
    </section>
  );
}
