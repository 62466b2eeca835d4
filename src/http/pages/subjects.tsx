/**
 * @module /subjects (every group and its categories, with counts of visible papers) and
 * /subjects/{code} (a category, an archive or a group: what is new this week, then every paper
 * newest first, paged, and the subject's Atom feed).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  type BrowsePage,
  browsePapers,
  subjectCounts,
  subjectIndex,
} from "../../services/papers/index.ts";
import {
  canonicalSubject,
  isSubjectCode,
  isSubjectFilter,
  SUBJECT_ARCHIVES,
  SUBJECT_GROUPS,
  subjectByCode,
  subjectFilter,
} from "../../services/subjects/index.ts";
import type { AppEnv } from "../env.ts";
import { HOME_PAGE_SIZE } from "./home.tsx";
import { renderPage } from "./layout.tsx";
import { type Page, registerPage, renderError } from "./page.ts";
import { PaperCard, PaperPages } from "./reading-parts.tsx";
import { FacetList, subjectHref, subjectLabel } from "./subject-parts.tsx";

/** "New this week": first published in the last seven days, by the service's clock. */
const NEW_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

type Kind = "group" | "archive" | "category";

/** What a code names: a category first (`hep-th`), then a group (`cs`, `physics`), an archive. */
function kindOf(code: string): Kind {
  if (isSubjectCode(code)) return "category";
  if (SUBJECT_GROUPS.some((g) => g.code === code)) return "group";
  return "archive";
}

/** The broader subjects a code sits in, narrowest last: its group, then its archive. */
function parentsOf(code: string, kind: Kind): string[] {
  if (kind === "group") return [];
  if (kind === "archive") {
    const archive = SUBJECT_ARCHIVES.find((a) => a.code === code);
    return archive && archive.group !== code ? [archive.group] : [];
  }
  const subject = subjectByCode(code);
  if (!subject) return [];
  return [
    subject.group,
    ...(subject.archive !== subject.group && subject.archive !== subject.code
      ? [subject.archive]
      : []),
  ];
}

export function registerSubjectPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/subjects", (p) => indexPage(p));
  registerPage(app, "GET", "/subjects/:code", (p) => subjectPage(p, p.c.req.param("code") ?? ""));
}

async function indexPage(p: Page): Promise<Response> {
  const t = p.t.subjects;
  const { groups } = await subjectIndex(p.ctx);
  return renderPage(p, {
    title: t.index.title,
    body: (
      <div class="subjects-index">
        <h1>{t.index.title}</h1>
        <p class="lead">{t.index.intro}</p>
        <nav aria-label={t.index.groupsNav}>
          <ul class="inline-list">
            {groups.map((g) => (
              <li>
                <a href={`#group-${g.code}`}>{g.name[p.lang]}</a>
              </li>
            ))}
          </ul>
        </nav>
        {groups.map((g) => (
          <section aria-labelledby={`group-${g.code}`} class="subject-group">
            <h2 id={`group-${g.code}`}>
              <a href={subjectHref(p, g.code)}>{subjectLabel(p, g.code)}</a>{" "}
              <span class="muted">({t.papers(g.paper_count, count(p, g.paper_count))})</span>
            </h2>
            <FacetList
              p={p}
              id={`categories-${g.code}`}
              label={t.index.categories(g.name[p.lang])}
              counts={g.subjects.map((s) => ({ code: s.code, count: s.paper_count }))}
              href={(code) => subjectHref(p, code)}
            />
          </section>
        ))}
      </div>
    ),
  });
}

async function subjectPage(p: Page, code: string): Promise<Response> {
  if (!isSubjectFilter(code)) return renderError(p, 404);
  const canonical = canonicalSubject(code);
  if (canonical && canonical !== code) {
    return p.c.redirect(`${subjectHref(p, canonical)}${new URL(p.c.req.url).search}`, 301);
  }
  const t = p.t.subjects;
  const kind = kindOf(code);
  const cursor = p.c.req.query("cursor") || undefined;
  const since = new Date(p.ctx.clock.now().getTime() - NEW_WINDOW_MS).toISOString();
  const [list, recent, counts] = await Promise.all([
    browsePapers(p.ctx, { limit: HOME_PAGE_SIZE, subject: code, ...(cursor ? { cursor } : {}) }),
    cursor ? null : browsePapers(p.ctx, { limit: HOME_PAGE_SIZE, subject: code, since }),
    kind === "category" ? null : subjectCounts(p.ctx, { filters: { subject: code } }),
  ]);
  const title = subjectLabel(p, code);
  const feed = `/feed.atom?subject=${encodeURIComponent(code)}`;
  const parents = parentsOf(code, kind);
  const inside = new Set<string>(kind === "category" ? [] : subjectFilter(code));
  const byCode = new Map(counts?.subjects.map((c) => [c.code, c.count]) ?? []);
  return renderPage(p, {
    title,
    head: <link rel="alternate" type="application/atom+xml" title={t.page.feed} href={feed} />,
    body: (
      <div class="subject-page">
        <p class="muted" id="subject-kind">
          {t.page.kinds[kind]}
        </p>
        <h1>{title}</h1>
        {parents.length > 0 ? (
          <p id="subject-parents">
            {t.page.partOf}:{" "}
            {parents.map((parent, i) => (
              <>
                {i > 0 ? " · " : null}
                <a href={subjectHref(p, parent)}>{subjectLabel(p, parent)}</a>
              </>
            ))}
          </p>
        ) : null}
        <ul class="inline-list">
          <li>
            <a href={feed} type="application/atom+xml" id="subject-feed">
              {t.page.feed}
            </a>
          </li>
          <li>
            <a href={p.href("/subjects")}>{t.page.allSubjects}</a>
          </li>
        </ul>
        {counts ? (
          <section aria-labelledby="subject-categories-title">
            <h2 id="subject-categories-title">{t.page.categories}</h2>
            <FacetList
              p={p}
              id="subject-categories"
              label={t.page.categories}
              counts={[...inside].map((c) => ({ code: c, count: byCode.get(c) ?? 0 }))}
              href={(c) => subjectHref(p, c)}
            />
          </section>
        ) : null}
        {recent ? (
          <section aria-labelledby="new-title" id="new-this-week">
            <h2 id="new-title">{t.page.newThisWeek}</h2>
            {recent.papers.length === 0 ? (
              <p class="muted">{t.page.noneThisWeek}</p>
            ) : (
              <ol class="paper-list">
                {recent.papers.map((item) => (
                  <PaperCard p={p} item={item} />
                ))}
              </ol>
            )}
          </section>
        ) : null}
        <AllPapers p={p} code={code} list={list} paged={cursor !== undefined} />
      </div>
    ),
  });
}

function AllPapers(props: { p: Page; code: string; list: BrowsePage; paged: boolean }) {
  const { p, list, paged } = props;
  const t = p.t.subjects.page;
  const here = subjectHref(p, props.code);
  return (
    <section aria-labelledby="all-title" id="papers">
      <h2 id="all-title">{t.all}</h2>
      <PaperPages
        p={p}
        papers={list.papers}
        empty={paged ? t.noMore : t.empty}
        first={paged ? `${here}#papers` : null}
        next={
          list.next_cursor ? `${here}?cursor=${encodeURIComponent(list.next_cursor)}#papers` : null
        }
      />
    </section>
  );
}

function count(p: Page, n: number): string {
  return new Intl.NumberFormat(p.t.meta.dateLocale).format(n);
}
