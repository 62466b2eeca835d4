/**
 * @module Reader reports: `/report/{paper|comment|review}/{id}` (the form, and its POST) and
 * `/report/sent` (the confirmation). Anyone may report; no JavaScript is needed.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Conflict, type FieldIssue, Invalid, RateLimited } from "../../services/errors.ts";
import { parsePaperRef } from "../../services/ids.ts";
import {
  fileReport,
  getReportTarget,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_TARGETS,
  ReportQueueFull,
  type ReportTarget,
  type ReportTargetView,
} from "../../services/reports/index.ts";
import type { AppEnv } from "../env.ts";
import { CsrfField, ErrorSummary, renderPage } from "./layout.tsx";
import { type Page, refusalNotice, registerPage, renderError } from "./page.ts";
import { reportPath } from "./report-link.tsx";

interface FormState {
  status: number;
  /** Field id → message, in the page's language. */
  errors: { reason?: string; note?: string };
  /** A message about the whole form (a duplicate, too many reports). */
  general?: string;
  headers?: Record<string, string>;
}

export function registerReportPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/report/sent", (p) => sentPage(p));
  registerPage(app, "GET", "/report/:type/:id", (p) => formPage(p));
  registerPage(app, "POST", "/report/:type/:id", (p) => postReport(p));
}

function targetOf(p: Page): { type: ReportTarget; id: string } | null {
  const type = p.c.req.param("type") ?? "";
  if (!(REPORT_TARGETS as readonly string[]).includes(type)) return null;
  return { type: type as ReportTarget, id: p.c.req.param("id") ?? "" };
}

async function formPage(p: Page, state?: FormState): Promise<Response> {
  const wanted = targetOf(p);
  if (!wanted) return renderError(p, 404);
  const target = await getReportTarget(p.ctx, { targetType: wanted.type, targetId: wanted.id });
  const t = p.t.reports;
  const summary = [
    ...(state?.general ? [{ message: state.general }] : []),
    ...(state?.errors.reason ? [{ field: "report-reason", message: state.errors.reason }] : []),
    ...(state?.errors.note ? [{ field: "report-note", message: state.errors.note }] : []),
  ];
  return renderPage(p, {
    title: t.title[target.target_type],
    status: state?.status ?? 200,
    ...(state?.headers ? { headers: state.headers } : {}),
    body: (
      <>
        <h1>{t.title[target.target_type]}</h1>
        <ErrorSummary p={p} errors={summary} />
        <p class="lead">{t.intro}</p>
        <TargetSummary p={p} target={target} />
        <ReportForm p={p} target={target} state={state} />
      </>
    ),
  });
}

function paperHref(p: Page, target: ReportTargetView): string {
  const anchor = target.target_type === "paper" ? "" : `#${target.target_id}`;
  return `${p.href(`/papers/${target.paper_id}`)}${anchor}`;
}

function TargetSummary({ p, target }: { p: Page; target: ReportTargetView }) {
  const t = p.t.reports;
  return (
    <dl class="details" id="report-target">
      <div>
        <dt>{t.about[target.target_type]}</dt>
        <dd>
          <a href={paperHref(p, target)}>{target.paper_title}</a>{" "}
          <span class="muted">
            ({target.paper_id}
            {target.target_type === "paper" ? "" : ` · ${target.target_id}`})
          </span>
        </dd>
      </div>
    </dl>
  );
}

function ReportForm({
  p,
  target,
  state,
}: {
  p: Page;
  target: ReportTargetView;
  state: FormState | undefined;
}) {
  const t = p.t.reports;
  const errors = state?.errors ?? {};
  const kept = state ? p.form : {};
  const noteDescribed = ["report-note-hint", errors.note ? "report-note-error" : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <form
      method="post"
      action={p.href(reportPath(target.target_type, target.target_id))}
      class="narrow"
      id="report-form"
    >
      <CsrfField p={p} />
      <div class="field">
        <label for="report-reason">{t.reasonLabel}</label>
        {errors.reason ? (
          <p class="field-error" id="report-reason-error">
            {errors.reason}
          </p>
        ) : null}
        <select
          id="report-reason"
          name="reason"
          required
          aria-describedby={errors.reason ? "report-reason-error" : undefined}
          aria-invalid={errors.reason ? "true" : undefined}
        >
          <option value="">{t.choose}</option>
          {REPORT_REASONS.map((reason) => (
            <option value={reason} selected={kept.reason === reason}>
              {t.reasons[reason]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="report-note">{t.noteLabel}</label>
        <p class="hint" id="report-note-hint">
          {t.noteHint(REPORT_NOTE_MAX)}
        </p>
        {errors.note ? (
          <p class="field-error" id="report-note-error">
            {errors.note}
          </p>
        ) : null}
        <textarea
          id="report-note"
          name="note"
          rows={5}
          maxlength={REPORT_NOTE_MAX}
          aria-describedby={noteDescribed}
          aria-invalid={errors.note ? "true" : undefined}
        >
          {kept.note ?? ""}
        </textarea>
      </div>
      <button type="submit">{t.submit}</button> <a href={paperHref(p, target)}>{t.back}</a>
    </form>
  );
}

/** The service's field issues in the page's language. */
function formErrors(p: Page, issues: readonly FieldIssue[]): FormState["errors"] {
  const e = p.t.reports.errors;
  const out: FormState["errors"] = {};
  for (const issue of issues) {
    if (issue.name === "reason") out.reason = e.reason;
    if (issue.name === "note" && !out.note) {
      if (issue.message.startsWith("is required")) out.note = e.noteRequired;
      else if (issue.message.startsWith("must be at most")) out.note = e.noteLong(REPORT_NOTE_MAX);
      else out.note = e.noteInvalid;
    }
  }
  return out;
}

/**
 * The form's POST: the service checks the input, the per-address limit and that the target
 * can be seen. Success redirects to the confirmation (post/redirect/get); refusals show the
 * form again, kept, with the reason in the reader's language.
 */
async function postReport(p: Page): Promise<Response> {
  const wanted = targetOf(p);
  if (!wanted) return renderError(p, 404);
  let paperId: string;
  try {
    const filed = await fileReport(
      p.ctx,
      {
        targetType: wanted.type,
        targetId: wanted.id,
        reason: (p.form.reason ?? "") as never,
        ...(p.form.note?.trim() ? { note: p.form.note } : {}),
      },
      { address: p.c.get("clientIp") },
    );
    paperId = filed.paper_id;
  } catch (error) {
    const e = p.t.reports.errors;
    if (error instanceof Invalid) {
      const errors = formErrors(p, error.issues);
      // Only the form's own fields can be wrong here; anything else (the id in the address)
      // is a 400 page naming it.
      if (!errors.reason && !errors.note) throw error;
      return formPage(p, { status: 400, errors });
    }
    if (error instanceof Conflict) {
      const general = error instanceof ReportQueueFull ? e.queueFull : e.duplicate;
      return formPage(p, { status: 409, errors: {}, general });
    }
    if (error instanceof RateLimited) {
      const wait = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
      return formPage(p, {
        status: 429,
        errors: {},
        general: refusalNotice(p, error),
        headers: { "retry-after": wait },
      });
    }
    throw error;
  }
  return p.c.redirect(`${p.href("/report/sent")}?paper=${paperId}`, 303);
}

function sentPage(p: Page): Promise<Response> {
  const t = p.t.reports;
  // Only a well-formed paper id becomes a link; nothing else from the address is echoed.
  const ref = parsePaperRef(p.c.req.query("paper") ?? "");
  return renderPage(p, {
    title: t.sentTitle,
    body: (
      <>
        <h1>{t.sentTitle}</h1>
        <p class="notice" role="status" id="notice">
          {t.sent}
        </p>
        {ref ? (
          <p>
            <a href={p.href(`/papers/${ref.id}`)} id="back-to-paper">
              {t.back}
            </a>
          </p>
        ) : null}
      </>
    ),
  });
}
