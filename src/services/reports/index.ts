/** @module The reports domain's public surface: what the pages (and tests) call. */
export {
  fileReport,
  MAX_OPEN_READER_REPORTS_PER_TARGET,
  REPORT_ACTOR,
  ReportQueueFull,
} from "./file.ts";
export { listOpenReports } from "./list-open.ts";
export { resolveReport } from "./resolve.ts";
export {
  type OpenReport,
  REPORT_NOTE_MAX,
  REPORT_OUTCOMES,
  REPORT_REASONS,
  REPORT_TARGETS,
  type ReportQueue,
  type ReportTarget,
} from "./schemas.ts";
export { getReportTarget, type ReportTargetView } from "./target.ts";
