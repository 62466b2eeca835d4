/** @module The "Report" link beside a paper, a comment or a review: a plain link to its report form. */
import type { ReportTarget } from "../../services/reports/index.ts";
import type { Page } from "./page.ts";

/** The report form's address for a target. */
export function reportPath(type: ReportTarget, id: string): string {
  return `/report/${type}/${encodeURIComponent(id)}`;
}

/** Named for screen readers by what it reports (and whose it is), since several share a page. */
export function ReportLink({
  p,
  type,
  id,
  author,
}: {
  p: Page;
  type: ReportTarget;
  id: string;
  author?: string;
}) {
  const t = p.t.reports;
  const label = type === "paper" ? t.actionOn.paper : t.actionOn[type](author ?? "");
  return (
    <p class="report-link">
      <a
        href={p.href(reportPath(type, id))}
        aria-label={label}
        rel="nofollow"
        id={type === "paper" ? "report-paper" : undefined}
      >
        {t.action}
      </a>
    </p>
  );
}
