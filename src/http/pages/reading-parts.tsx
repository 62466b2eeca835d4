/** @module What the reading pages share: the AI label, screening badge, paper cards, scores, numbers. */
import { REVIEW_SCALES } from "../../services/contributions/index.ts";
import type { BrowseItem, PaperListItem, ScoreMeans } from "../../services/papers/index.ts";
import { formatDate } from "./i18n/index.ts";
import type { Page } from "./page.ts";
import { SubjectList } from "./subject-parts.tsx";

/** A count in the page's language (Intl: "1,234" / "1234"). */
export function formatCount(p: Page, n: number): string {
  return new Intl.NumberFormat(p.t.meta.dateLocale).format(n);
}

/** A mean score with two decimals at most ("3.25" / "3,25"). */
function formatMean(p: Page, n: number): string {
  return new Intl.NumberFormat(p.t.meta.dateLocale, { maximumFractionDigits: 2 }).format(n);
}

/**
 * A paper's language as an element's `lang` (WCAG 3.1.2: an English title on a Spanish page is
 * read in English), or none when the screener could not tell.
 */
export function textLang(language: string): string | undefined {
  return language !== "und" ? language : undefined;
}

/** The visible AI label every paper and AI contribution carries. */
export function AiLabel({ p }: { p: Page }) {
  return <span class="ai-label">{p.t.reading.aiLabel}</span>;
}

/** The screening outcome; warnings are worded, not only coloured. */
export function VerificationBadge({
  p,
  status,
}: {
  p: Page;
  status: PaperListItem["verification"]["status"];
}) {
  return (
    <span class={`badge badge-${status === "passed" ? "passed" : "warnings"}`}>
      {p.t.reading.verification[status]}
    </span>
  );
}

/** Link to the home page filtered by a keyword. */
function keywordHref(p: Page, keyword: string): string {
  return `${p.href("/")}?keyword=${encodeURIComponent(keyword)}`;
}

export function KeywordList({ p, keywords }: { p: Page; keywords: string[] }) {
  if (keywords.length === 0) return null;
  return (
    <ul class="keywords">
      {keywords.map((k) => (
        <li>
          <a href={keywordHref(p, k)}>{k}</a>
        </li>
      ))}
    </ul>
  );
}

/** Comment and review counts, spelled out (no bare numbers or icons). */
function Counts({ p, counts }: { p: Page; counts: PaperListItem["counts"] }) {
  const c = p.t.reading.card;
  return (
    <ul class="counts">
      <li>{c.comments(counts.comments, formatCount(p, counts.comments))}</li>
      <li>{c.humanReviews(counts.human_reviews, formatCount(p, counts.human_reviews))}</li>
      <li>{c.aiReviews(counts.ai_reviews, formatCount(p, counts.ai_reviews))}</li>
    </ul>
  );
}

/**
 * A page of a paper listing (home, subject pages): the cards, or `empty` when there are none,
 * then the pager: back to the first page (`first`) when this is a later one, and on to
 * `next` (the next page's URL) when there is one.
 */
export function PaperPages({
  p,
  papers,
  empty,
  first,
  next,
}: {
  p: Page;
  papers: readonly BrowseItem[];
  empty: string;
  /** The first page's URL; null on the first page. */
  first: string | null;
  next: string | null;
}) {
  const r = p.t.reading.home;
  return (
    <>
      {papers.length === 0 ? (
        <p id="empty-list">{empty}</p>
      ) : (
        <ol class="paper-list">
          {papers.map((item) => (
            <PaperCard p={p} item={item} />
          ))}
        </ol>
      )}
      {next || first ? (
        <nav aria-label={r.pages} class="pager">
          <ul class="inline-list">
            {first ? (
              <li>
                <a href={first} rel="first">
                  {r.newest}
                </a>
              </li>
            ) : null}
            {next ? (
              <li>
                <a href={next} rel="next" id="older-link">
                  {r.older}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </>
  );
}

/** One paper in a list: title link, AI label, model, screening, counts, date, keywords. */
export function PaperCard({ p, item }: { p: Page; item: BrowseItem }) {
  const c = p.t.reading.card;
  return (
    <li class="paper-card">
      <article aria-labelledby={`paper-${item.id}`}>
        <h3 id={`paper-${item.id}`}>
          <a href={p.href(`/papers/${item.id}`)} lang={textLang(item.language)}>
            {item.title}
          </a>
        </h3>
        <p class="paper-meta">
          <AiLabel p={p} /> <VerificationBadge p={p} status={item.verification.status} />{" "}
          <span>
            {c.model}: <span class="model">{item.ai_model}</span>
          </span>
          {" · "}
          <span>
            {c.published}:{" "}
            <time datetime={item.published_at}>{formatDate(p.lang, item.published_at)}</time>
          </span>
          {item.counts.versions > 1 ? (
            <span> · {c.versions(item.counts.versions, formatCount(p, item.counts.versions))}</span>
          ) : null}
        </p>
        <Counts p={p} counts={item.counts} />
        {item.subjects.length > 0 ? (
          <div class="card-subjects">
            <span class="visually-hidden">{p.t.subjects.paper.title}: </span>
            <SubjectList p={p} subjects={item.subjects} />
          </div>
        ) : null}
        {item.keywords.length > 0 ? (
          <div class="card-keywords">
            <span class="visually-hidden">{c.keywords}: </span>
            <KeywordList p={p} keywords={item.keywords} />
          </div>
        ) : null}
      </article>
    </li>
  );
}

export const SCORE_KEYS = [
  "soundness",
  "presentation",
  "contribution",
  "confidence",
  "overall",
] as const;
export type ScoreKey = (typeof SCORE_KEYS)[number];

/** The contract's review scales (each score is 1 to its maximum), as the service states them. */
export const SCORE_MAX: Record<ScoreKey, number> = REVIEW_SCALES;

/** A table of means for one kind of review (never both kinds in one table). */
export function MeansTable({
  p,
  id,
  caption,
  mean,
}: {
  p: Page;
  id: string;
  caption: string;
  mean: ScoreMeans;
}) {
  const r = p.t.reading.paper;
  return (
    <table class="means" id={id}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{r.criterion}</th>
          <th scope="col">{r.average}</th>
        </tr>
      </thead>
      <tbody>
        {SCORE_KEYS.map((key) => (
          <tr>
            <th scope="row">{r.scoreNames[key]}</th>
            <td data-score={key}>{r.outOf(formatMean(p, mean[key]), SCORE_MAX[key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One review's scores as a description list. */
export function ScoreList({ p, scores }: { p: Page; scores: Record<ScoreKey, number> }) {
  const r = p.t.reading.paper;
  return (
    <dl class="scores">
      {SCORE_KEYS.map((key) => (
        <div>
          <dt>{r.scoreNames[key]}</dt>
          <dd>{r.outOf(formatCount(p, scores[key]), SCORE_MAX[key])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Contribution text as paragraphs (plain text: blank lines split paragraphs, newlines kept). */
export function PlainText({ text }: { text: string }) {
  const paragraphs = text.split(/\n\s*\n/).filter((s) => s.trim().length > 0);
  return (
    <div class="plain-text">
      {paragraphs.map((para) => (
        <p>{para}</p>
      ))}
    </div>
  );
}

/** A notice named by `?notice=` from the reading catalog (known names only; nothing echoed). */
export function ReadingNotice({ p }: { p: Page }) {
  const name = p.c.req.query("notice");
  if (!name || !Object.hasOwn(p.t.reading.notices, name)) return null;
  return (
    <p class="notice" role="status" id="notice">
      {p.t.reading.notices[name as keyof Page["t"]["reading"]["notices"]]}
    </p>
  );
}
