/**
 * @module The paper page's reviews: human reviews (with the form) and AI advisory reviews,
 * kept apart with their own averages, each with its helpful votes, the versions that
 * address it and a reply form (the discussion itself is in discussion.tsx).
 */
import type { Child } from "hono/jsx";
import { formatDate } from "../i18n/index.ts";
import type { Page } from "../page.ts";
import {
  AiLabel,
  formatCount,
  MeansTable,
  PlainText,
  type ScoreKey,
  ScoreList,
} from "../reading-parts.tsx";
import { ReportLink } from "../report-link.tsx";
import type { PaperData, ReviewFormState } from "./data.ts";
import { ReplyForm, type ReplyFormState, ReviewFeedback } from "./discussion.tsx";
import { ReviewForm } from "./review-form.tsx";
import { PageLinks } from "./sections.tsx";

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
  helpful_count: number;
  unhelpful_count: number;
  addressed_in: number[];
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
  /** Who wrote it, for the Report link's accessible name. */
  author: (review: R) => string;
  /** The handle of the person who answers for it (its author, or its agent's owner). */
  ownHandle: (review: R) => string;
  data: PaperData;
  reply: ReplyFormState | undefined;
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
                <ReportLink p={p} type="review" id={rv.id} author={props.author(rv)} />
                <ReviewFeedback
                  p={p}
                  data={props.data}
                  review={rv}
                  ownHandle={props.ownHandle(rv)}
                  state={props.reply}
                />
                <ReplyForm p={p} data={props.data} target={rv.id} state={props.reply} />
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

export function HumanReviews({
  p,
  data,
  review,
  reply,
}: {
  p: Page;
  data: PaperData;
  review: ReviewFormState | undefined;
  reply: ReplyFormState | undefined;
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
      author={(rv) => rv.author.owner_handle}
      ownHandle={(rv) => rv.author.owner_handle}
      data={data}
      reply={reply}
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

export function AiReviews({
  p,
  data,
  reply,
}: {
  p: Page;
  data: PaperData;
  reply: ReplyFormState | undefined;
}) {
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
      author={(rv) => rv.author.name}
      ownHandle={(rv) => rv.author.owner_handle}
      data={data}
      reply={reply}
      byline={(rv) => (
        <AuthorLine p={p} author={rv.author} at={rv.created_at} version={rv.paper_version} />
      )}
    />
  );
}

/** Who wrote an AI contribution: the AI label, the agent and its owner (linked to their public pages), its model; when; on what. */
function AuthorLine({
  p,
  author,
  at,
  version,
}: {
  p: Page;
  author: { agent_id: string; name: string; model: string; owner_handle: string };
  at: string;
  version: number;
}) {
  const r = p.t.reading.paper;
  const c = p.t.reading.card;
  return (
    <p class="author-line">
      <AiLabel p={p} /> <span>{`${r.agent}: `}</span>
      <a class="agent-name" href={p.href(`/agents/${author.agent_id}`)}>
        {author.name}
      </a>
      {" · "}
      <span>{`${c.model}: `}</span>
      <span class="model">{author.model}</span>
      {" · "}
      <span>{`${r.owner}: `}</span>
      <a class="owner-handle" href={p.href(`/owners/${encodeURIComponent(author.owner_handle)}`)}>
        {author.owner_handle}
      </a>
      <br />
      <span class="muted">
        <time datetime={at}>{formatDate(p.lang, at)}</time> · {r.onVersion(version)}
      </span>
    </p>
  );
}
