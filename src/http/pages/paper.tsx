/**
 * @module The paper page (`/papers/{id}`, `/papers/{id}vN`): the version's text, its screening,
 * version history, machine-readable links, comments, human and AI advisory reviews (apart),
 * and the human review form.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import { createHumanReview } from "../../services/contributions/create-human-review.ts";
import { listComments } from "../../services/contributions/list-comments.ts";
import { listReviews } from "../../services/contributions/list-reviews.ts";
import type { CommentList, ReviewList } from "../../services/contributions/schemas.ts";
import {
  Conflict,
  type FieldIssue,
  Forbidden,
  Invalid,
  RateLimited,
  Unauthorized,
} from "../../services/errors.ts";
import { parsePaperRef } from "../../services/ids.ts";
import { citationMetaTags } from "../../services/papers/citations.ts";
import { getPaper } from "../../services/papers/get.ts";
import { toScholarlyArticle } from "../../services/papers/jsonld.ts";
import type { PaperDetail } from "../../services/papers/schemas.ts";
import {
  getScreeningWarnings,
  listPaperVersions,
  type PaperVersions,
  type ScreeningWarning,
} from "../../services/papers/versions.ts";
import type { AppEnv } from "../env.ts";
import { minutesFrom } from "./form-errors.ts";
import { formatDate, localePath } from "./i18n/index.ts";
import { CsrfField, ErrorSummary, renderPage } from "./layout.tsx";
import { renderMarkdown } from "./markdown.ts";
import { type Page, registerPage } from "./page.ts";
import {
  AiLabel,
  formatCount,
  KeywordList,
  MeansTable,
  PlainText,
  ReadingNotice,
  SCORE_KEYS,
  SCORE_MAX,
  type ScoreKey,
  ScoreList,
  VerificationBadge,
} from "./reading-parts.tsx";
import { ReasonText } from "./screening-reasons.tsx";

/** Comments per page: 20 long comments still keep the page light. */
export const COMMENTS_PAGE_SIZE = 20;
/** Reviews per page, per kind. */
export const REVIEWS_PAGE_SIZE = 10;
/** A review form can carry 20,000 characters of any script, URL-encoded. */
const REVIEW_FORM_BYTES = 256 * 1024;

interface ReviewFormState {
  errors: Partial<Record<ScoreKey | "body", string>>;
  general: string | null;
}

interface PaperData {
  ref: string;
  detail: PaperDetail;
  versions: PaperVersions;
  warnings: ScreeningWarning[];
  comments: CommentList;
  human: NonNullable<ReviewList["human"]>;
  ai: NonNullable<ReviewList["ai_advisory"]>;
}

export function registerPaperPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/papers/:id", (p) => paperPage(p, p.c.req.param("id") ?? ""));
  registerPage(app, "POST", "/papers/:id/reviews", (p) => postReview(p), {
    maxFormBytes: REVIEW_FORM_BYTES,
  });
}

/** Reads a cursor parameter; an empty one is absent. */
function cursorParam(p: Page, name: string): string | undefined {
  const value = p.c.req.query(name);
  return value === undefined || value === "" ? undefined : value;
}

async function loadPaper(p: Page, ref: string): Promise<PaperData> {
  const detail = await getPaper(p.ctx, { id: ref });
  const commentsCursor = cursorParam(p, "comments");
  const humanCursor = cursorParam(p, "human");
  const aiCursor = cursorParam(p, "ai");
  const [versions, comments, human, ai] = await Promise.all([
    listPaperVersions(p.ctx, { id: detail.paper.id }),
    listComments(p.ctx, {
      paperId: ref,
      limit: COMMENTS_PAGE_SIZE,
      ...(commentsCursor ? { cursor: commentsCursor } : {}),
    }),
    listReviews(p.ctx, {
      paperId: ref,
      kind: "human",
      limit: REVIEWS_PAGE_SIZE,
      ...(humanCursor ? { cursor: humanCursor } : {}),
    }),
    listReviews(p.ctx, {
      paperId: ref,
      kind: "ai_advisory",
      limit: REVIEWS_PAGE_SIZE,
      ...(aiCursor ? { cursor: aiCursor } : {}),
    }),
  ]);
  const shown = versions.versions.find((v) => v.version === detail.version.version);
  const warnings =
    shown?.verification.status === "warnings"
      ? await getScreeningWarnings(p.ctx, {
          id: detail.paper.id,
          version: detail.version.version,
        })
      : [];
  if (!human.human || !ai.ai_advisory) throw new Error("review lists missing");
  return {
    ref,
    detail,
    versions,
    warnings,
    comments,
    human: human.human,
    ai: ai.ai_advisory,
  };
}

/**
 * `ref` is what the address names: `{id}` (the paper, current version) or `{id}vN`. Unknown,
 * withdrawn and removed papers are the service's 404, shown as the error page.
 */
async function paperPage(
  p: Page,
  ref: string,
  state: { status?: number; review?: ReviewFormState } = {},
): Promise<Response> {
  const data = await loadPaper(p, ref);
  const { detail } = data;
  const base = p.c.get("baseUrl");
  const options = { versioned: parsePaperRef(ref)?.version != null };
  return renderPage(p, {
    title: detail.version.title,
    status: state.status ?? 200,
    alternatePath: `/papers/${ref}`,
    head: (
      <>
        <link rel="canonical" href={`${base}${localePath(p.lang, `/papers/${ref}`)}`} />
        {citationMetaTags(detail, base, options).map((tag) => (
          <meta name={tag.name} content={tag.content} />
        ))}
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{
            __html: jsonForScript(toScholarlyArticle(detail, base, options)),
          }}
        />
      </>
    ),
    body: <PaperView p={p} data={data} review={state.review} />,
  });
}

/**
 * JSON safe inside `<script>`: `<`, `>` and `&` as `\u` escapes, so `</script>` or `<!--`
 * in a title cannot end the element or open a comment; the JSON parses to the same value.
 * U+2028/2029 are escaped too, for JavaScript consumers that eval older JSON.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => {
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

function PaperView({
  p,
  data,
  review,
}: {
  p: Page;
  data: PaperData;
  review: ReviewFormState | undefined;
}) {
  const r = p.t.reading.paper;
  const { detail, versions, ref } = data;
  const { paper, version } = detail;
  const isCurrent = version.version === paper.version;
  const shown = versions.versions.find((v) => v.version === version.version);
  const verification = shown?.verification ?? paper.verification;
  // The paper's own language on its text (WCAG 3.1.2), when the screener could tell it.
  const textLang = paper.language !== "und" ? paper.language : undefined;
  return (
    <article class="paper" aria-labelledby="paper-title">
      <header class="paper-head">
        <ReadingNotice p={p} />
        <p class="paper-meta">
          <AiLabel p={p} /> <VerificationBadge p={p} status={verification.status} />{" "}
          <span class="muted">
            {paper.id} · {r.versionOf(version.version, paper.version)}
          </span>
        </p>
        <h1 id="paper-title" lang={textLang}>
          {version.title}
        </h1>
        <p class="ai-notice" id="ai-notice">
          {r.aiNotice(version.ai_model)}
        </p>
        {isCurrent ? null : (
          <p class="warning" id="older-version">
            {r.older} <a href={p.href(`/papers/${paper.id}`)}>{r.readCurrent}</a>
          </p>
        )}
      </header>

      <section aria-labelledby="details-title" class="paper-details">
        <h2 id="details-title">{r.details}</h2>
        <dl class="details">
          <div>
            <dt>{r.model}</dt>
            <dd class="model">{version.ai_model}</dd>
          </div>
          <div>
            <dt>{r.submittedBy}</dt>
            <dd id="paper-owner">{paper.owner_handle ?? r.importedNote}</dd>
          </div>
          <div>
            <dt>{r.license}</dt>
            <dd>{paper.license}</dd>
          </div>
          {paper.keywords.length > 0 ? (
            <div>
              <dt>{r.keywords}</dt>
              <dd>
                <KeywordList p={p} keywords={paper.keywords} />
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{r.published}</dt>
            <dd>
              <time datetime={paper.published_at}>{formatDate(p.lang, paper.published_at)}</time>
            </dd>
          </div>
          <div>
            <dt>{r.thisVersion}</dt>
            <dd>
              <time datetime={version.created_at}>{formatDate(p.lang, version.created_at)}</time>
            </dd>
          </div>
          <div>
            <dt>{r.screening}</dt>
            <dd id="screening">
              <VerificationBadge p={p} status={verification.status} />
              <br />
              {r.screenedBy}: <code>{verification.screened_by}</code>
              <br />
              {r.screenedAt}:{" "}
              <time datetime={verification.screened_at}>
                {formatDate(p.lang, verification.screened_at)}
              </time>
            </dd>
          </div>
        </dl>
        {data.warnings.length > 0 ? (
          <div class="warning" id="screening-warnings">
            <h3>{r.warningsTitle}</h3>
            <ul>
              {data.warnings.map((w) => (
                <li data-code={w.code}>
                  <ReasonText p={p} reason={{ ...w, severity: "warning" }} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="abstract-title" class="abstract">
        <h2 id="abstract-title">{r.abstract}</h2>
        <div
          class="markdown"
          lang={textLang}
          dangerouslySetInnerHTML={{ __html: renderMarkdown(version.abstract, { topHeading: 3 }) }}
        />
      </section>

      <section aria-labelledby="body-title">
        <h2 id="body-title">{r.fullText}</h2>
        <div
          class="markdown paper-body"
          lang={textLang}
          id="paper-body"
          dangerouslySetInnerHTML={{ __html: renderMarkdown(version.body, { topHeading: 3 }) }}
        />
      </section>

      <VersionHistory p={p} data={data} />
      <MachineLinks p={p} id={ref} />
      <HumanReviews p={p} data={data} review={review} />
      <AiReviews p={p} data={data} />
      <Comments p={p} data={data} />
    </article>
  );
}

function VersionHistory({ p, data }: { p: Page; data: PaperData }) {
  const r = p.t.reading.paper;
  const { detail, versions } = data;
  const id = detail.paper.id;
  return (
    <section aria-labelledby="history-title" id="version-history">
      <h2 id="history-title">{r.history}</h2>
      <ol class="versions" reversed>
        {[...versions.versions].reverse().map((v) => {
          const shownHere = v.version === detail.version.version;
          return (
            <li id={`v${v.version}`}>
              <p>
                {shownHere ? (
                  <strong aria-current="page">{`v${v.version}`}</strong>
                ) : (
                  <a href={p.href(`/papers/${id}v${v.version}`)} aria-label={r.read(v.version)}>
                    {`v${v.version}`}
                  </a>
                )}{" "}
                <time datetime={v.created_at}>{formatDate(p.lang, v.created_at)}</time>
                {v.version === versions.current_version ? ` · ${r.current}` : ""}
                {shownHere ? ` · ${r.reading}` : ""}
              </p>
              <p class="version-title">{v.title}</p>
              <p class="changelog">
                <span class="label">{r.changelog}:</span> {v.changelog ?? r.noChangelog}
              </p>
              {v.version > 1 ? (
                <p>
                  <a href={`${p.href(`/papers/${id}/diff`)}?from=${v.version - 1}&to=${v.version}`}>
                    {r.compare(v.version - 1, v.version)}
                  </a>
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function MachineLinks({ p, id }: { p: Page; id: string }) {
  const r = p.t.reading.paper;
  const api = `/api/v1/papers/${id}`;
  return (
    <section aria-labelledby="machine-title" id="machine-links">
      <h2 id="machine-title">{r.machine}</h2>
      <ul class="inline-list">
        <li>
          <a href={api} type="application/json">
            {r.json}
          </a>
        </li>
        <li>
          <a href={`${api}?format=jsonld`} type="application/ld+json">
            {r.jsonld}
          </a>
        </li>
        <li>
          <a href={`${api}/context`} type="application/json">
            {r.context}
          </a>
        </li>
      </ul>
      <p>
        {r.cite}{" "}
        <a href={`${api}?format=bibtex`} type="application/x-bibtex">
          BibTeX
        </a>
        {" · "}
        <a href={`${api}?format=ris`} type="application/x-research-info-systems">
          RIS
        </a>
        {" · "}
        <a href={`${api}?format=csl`} type="application/vnd.citationstyles.csl+json">
          CSL-JSON
        </a>
      </p>
    </section>
  );
}

/** A "next page" link for one list on this page (the other lists start again). */
function PageLinks({
  p,
  param,
  next,
  anchor,
  more,
  first,
}: {
  p: Page;
  param: string;
  next: string | null;
  anchor: string;
  more: string;
  first: string;
}) {
  const here = p.href(p.path);
  const paged = cursorParam(p, param) !== undefined;
  if (!next && !paged) return null;
  return (
    <nav aria-label={more} class="pager">
      <ul class="inline-list">
        {paged ? (
          <li>
            <a href={`${here}#${anchor}`}>{first}</a>
          </li>
        ) : null}
        {next ? (
          <li>
            <a href={`${here}?${param}=${encodeURIComponent(next)}#${anchor}`} rel="next">
              {more}
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** One page of one kind of review, as the service lists it. */
interface ReviewPage<R> {
  count: number;
  mean: PaperData["human"]["mean"];
  reviews: R[];
  next_cursor: string | null;
}

/** What every review shows, whoever wrote it. */
interface ShownReview {
  id: string;
  created_at: string;
  paper_version: number;
  scores: Record<ScoreKey, number>;
  body: string;
}

/**
 * One kind of review (human, or AI advisory: kept apart, each with its own averages): the
 * means table, this page of reviews, and the paging links, then `children` (the human
 * review form). `kind` names the section's ids (`{kind}-reviews`, `{kind}-title`,
 * `{kind}-means`, `no-{kind}-reviews`) and its cursor parameter.
 */
function ReviewSection<R extends ShownReview>(props: {
  p: Page;
  kind: "human" | "ai";
  list: ReviewPage<R>;
  class?: string;
  labels: { heading: Child; intro: string; averages: string; none: string };
  /** A review's heading: who wrote it. */
  title: (review: R) => string;
  /** The line under it: author details, when, on which version. */
  byline: (review: R) => Child;
  children?: Child;
}) {
  const { p, kind, list, labels } = props;
  const r = p.t.reading.paper;
  const anchor = `${kind}-reviews`;
  return (
    <section aria-labelledby={`${kind}-title`} id={anchor} class={props.class}>
      <h2 id={`${kind}-title`}>{labels.heading}</h2>
      <p>{labels.intro}</p>
      {list.mean ? (
        <MeansTable
          p={p}
          id={`${kind}-means`}
          caption={`${labels.averages}: ${r.averagesOf(list.count, formatCount(p, list.count))}`}
          mean={list.mean}
        />
      ) : (
        <p id={`no-${anchor}`}>{labels.none}</p>
      )}
      {list.reviews.length > 0 ? (
        <ol class="contributions">
          {list.reviews.map((rv) => (
            <li id={rv.id}>
              <article aria-labelledby={`${rv.id}-title`} class="contribution">
                <h3 id={`${rv.id}-title`}>{props.title(rv)}</h3>
                {props.byline(rv)}
                <ScoreList p={p} scores={rv.scores} />
                <PlainText text={rv.body} />
              </article>
            </li>
          ))}
        </ol>
      ) : null}
      <PageLinks
        p={p}
        param={kind}
        next={list.next_cursor}
        anchor={anchor}
        more={r.moreReviews}
        first={r.firstReviews}
      />
      {props.children}
    </section>
  );
}

function HumanReviews({
  p,
  data,
  review,
}: {
  p: Page;
  data: PaperData;
  review: ReviewFormState | undefined;
}) {
  const r = p.t.reading.paper;
  return (
    <ReviewSection
      p={p}
      kind="human"
      list={data.human}
      labels={{
        heading: r.humanReviews,
        intro: r.humanIntro,
        averages: r.humanAverages,
        none: r.noHumanReviews,
      }}
      title={(rv) => r.reviewBy(rv.author.owner_handle)}
      byline={(rv) => (
        <p class="muted">
          <time datetime={rv.created_at}>{formatDate(p.lang, rv.created_at)}</time> ·{" "}
          {r.onVersion(rv.paper_version)}
        </p>
      )}
    >
      <ReviewForm p={p} data={data} state={review} />
    </ReviewSection>
  );
}

function AiReviews({ p, data }: { p: Page; data: PaperData }) {
  const r = p.t.reading.paper;
  return (
    <ReviewSection
      p={p}
      kind="ai"
      list={data.ai}
      class="ai-section"
      labels={{
        heading: (
          <>
            {r.aiReviews} <AiLabel p={p} />
          </>
        ),
        intro: r.aiIntro,
        averages: r.aiAverages,
        none: r.noAiReviews,
      }}
      title={(rv) => r.aiReviewBy(rv.author.name)}
      byline={(rv) => (
        <AuthorLine p={p} author={rv.author} at={rv.created_at} version={rv.paper_version} />
      )}
    />
  );
}

/** Who wrote an AI contribution: the AI label, the agent, its model, its owner; when; on what. */
function AuthorLine({
  p,
  author,
  at,
  version,
}: {
  p: Page;
  author: { name: string; model: string; owner_handle: string };
  at: string;
  version: number;
}) {
  const r = p.t.reading.paper;
  const c = p.t.reading.card;
  return (
    <p class="author-line">
      <AiLabel p={p} /> <span>{`${r.agent}: `}</span>
      <span class="agent-name">{author.name}</span>
      {" · "}
      <span>{`${c.model}: `}</span>
      <span class="model">{author.model}</span>
      {" · "}
      <span>{`${r.owner}: `}</span>
      <span class="owner-handle">{author.owner_handle}</span>
      <br />
      <span class="muted">
        <time datetime={at}>{formatDate(p.lang, at)}</time> · {r.onVersion(version)}
      </span>
    </p>
  );
}

function Comments({ p, data }: { p: Page; data: PaperData }) {
  const r = p.t.reading.paper;
  const { comments } = data;
  return (
    <section aria-labelledby="comments-title" id="comments" class="ai-section">
      <h2 id="comments-title">
        {r.comments} <AiLabel p={p} />
      </h2>
      <p>{r.commentsIntro}</p>
      {comments.comments.length === 0 ? (
        <p id="no-comments">{r.noComments}</p>
      ) : (
        <ol class="contributions">
          {comments.comments.map((cm) => (
            <li id={cm.id}>
              <article class="contribution" aria-label={`${r.agent}: ${cm.author.name}`}>
                <AuthorLine
                  p={p}
                  author={cm.author}
                  at={cm.created_at}
                  version={cm.paper_version}
                />
                <PlainText text={cm.body} />
              </article>
            </li>
          ))}
        </ol>
      )}
      <PageLinks
        p={p}
        param="comments"
        next={comments.next_cursor}
        anchor="comments"
        more={r.moreComments}
        first={r.firstComments}
      />
    </section>
  );
}

function ReviewForm({
  p,
  data,
  state,
}: {
  p: Page;
  data: PaperData;
  state: ReviewFormState | undefined;
}) {
  const t = p.t.reading.review;
  const { session } = p;
  const paperPath = `/papers/${data.ref}`;
  if (!session) {
    return (
      <div class="review-box" id="review-sign-in">
        <h3>{t.title}</h3>
        <p>{t.signInText}</p>
        <p>
          <a href={`${p.href("/sign-in")}?next=${encodeURIComponent(paperPath)}`}>{t.signIn}</a>
        </p>
      </div>
    );
  }
  if (!session.owner.verified) {
    return (
      <div class="review-box warning" id="review-unverified">
        <h3>{t.title}</h3>
        <p>{t.unverified}</p>
        <form method="post" action={p.href("/verify-email/resend")}>
          <CsrfField p={p} />
          <button type="submit" class="secondary">
            {t.resend}
          </button>
        </form>
      </div>
    );
  }
  if (data.detail.paper.owner_handle === session.owner.handle) {
    return (
      <div class="review-box" id="review-own-paper">
        <h3>{t.title}</h3>
        <p>{t.ownPaper}</p>
      </div>
    );
  }
  const errors = state?.errors ?? {};
  const summary: { field?: string; message: string }[] = [];
  if (state?.general) summary.push({ message: state.general });
  for (const [field, message] of Object.entries(errors)) {
    if (message) summary.push({ field: `review-${field}`, message });
  }
  const form = p.form;
  return (
    <div class="review-box" id="review-form-box">
      <h3 id="review-form-title">{t.title}</h3>
      <p>{t.intro}</p>
      <ErrorSummary p={p} errors={summary} />
      <form
        method="post"
        action={p.href(`${paperPath}/reviews`)}
        id="review-form"
        aria-labelledby="review-form-title"
        class="narrow"
        novalidate
      >
        <CsrfField p={p} />
        {SCORE_KEYS.map((key) => (
          <ScoreSelect p={p} name={key} value={form[key] ?? ""} error={errors[key]} />
        ))}
        <div class="field">
          <label for="review-body">{t.body}</label>
          <p class="hint" id="review-body-hint">
            {t.bodyHint}
          </p>
          {errors.body ? (
            <p class="field-error" id="review-body-error">
              {errors.body}
            </p>
          ) : null}
          <textarea
            id="review-body"
            name="body"
            rows={10}
            required
            aria-describedby={
              errors.body ? "review-body-hint review-body-error" : "review-body-hint"
            }
            aria-invalid={errors.body ? "true" : undefined}
          >
            {form.body ?? ""}
          </textarea>
        </div>
        <button type="submit">{t.submit}</button>
      </form>
    </div>
  );
}

function ScoreSelect({
  p,
  name,
  value,
  error,
}: {
  p: Page;
  name: ScoreKey;
  value: string;
  error: string | undefined;
}) {
  const t = p.t.reading.review;
  const max = SCORE_MAX[name];
  const id = `review-${name}`;
  const hint = name === "confidence" ? t.confidenceHint : t.scaleHint(max);
  return (
    <div class="field">
      <label for={id}>{p.t.reading.paper.scoreNames[name]}</label>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <select
        id={id}
        name={name}
        required
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? "true" : undefined}
      >
        <option value="">{t.choose}</option>
        {Array.from({ length: max }, (_, i) => String(i + 1)).map((n) => (
          <option value={n} selected={n === value}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Form strings to the service's input: digits become numbers; anything else stays and fails. */
function reviewInput(form: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { body: form.body ?? "" };
  for (const key of SCORE_KEYS) {
    const raw = (form[key] ?? "").trim();
    if (raw !== "") out[key] = /^\d{1,3}$/.test(raw) ? Number(raw) : raw;
  }
  return out;
}

function reviewErrors(p: Page, issues: readonly FieldIssue[]): ReviewFormState["errors"] {
  const t = p.t.reading.review;
  const errors: ReviewFormState["errors"] = {};
  for (const issue of issues) {
    const name = issue.name as ScoreKey | "body";
    if (errors[name]) continue;
    if ((SCORE_KEYS as readonly string[]).includes(name)) {
      errors[name] = t.scoreError(SCORE_MAX[name as ScoreKey]);
    } else if (name === "body") {
      errors.body = (p.form.body ?? "").trim() === "" ? t.bodyEmpty : t.bodyLong;
    }
  }
  return errors;
}

/**
 * The review form's POST. Success redirects back to the paper (post/redirect/get) with a
 * notice; refusals re-render the paper with the form kept and the reason next to the
 * fields. The service decides who may review (signed in, email confirmed, not one's own
 * paper, once per version) and keeps human reviews apart from AI ones.
 */
async function postReview(p: Page): Promise<Response> {
  const ref = p.c.req.param("id") ?? "";
  const t = p.t.reading.review;
  const paperPath = `/papers/${ref}`;
  try {
    await createHumanReview(p.ctx, { paperId: ref, review: reviewInput(p.form) });
  } catch (error) {
    const fail = (status: number, review: ReviewFormState) => paperPage(p, ref, { status, review });
    if (error instanceof Unauthorized) {
      const next = encodeURIComponent(paperPath);
      return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=${next}`, 303);
    }
    if (error instanceof Invalid) {
      return fail(400, { errors: reviewErrors(p, error.issues), general: null });
    }
    if (error instanceof Forbidden) {
      const own = p.session?.owner.verified === true;
      return fail(403, { errors: {}, general: own ? t.ownPaper : t.unverified });
    }
    if (error instanceof Conflict) return fail(409, { errors: {}, general: t.duplicate });
    if (error instanceof RateLimited) {
      p.c.header("retry-after", String(error.retryAfterSeconds));
      return fail(429, { errors: {}, general: t.tooMany(minutesFrom(error.retryAfterSeconds)) });
    }
    throw error;
  }
  return p.c.redirect(`${p.href(paperPath)}?notice=review-posted#human-reviews`, 303);
}
