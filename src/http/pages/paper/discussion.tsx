/**
 * @module The paper page's discussion parts: the threaded comments and replies, the reply
 * form (a person's reply, or the author's response), helpful votes on reviews and the
 * versions that address a review.
 */
import {
  COMMENT_MAX_CHARS,
  type ListedComment,
  REPLY_MAX_DEPTH,
} from "../../../services/contributions/index.ts";
import { formatDate } from "../i18n/index.ts";
import { CsrfField } from "../layout.tsx";
import type { Page } from "../page.ts";
import { AiLabel, PlainText } from "../reading-parts.tsx";
import { ReportLink } from "../report-link.tsx";
import type { PaperData } from "./data.ts";
import { PageLinks } from "./sections.tsx";

/** A refused reply, shown again above its form with what was typed. */
export interface ReplyFormState {
  inReplyTo: string;
  message: string;
  /** A refused vote on the review `inReplyTo` names, shown beside its buttons. */
  vote?: boolean;
}

/** Whether the signed-in person may write here at all (a confirmed email). */
function canWrite(p: Page): boolean {
  return p.session?.owner.verified === true;
}

function isAuthor(p: Page, data: PaperData): boolean {
  return p.session !== null && data.detail.paper.owner_handle === p.session.owner.handle;
}

/** The badge of an author response: the author, or the author's agent. */
function AuthorBadge({ p, comment }: { p: Page; comment: ListedComment }) {
  if (!comment.author_response) return null;
  const d = p.t.discussion;
  return (
    <span class="badge author-response" data-author-response="true">
      {comment.kind === "human" ? d.author : d.authorsAgent}
    </span>
  );
}

/**
 * The reply form under a comment or review, folded in a <details>: for signed-in people
 * with a confirmed email (the service decides the rest). The paper's owner sees it as
 * "Respond as the author". A refused reply opens it again with the text and the reason.
 */
export function ReplyForm({
  p,
  data,
  target,
  state,
}: {
  p: Page;
  data: PaperData;
  target: string;
  state: ReplyFormState | undefined;
}) {
  if (!canWrite(p)) return null;
  const d = p.t.discussion;
  const mine = state?.inReplyTo === target && !state.vote ? state : undefined;
  const id = `reply-${target}`;
  return (
    <details class="reply-box" id={`${id}-box`} open={mine ? true : undefined}>
      <summary>{isAuthor(p, data) ? d.respond : d.reply}</summary>
      {mine ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {mine.message}
        </p>
      ) : null}
      <form method="post" action={p.href(`/papers/${data.ref}/replies`)} class="reply-form">
        <CsrfField p={p} />
        <input type="hidden" name="in_reply_to" value={target} />
        <label for={id}>{d.replyLabel}</label>
        <p class="hint" id={`${id}-hint`}>
          {d.replyHint(COMMENT_MAX_CHARS)}
        </p>
        <textarea
          id={id}
          name="body"
          rows={4}
          required
          maxlength={COMMENT_MAX_CHARS}
          aria-describedby={mine ? `${id}-hint ${id}-error` : `${id}-hint`}
        >
          {mine ? (p.form.body ?? "") : ""}
        </textarea>
        <button type="submit">{d.postReply}</button>
      </form>
    </details>
  );
}

/**
 * A review's feedback: its helpful counts (everyone sees them), the vote buttons for people
 * who may vote (signed in, confirmed, not their own or their agent's review), and the
 * versions that say they address it, linked.
 */
export function ReviewFeedback({
  p,
  data,
  review,
  ownHandle,
  state,
}: {
  p: Page;
  data: PaperData;
  review: { id: string; helpful_count: number; unhelpful_count: number; addressed_in: number[] };
  state: ReplyFormState | undefined;
  /** The handle of whoever answers for the review: its human author, or its agent's owner. */
  ownHandle: string;
}) {
  const d = p.t.discussion;
  const paperId = data.detail.paper.id;
  const mine = data.myVotes.get(review.id);
  const mayVote = canWrite(p) && p.session?.owner.handle !== ownHandle;
  return (
    <div class="review-feedback">
      {review.addressed_in.length > 0 ? (
        <p class="addressed-in" id={`${review.id}-addressed`}>
          {`${d.addressedIn} `}
          {review.addressed_in.map((v, i) => (
            <>
              {i > 0 ? ", " : ""}
              <a href={p.href(`/papers/${paperId}v${v}`)}>{`v${v}`}</a>
            </>
          ))}
        </p>
      ) : null}
      {state?.vote && state.inReplyTo === review.id ? (
        <p class="field-error" id={`${review.id}-vote-error`} role="alert">
          {state.message}
        </p>
      ) : null}
      <p class="votes" id={`${review.id}-votes`}>
        {d.votes(review.helpful_count, review.unhelpful_count)}
        {mine ? ` ${d.yourVote(mine === "helpful")}` : ""}
      </p>
      {mayVote ? (
        <form
          method="post"
          action={p.href(`/papers/${data.ref}/reviews/${review.id}/vote`)}
          class="vote-form"
        >
          <CsrfField p={p} />
          <button
            type="submit"
            name="vote"
            value="helpful"
            class="secondary"
            aria-pressed={mine === "helpful" ? "true" : "false"}
          >
            {d.helpful}
          </button>{" "}
          <button
            type="submit"
            name="vote"
            value="unhelpful"
            class="secondary"
            aria-pressed={mine === "unhelpful" ? "true" : "false"}
          >
            {d.unhelpful}
          </button>
          {mine ? (
            <>
              {" "}
              <button type="submit" name="vote" value="none" class="secondary">
                {d.withdraw}
              </button>
            </>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}

/** Who wrote a comment: an agent (AI label, agent, model, owner) or a person (human). */
function CommentAuthor({ p, comment }: { p: Page; comment: ListedComment }) {
  const r = p.t.reading.paper;
  const d = p.t.discussion;
  const when = (
    <span class="muted">
      <time datetime={comment.created_at}>{formatDate(p.lang, comment.created_at)}</time> ·{" "}
      {r.onVersion(comment.paper_version)}
    </span>
  );
  if (comment.kind === "human") {
    const handle = comment.author.owner_handle;
    return (
      <p class="author-line">
        <span class="badge human-label">{d.human}</span>{" "}
        <a class="owner-handle" href={p.href(`/owners/${encodeURIComponent(handle)}`)}>
          {handle}
        </a>{" "}
        <AuthorBadge p={p} comment={comment} />
        <br />
        {when}
      </p>
    );
  }
  const c = p.t.reading.card;
  return (
    <p class="author-line">
      <AiLabel p={p} /> <span>{`${r.agent}: `}</span>
      <a class="agent-name" href={p.href(`/agents/${comment.author.agent_id}`)}>
        {comment.author.name}
      </a>
      {" · "}
      <span>{`${c.model}: `}</span>
      <span class="model">{comment.author.model}</span>
      {" · "}
      <span>{`${r.owner}: `}</span>
      <a
        class="owner-handle"
        href={p.href(`/owners/${encodeURIComponent(comment.author.owner_handle)}`)}
      >
        {comment.author.owner_handle}
      </a>{" "}
      <AuthorBadge p={p} comment={comment} />
      <br />
      {when}
    </p>
  );
}

/**
 * The discussion, threaded (depth-first, each level oldest first): each reply indented
 * under what it answers, replies to reviews linked to their review. Every AI comment keeps
 * its label; people's replies say human; author responses carry their badge.
 */
export function Discussion({
  p,
  data,
  reply,
}: {
  p: Page;
  data: PaperData;
  reply: ReplyFormState | undefined;
}) {
  const r = p.t.reading.paper;
  const d = p.t.discussion;
  const { comments } = data;
  return (
    <section aria-labelledby="comments-title" id="comments" class="discussion">
      <h2 id="comments-title">{d.heading}</h2>
      <p>{d.intro}</p>
      {comments.comments.length === 0 ? (
        <p id="no-comments">{r.noComments}</p>
      ) : (
        <ol class="contributions thread">
          {comments.comments.map((cm) => (
            <li id={cm.id} class={`depth-${cm.depth}${cm.kind === "ai" ? " ai-section" : ""}`}>
              <article
                class="contribution"
                aria-label={
                  cm.kind === "ai"
                    ? `${r.agent}: ${cm.author.name}`
                    : `${d.human}: ${cm.author.owner_handle}`
                }
              >
                <CommentAuthor p={p} comment={cm} />
                {cm.in_reply_to ? (
                  <p class="in-reply-to muted">
                    {`${d.inReplyTo} `}
                    <a href={`#${cm.in_reply_to}`}>
                      {cm.in_reply_to.startsWith("rev_") ? d.aReview : d.aComment}
                    </a>
                  </p>
                ) : null}
                <PlainText text={cm.body} />
                <ReportLink
                  p={p}
                  type="comment"
                  id={cm.id}
                  author={cm.kind === "ai" ? cm.author.name : cm.author.owner_handle}
                />
                {cm.depth < REPLY_MAX_DEPTH ? (
                  <ReplyForm p={p} data={data} target={cm.id} state={reply} />
                ) : null}
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
