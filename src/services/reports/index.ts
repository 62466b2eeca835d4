/** @module The reports domain's public surface: what the pages (and tests) call. */
export {
  fileReport,
  MAX_OPEN_READER_REPORTS_PER_TARGET,
  REPORT_ACTOR,
  type ReportOrigin,
  ReportQueueFull,
} from "./file.ts";
export { listOpenReports } from "./list-open.ts";
export { resolveReport } from "./resolve.ts";
export {
  type FiledReport,
  type FileReportInput,
  FileReportInputSchema,
  type OpenReport,
  REPORT_NOTE_MAX,
  REPORT_OUTCOMES,
  REPORT_REASONS,
  REPORT_TARGETS,
  type ReportOutcome,
  type ReportQueue,
  type ReportReason,
  type ReportTarget,
  type ReportTargetInput,
  type ResolvedReport,
  type ResolveReportInput,
  ResolveReportInputSchema,
} from "./schemas.ts";
export { getReportTarget, type ReportTargetView } from "./target.ts";
