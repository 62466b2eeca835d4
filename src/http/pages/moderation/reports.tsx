/** @module The "Reports" section of /moderation: open reader reports, each with its target and the resolve form. */
import { MODERATION_REASON_MAX } from "../../../services/moderation/index.ts";
import {
  type OpenReport,
  REPORT_OUTCOMES,
  type ReportQueue,
} from "../../../services/reports/index.ts";
import { formatDate } from "../i18n/index.ts";
import { CsrfField, Field } from "../layout.tsx";
import type { Page } from "../page.ts";
import type { PageState } from "./parts.tsx";

/** The ids of a report's resolve fields; the POST handler names them when it refuses one. */
export function resolveFieldIds(reportId: string): { outcome: string; reason: string } {
  return { outcome: `outcome-${reportId}`, reason: `resolve-${reportId}` };
}

function targetHref(p: Page, report: OpenReport): string {
  const anchor = report.target_type === "paper" ? "" : `#${report.target_id}`;
  return `${p.href(`/papers/${report.paper_id}`)}${anchor}`;
}

function ReportItem({ p, report, state }: { p: Page; report: OpenReport; state: PageState }) {
  const t = p.t.reports.queue;
  const ids = resolveFieldIds(report.id);
  const anchor = `report-${report.id}`;
  const outcomeError = state.error?.field === ids.outcome ? state.error.message : undefined;
  const reasonError = state.error?.field === ids.reason ? state.error.message : undefined;
  const kept = outcomeError || reasonError ? p.form : {};
  return (
    <article class="mod-item" id={anchor} aria-labelledby={`${anchor}-title`}>
      <h3 id={`${anchor}-title`}>
        {t.targets[report.target_type]}: {report.paper_title}
      </h3>
      <dl class="mod-facts">
        <dt>{t.target}</dt>
        <dd>
          <a href={targetHref(p, report)} class="report-target">
            {report.target_type === "paper" ? report.paper_id : report.target_id}
          </a>
          {report.target_type === "paper" ? null : (
            <>
              {" "}
              <span class="muted">
                ({t.paper} {report.paper_id})
              </span>
            </>
          )}
        </dd>
        <dt>{t.reason}</dt>
        <dd class="report-reason">{p.t.reports.reasons[report.reason] ?? report.reason}</dd>
        <dt>{t.note}</dt>
        <dd class="reason">{report.note ?? <span class="muted">{t.noNote}</span>}</dd>
        <dt>{t.by}</dt>
        <dd>{report.reporter_handle ?? t.anonymous}</dd>
        <dt>{t.when}</dt>
        <dd>
          <time datetime={report.created_at}>{formatDate(p.lang, report.created_at)}</time>
        </dd>
      </dl>
      {report.excerpt ? (
        <details>
          <summary>{t.excerpt}</summary>
          <p class="reason">{report.excerpt}</p>
        </details>
      ) : null}
      <form
        method="post"
        action={p.href(`/moderation/reports/${report.id}/resolve`)}
        class="mod-action"
        id={`form-${ids.reason}`}
      >
        <CsrfField p={p} />
        <div class="field">
          <label for={ids.outcome}>{t.outcomeLabel}</label>
          {outcomeError ? (
            <p class="field-error" id={`${ids.outcome}-error`}>
              {outcomeError}
            </p>
          ) : null}
          <select
            id={ids.outcome}
            name="outcome"
            required
            aria-describedby={outcomeError ? `${ids.outcome}-error` : undefined}
            aria-invalid={outcomeError ? "true" : undefined}
          >
            {REPORT_OUTCOMES.map((outcome) => (
              <option value={outcome} selected={kept.outcome === outcome}>
                {t.outcomes[outcome]}
              </option>
            ))}
          </select>
        </div>
        <Field
          id={ids.reason}
          name="reason"
          label={t.reasonFor}
          value={reasonError ? (p.form.reason ?? "") : ""}
          error={reasonError}
          maxlength={MODERATION_REASON_MAX}
          autocomplete="off"
        />
        <button type="submit" aria-label={t.resolveOn(report.paper_title)}>
          {t.resolve}
        </button>
      </form>
    </article>
  );
}

export function ReportsSection({
  p,
  queue,
  state,
}: {
  p: Page;
  queue: ReportQueue;
  state: PageState;
}) {
  const t = p.t.reports.queue;
  return (
    <section aria-labelledby="reports-title" id="reports">
      <h2 id="reports-title">{t.title(queue.count)}</h2>
      <p>{t.explain}</p>
      {queue.reports.length === 0 ? (
        <p id="no-reports" class="muted">
          {t.none}
        </p>
      ) : null}
      {queue.reports.map((report) => (
        <ReportItem p={p} report={report} state={state} />
      ))}
      {queue.count > queue.reports.length ? (
        <p class="muted">{p.t.moderation.showing(queue.reports.length, queue.count)}</p>
      ) : null}
    </section>
  );
}
