/** @module Reader reports' inputs (a reason from a short list, an optional bounded note) and what the queue returns. */
import { z } from "zod";
import { ID_MAX_CHARS, IdInputSchema } from "../ids.ts";
import { ModerationReasonSchema } from "../moderation/index.ts";
import { PageSizeSchema } from "../paging.ts";
import { text } from "../text.ts";

/** What a reader can report: a paper, one of its comments, one of its reviews. */
export const REPORT_TARGETS = ["paper", "comment", "review"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

/** The short fixed list a reader picks from; pages word each in their language. */
export const REPORT_REASONS = [
  "spam",
  "plagiarism",
  "fabrication",
  "abuse",
  "personal_data",
  "other",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** How a moderator closes a report: something was done about it, or nothing needed doing. */
export const REPORT_OUTCOMES = ["actioned", "dismissed"] as const;
type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** A note is optional (required for "other"), in code points like every bound here. */
export const REPORT_NOTE_MAX = 1000;

export const ReportTargetInputSchema = z.object({
  targetType: z.enum(REPORT_TARGETS),
  /** `2611.00042` (a version suffix is ignored: a report is about the paper), `cmt_…`, `rev_…`. */
  targetId: IdInputSchema,
});
export type ReportTargetInput = z.input<typeof ReportTargetInputSchema>;

export const FileReportInputSchema = ReportTargetInputSchema.extend({
  reason: z.enum(REPORT_REASONS, { message: "must be one of the listed reasons" }),
  note: text("body")
    .pipe(
      z
        .string()
        .trim()
        .refine((s) => [...s].length <= REPORT_NOTE_MAX, {
          message: `must be at most ${REPORT_NOTE_MAX} characters`,
        }),
    )
    .optional(),
}).superRefine((input, issues) => {
  if (input.reason === "other" && !input.note) {
    issues.addIssue({
      code: "custom",
      path: ["note"],
      message: "is required when the reason is other",
    });
  }
});
export type FileReportInput = z.input<typeof FileReportInputSchema>;

export const ListReportsInputSchema = z.object({
  limit: PageSizeSchema,
});
export type ListReportsInput = z.input<typeof ListReportsInputSchema>;

export const ResolveReportInputSchema = z.object({
  reportId: z.string().max(ID_MAX_CHARS),
  outcome: z.enum(REPORT_OUTCOMES, { message: "must be actioned or dismissed" }),
  /** The moderator's reason, recorded in the log: the same rule as every moderation reason. */
  reason: ModerationReasonSchema,
});
export type ResolveReportInput = z.input<typeof ResolveReportInputSchema>;

/** Report ids as `newId("rpt")` makes them; anything else cannot name a report. */
export const REPORT_ID = /^rpt_[0-9A-Za-z]{22}$/;

export interface FiledReport {
  id: string;
  target_type: ReportTarget;
  target_id: string;
  paper_id: string;
  status: "open";
  created_at: string;
}

export interface OpenReport {
  id: string;
  target_type: ReportTarget;
  target_id: string;
  paper_id: string;
  /** The paper's current title, so a moderator knows what it is about before opening it. */
  paper_title: string;
  /** The start of the reported comment or review (null for a paper). */
  excerpt: string | null;
  reason: ReportReason;
  note: string | null;
  /** The signed-in reader's handle; null for a reader who was not signed in. */
  reporter_handle: string | null;
  created_at: string;
}

export interface ReportQueue {
  count: number;
  reports: OpenReport[];
}

export interface ResolvedReport {
  id: string;
  status: "resolved";
  outcome: ReportOutcome;
  event_id: string;
}
