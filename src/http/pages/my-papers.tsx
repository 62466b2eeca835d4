/** @module /my/papers (an owner's papers and rejected submissions), one paper, and withdrawing it. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Conflict, Forbidden, Invalid, NotFound } from "../../services/errors.ts";
import {
  listOwnPapers,
  type OwnPaper,
  WITHDRAW_REASON_MAX,
  withdrawPaper,
} from "../../services/papers/index.ts";
import type { AppEnv } from "../env.ts";
import { formatDate } from "./i18n/index.ts";
import { CsrfField, ErrorSummary, renderPage } from "./layout.tsx";
import { type Page, registerPage, renderError } from "./page.ts";
import { subjectLabel } from "./subject-parts.tsx";
import { cannotPage, ownPaperOr404 } from "./submit.tsx";
import { ReasonList, signInFirst, statusText } from "./submit-parts.tsx";

/** A confirmation line named by `?notice=` (known names only; nothing is echoed). */
function SubmitNotice({ p }: { p: Page }) {
  const name = p.c.req.query("notice");
  const notices = p.t.submit.notices;
  if (!name || !Object.hasOwn(notices, name)) return null;
  return (
    <p class="notice" role="status" id="notice">
      {notices[name as keyof typeof notices]}
    </p>
  );
}

function Actions({ p, paper }: { p: Page; paper: OwnPaper }) {
  const m = p.t.submit.mine;
  return (
    <>
      <a href={p.href(`/my/papers/${paper.id}`)} aria-label={m.detailsLabel(paper.title)}>
        {m.details}
      </a>
      {paper.status === "published" ? (
        <>
          {" · "}
          <a href={p.href(`/papers/${paper.id}`)}>{m.publicPage}</a>
          {" · "}
          <a href={p.href(`/papers/${paper.id}/revise`)} aria-label={m.reviseLabel(paper.title)}>
            {m.revise}
          </a>
          {" · "}
          <a
            href={p.href(`/papers/${paper.id}/withdraw`)}
            aria-label={m.withdrawLabel(paper.title)}
          >
            {m.withdraw}
          </a>
        </>
      ) : null}
    </>
  );
}

async function myPapersPage(p: Page): Promise<Response> {
  const m = p.t.submit.mine;
  const { papers, rejected } = await listOwnPapers(p.ctx);
  return renderPage(p, {
    title: m.title,
    body: (
      <>
        <h1>{m.title}</h1>
        <SubmitNotice p={p} />
        <p class="lead">{m.intro}</p>
        <p>
          <a href={p.href("/submit")}>{m.submitLink}</a>
        </p>
        {papers.length === 0 ? (
          <p id="no-papers">{m.none}</p>
        ) : (
          <div class="table-wrap">
            <table id="my-papers">
              <caption>{m.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{m.paper}</th>
                  <th scope="col">{m.status}</th>
                  <th scope="col">{m.version}</th>
                  <th scope="col">{m.updated}</th>
                  <th scope="col">{m.actions}</th>
                </tr>
              </thead>
              <tbody>
                {papers.map((paper) => (
                  <tr id={`paper-${paper.id}`}>
                    <th scope="row">
                      {paper.title}
                      <br />
                      <code class="muted">{paper.id}</code>
                    </th>
                    <td>
                      <span class={`status status-${paper.status}`}>
                        {statusText(p, paper.status, paper.screening.status)}
                      </span>
                      {paper.status_reason && paper.status !== "submitted" ? (
                        <p class="muted status-reason">{paper.status_reason}</p>
                      ) : null}
                      <ReasonList p={p} reasons={paper.screening.reasons} />
                      {paper.suggested_subject ? (
                        <p class="muted suggested-subject">
                          {p.t.subjects.suggestion.line(subjectLabel(p, paper.suggested_subject))}
                        </p>
                      ) : null}
                    </td>
                    <td>{paper.version}</td>
                    <td>
                      <time datetime={paper.updated_at}>
                        {formatDate(p.lang, paper.updated_at)}
                      </time>
                    </td>
                    <td>
                      <Actions p={p} paper={paper} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <h2 id="rejected-title">{m.rejectedTitle}</h2>
        <p>{m.rejectedIntro}</p>
        {rejected.length === 0 ? (
          <p id="no-rejections">{m.rejectedNone}</p>
        ) : (
          <div class="table-wrap">
            <table id="rejected-submissions">
              <caption>{m.rejectedCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{m.paper}</th>
                  <th scope="col">{m.submitted}</th>
                  <th scope="col">{m.reasons}</th>
                </tr>
              </thead>
              <tbody>
                {rejected.map((r) => (
                  <tr id={`rejection-${r.screening_id}`}>
                    <th scope="row">
                      {r.title}
                      {r.paper_id ? (
                        <>
                          <br />
                          <span class="muted">{m.revisionOf(r.paper_id)}</span>
                        </>
                      ) : null}
                    </th>
                    <td>
                      <time datetime={r.created_at}>{formatDate(p.lang, r.created_at)}</time>
                    </td>
                    <td>
                      <ReasonList p={p} reasons={r.reasons} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    ),
  });
}

async function ownPaperPage(p: Page, id: string): Promise<Response> {
  const paper = await ownPaperOr404(p, id);
  if (!paper) return renderError(p, 404);
  const t = p.t.submit.paper;
  const m = p.t.submit.mine;
  const explanation =
    paper.status === "published"
      ? paper.screening.status === "warnings"
        ? t.publishedWarnings
        : t.published
      : paper.status === "submitted"
        ? t.held
        : paper.status === "withdrawn"
          ? t.withdrawn
          : paper.status === "removed"
            ? t.removed
            : statusText(p, paper.status);
  return renderPage(p, {
    title: t.title(paper.id),
    body: (
      <>
        <h1>{t.title(paper.id)}</h1>
        <SubmitNotice p={p} />
        <p class="lead">{paper.title}</p>
        <p>
          <span class={`status status-${paper.status}`} id="paper-status">
            {statusText(p, paper.status, paper.screening.status)}
          </span>{" "}
          · {t.version(paper.version)}
        </p>
        <p id="status-explanation">{explanation}</p>
        {paper.status === "submitted" ? <p id="held-next">{t.heldNext}</p> : null}
        {/* A held paper's `held: …` is the LLM's failure, shown translated among the reasons. */}
        {paper.status_reason && paper.status !== "submitted" ? (
          <p>
            <strong>{t.statusReason}:</strong> <span id="status-reason">{paper.status_reason}</span>
          </p>
        ) : null}
        {paper.status === "published" ? (
          <p>
            <a href={p.href(`/papers/${paper.id}`)} id="public-link">
              {t.readIt}
            </a>
            {" · "}
            <a href={p.href(`/papers/${paper.id}/revise`)}>{m.revise}</a>
            {" · "}
            <a href={p.href(`/papers/${paper.id}/withdraw`)}>{m.withdraw}</a>
          </p>
        ) : null}
        <h2>{t.screening}</h2>
        <p class="muted">
          {t.screenedBy(
            paper.screening.screened_by,
            formatDate(p.lang, paper.screening.screened_at),
          )}
        </p>
        {paper.screening.reasons.length === 0 ? (
          <p>{t.noReasons}</p>
        ) : (
          <ReasonList p={p} reasons={paper.screening.reasons} id="screening-reasons" />
        )}
        <p>
          <a href={p.href("/my/papers")}>{t.back}</a>
        </p>
      </>
    ),
  });
}

async function withdrawPage(
  p: Page,
  paper: OwnPaper,
  state: { status?: number; error?: string } = {},
): Promise<Response> {
  const w = p.t.submit.withdraw;
  const described = ["withdraw-reason-hint", state.error ? "withdraw-reason-error" : ""]
    .filter(Boolean)
    .join(" ");
  return renderPage(p, {
    title: w.title(paper.id),
    status: state.status ?? 200,
    body: (
      <div class="narrow">
        <h1>{w.title(paper.id)}</h1>
        <ErrorSummary
          p={p}
          errors={state.error ? [{ field: "withdraw-reason", message: state.error }] : []}
        />
        <p id="withdraw-explanation">{w.text(paper.title)}</p>
        <form method="post" action={p.href(`/papers/${paper.id}/withdraw`)} id="withdraw-form">
          <CsrfField p={p} />
          <div class="field">
            <label for="withdraw-reason">{w.reason}</label>
            <p class="hint" id="withdraw-reason-hint">
              {w.reasonHint(WITHDRAW_REASON_MAX)}
            </p>
            {state.error ? (
              <p class="field-error" id="withdraw-reason-error">
                {state.error}
              </p>
            ) : null}
            <textarea
              id="withdraw-reason"
              name="reason"
              rows={4}
              maxlength={WITHDRAW_REASON_MAX}
              aria-describedby={described}
              aria-invalid={state.error ? "true" : undefined}
            >
              {p.form.reason ?? ""}
            </textarea>
          </div>
          <div class="form-actions">
            <button type="submit" class="danger">
              {w.confirm}
            </button>
            <a href={p.href(`/my/papers/${paper.id}`)}>{w.cancel}</a>
          </div>
        </form>
      </div>
    ),
  });
}

export function registerMyPaperPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/my/papers", (p) => {
    if (!p.session) return signInFirst(p, "/my/papers");
    return myPapersPage(p);
  });

  registerPage(app, "GET", "/my/papers/:id", (p) => {
    const id = p.c.req.param("id") ?? "";
    if (!p.session) return signInFirst(p, `/my/papers/${id}`);
    return ownPaperPage(p, id);
  });

  registerPage(app, "GET", "/papers/:id/withdraw", async (p) => {
    const id = p.c.req.param("id") ?? "";
    if (!p.session) return signInFirst(p, `/papers/${id}/withdraw`);
    const paper = await ownPaperOr404(p, id);
    if (!paper) return renderError(p, 404);
    const w = p.t.submit.withdraw;
    if (paper.status === "withdrawn") return cannotPage(p, w.title(paper.id), w.already);
    if (paper.status !== "published") {
      return cannotPage(p, w.title(paper.id), w.notPublished(statusText(p, paper.status)));
    }
    return withdrawPage(p, paper);
  });

  registerPage(app, "POST", "/papers/:id/withdraw", async (p) => {
    const id = p.c.req.param("id") ?? "";
    if (!p.session) return signInFirst(p, `/papers/${id}/withdraw`, 303);
    const paper = await ownPaperOr404(p, id);
    if (!paper) return renderError(p, 404);
    try {
      await withdrawPaper(p.ctx, { paperId: paper.id, reason: p.form.reason ?? null });
    } catch (error) {
      if (error instanceof Invalid) {
        return withdrawPage(p, paper, {
          status: 400,
          error: (p.form.reason ?? "").includes("\u0000")
            ? p.t.submit.errors.nul
            : p.t.submit.errors.tooLong(WITHDRAW_REASON_MAX),
        });
      }
      if (error instanceof Forbidden || error instanceof NotFound) return renderError(p, 404);
      if (error instanceof Conflict) {
        const w = p.t.submit.withdraw;
        return cannotPage(p, w.title(paper.id), w.notPublished(statusText(p, paper.status)));
      }
      throw error;
    }
    return p.c.redirect(`${p.href(`/my/papers/${paper.id}`)}?notice=withdrawn`, 303);
  });
}
