/**
 * @module The paper page (`/papers/{id}`, `/papers/{id}vN`): the version's text, its screening,
 * related papers, version history, machine-readable links, comments, human and AI advisory
 * reviews (apart), the threaded discussion, and the POSTs of the human review form, the
 * reply form and the helpful vote.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  COMMENT_MAX_CHARS,
  createHumanReply,
  createHumanReview,
  voteReview,
} from "../../../services/contributions/index.ts";
import {
  Conflict,
  Forbidden,
  Invalid,
  RateLimited,
  Unauthorized,
} from "../../../services/errors.ts";
import { filePath } from "../../../services/files/index.ts";
import { parsePaperRef } from "../../../services/ids.ts";
import { isModerator } from "../../../services/moderation/index.ts";
import {
  citationMetaTags,
  discussionJsonLd,
  paperLinks,
  paperWebPage,
  toScholarlyArticle,
} from "../../../services/papers/index.ts";
import type { AppEnv } from "../../env.ts";
import { formatDate, localePath } from "../i18n/index.ts";
import { renderPage } from "../layout.tsx";
import { markdownRenderer } from "../markdown-lazy.ts";
import { type Page, refusalNotice, registerPage } from "../page.ts";
import {
  AiLabel,
  KeywordList,
  ReadingNotice,
  textLang,
  VerificationBadge,
} from "../reading-parts.tsx";
import { ReportLink } from "../report-link.tsx";
import { ReasonText } from "../screening-reasons.tsx";
import { SubjectList } from "../subject-parts.tsx";
import { AiReviews, HumanReviews } from "./contributions.tsx";
import { loadPaper, type PaperData, type ReviewFormState } from "./data.ts";
import { Discussion, type ReplyFormState } from "./discussion.tsx";
import { reviewErrors, reviewInput } from "./review-form.tsx";
import { MachineLinks, RelatedPapers, VersionFiles, VersionHistory } from "./sections.tsx";

/** A review form can carry 20,000 characters of any script, URL-encoded. */
const REVIEW_FORM_BYTES = 256 * 1024;
/** A reply carries up to 10,000 characters, URL-encoded. */
const REPLY_FORM_BYTES = 128 * 1024;

export function registerPaperPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/papers/:id", (p) => paperPage(p, p.c.req.param("id") ?? ""));
  registerPage(app, "POST", "/papers/:id/reviews", (p) => postReview(p), {
    maxFormBytes: REVIEW_FORM_BYTES,
  });
  registerPage(app, "POST", "/papers/:id/replies", (p) => postReply(p), {
    maxFormBytes: REPLY_FORM_BYTES,
  });
  registerPage(app, "POST", "/papers/:id/reviews/:review/vote", (p) => postVote(p));
}

/**
 * `ref` is what the address names: `{id}` (the paper, current version) or `{id}vN`. Unknown,
 * withdrawn and removed papers are the service's 404, shown as the error page.
 */
async function paperPage(
  p: Page,
  ref: string,
  state: { status?: number; review?: ReviewFormState; reply?: ReplyFormState } = {},
): Promise<Response> {
  const data = await loadPaper(p, ref);
  const { detail } = data;
  const renderMarkdown = await markdownRenderer();
  // Figures are named in the text by their path in the bundle and served by content hash.
  const files = new Map(detail.version.files.map((f) => [f.name, filePath(f.sha256)]));
  const text = {
    abstract: renderMarkdown(detail.version.abstract, { topHeading: 3 }),
    body: renderMarkdown(detail.version.body, { topHeading: 3, files }),
  };
  const base = p.c.get("baseUrl");
  const options = { versioned: parsePaperRef(ref)?.version != null };
  const canonical = `${base}${localePath(p.lang, `/papers/${ref}`)}`;
  return renderPage(p, {
    title: detail.version.title,
    status: state.status ?? 200,
    alternatePath: `/papers/${ref}`,
    head: (
      <>
        <link rel="canonical" href={canonical} />
        {citationMetaTags(detail, base, options).map((tag) => (
          <meta name={tag.name} content={tag.content} />
        ))}
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{
            __html: jsonForScript(toScholarlyArticle(detail, base, options)),
          }}
        />
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{
            __html: jsonForScript({
              ...paperWebPage(
                canonical,
                paperLinks(detail, base, options).url,
                data.related.map((r) => `${base}${localePath(p.lang, `/papers/${r.id}`)}`),
                p.lang,
              ),
              // The shown discussion, author responses marked (ADR 0044).
              ...(data.comments.comments.length > 0
                ? { comment: discussionJsonLd(canonical, data.comments.comments) }
                : {}),
            }),
          }}
        />
      </>
    ),
    body: <PaperView p={p} data={data} text={text} review={state.review} reply={state.reply} />,
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
  text,
  review,
  reply,
}: {
  p: Page;
  data: PaperData;
  /** The version's abstract and body as HTML (renderMarkdown). */
  text: { abstract: string; body: string };
  review: ReviewFormState | undefined;
  reply: ReplyFormState | undefined;
}) {
  const r = p.t.reading.paper;
  const { detail, versions, ref } = data;
  const { paper, version } = detail;
  const isCurrent = version.version === paper.version;
  const shown = versions.versions.find((v) => v.version === version.version);
  const verification = shown?.verification ?? paper.verification;
  // The paper's own language on its text (WCAG 3.1.2), when the screener could tell it.
  const lang = textLang(paper.language);
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
        <h1 id="paper-title" lang={lang}>
          {version.title}
        </h1>
        <p class="ai-notice" id="ai-notice">
          {r.aiNotice(version.ai_model)}
        </p>
        <ReportLink p={p} type="paper" id={paper.id} />
        {isCurrent ? null : (
          <p class="warning" id="older-version">
            {r.older} <a href={p.href(`/papers/${paper.id}`)}>{r.readCurrent}</a>
          </p>
        )}
      </header>

      <section aria-labelledby="abstract-title" class="abstract">
        <h2 id="abstract-title">{r.abstract}</h2>
        <div class="markdown" lang={lang} dangerouslySetInnerHTML={{ __html: text.abstract }} />
      </section>

      <section aria-labelledby="details-title" class="paper-details">
        <h2 id="details-title">{r.details}</h2>
        <dl class="details">
          <div>
            <dt>{r.model}</dt>
            <dd class="model">{version.ai_model}</dd>
          </div>
          <div>
            <dt>{r.submittedBy}</dt>
            <dd id="paper-owner">
              {paper.owner_handle ? (
                <a href={p.href(`/owners/${encodeURIComponent(paper.owner_handle)}`)}>
                  {paper.owner_handle}
                </a>
              ) : (
                r.importedNote
              )}
            </dd>
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
          {paper.subjects.length > 0 || isModerator(p.ctx) ? (
            <div>
              <dt>{p.t.subjects.paper.title}</dt>
              <dd id="paper-subjects">
                <SubjectList p={p} subjects={paper.subjects} />
                {isModerator(p.ctx) ? (
                  <a href={p.href(`/moderation/papers/${paper.id}/subjects`)}>
                    {p.t.subjects.paper.change}
                  </a>
                ) : null}
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
              {/* The badge is in the title block; here the outcome is words, with who and when. */}
              {p.t.reading.verification[verification.status]}
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

      <section aria-labelledby="body-title">
        <h2 id="body-title">{r.fullText}</h2>
        <div
          class="markdown paper-body"
          lang={lang}
          id="paper-body"
          dangerouslySetInnerHTML={{ __html: text.body }}
        />
      </section>

      <VersionFiles p={p} files={version.files} />
      <RelatedPapers p={p} data={data} />
      <VersionHistory p={p} data={data} />
      <MachineLinks p={p} id={ref} />
      <HumanReviews p={p} data={data} review={review} reply={reply} />
      <AiReviews p={p} data={data} reply={reply} />
      <Discussion p={p} data={data} reply={reply} />
    </article>
  );
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
      return fail(429, { errors: {}, general: refusalNotice(p, error) });
    }
    throw error;
  }
  return p.c.redirect(`${p.href(paperPath)}?notice=review-posted#human-reviews`, 303);
}

/**
 * The reply form's POST (a person's reply, or the author's response). Success redirects to
 * the new reply; a refusal re-renders the paper with the form open, the text kept and the
 * reason above it. The service decides who may reply and what may be answered.
 */
async function postReply(p: Page): Promise<Response> {
  const ref = p.c.req.param("id") ?? "";
  const d = p.t.discussion;
  const paperPath = `/papers/${ref}`;
  const inReplyTo = p.form.in_reply_to ?? "";
  let id: string;
  try {
    const result = await createHumanReply(p.ctx, {
      paperId: ref,
      body: p.form.body ?? "",
      inReplyTo,
    });
    id = result.body.comment.id;
  } catch (error) {
    const fail = (status: number, message: string) =>
      paperPage(p, ref, { status, reply: { inReplyTo, message } });
    if (error instanceof Unauthorized) {
      const next = encodeURIComponent(paperPath);
      return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=${next}`, 303);
    }
    if (error instanceof Invalid) {
      const body = error.issues.some((i) => i.name === "body");
      const empty = (p.form.body ?? "").trim() === "";
      return fail(
        400,
        body ? (empty ? d.replyEmpty : d.replyLong(COMMENT_MAX_CHARS)) : d.replyRefused,
      );
    }
    if (error instanceof Forbidden) return fail(403, d.replyUnverified);
    if (error instanceof RateLimited) {
      p.c.header("retry-after", String(error.retryAfterSeconds));
      return fail(429, refusalNotice(p, error));
    }
    throw error;
  }
  return p.c.redirect(`${p.href(paperPath)}?notice=reply-posted#${id}`, 303);
}

/**
 * The helpful vote's POST: `vote` is helpful, unhelpful or none (withdraw). Success
 * redirects back to the review; refusals re-render the paper with the reason.
 */
async function postVote(p: Page): Promise<Response> {
  const ref = p.c.req.param("id") ?? "";
  const reviewId = p.c.req.param("review") ?? "";
  const d = p.t.discussion;
  const paperPath = `/papers/${ref}`;
  try {
    await voteReview(p.ctx, { reviewId, vote: p.form.vote ?? "" });
  } catch (error) {
    const fail = (status: number, message: string) =>
      paperPage(p, ref, { status, reply: { inReplyTo: reviewId, message, vote: true } });
    if (error instanceof Unauthorized) {
      const next = encodeURIComponent(paperPath);
      return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=${next}`, 303);
    }
    if (error instanceof Invalid) return fail(400, d.voteInvalid);
    if (error instanceof Forbidden) {
      return fail(403, p.session?.owner.verified === true ? d.voteOwn : d.voteUnverified);
    }
    if (error instanceof RateLimited) {
      p.c.header("retry-after", String(error.retryAfterSeconds));
      return fail(429, refusalNotice(p, error));
    }
    throw error;
  }
  return p.c.redirect(`${p.href(paperPath)}?notice=vote-recorded#${reviewId}`, 303);
}
