/** @module What an owner submits (a paper or a new version): fields, bounds and their checks. */
import type { FieldIssue } from "../errors.ts";
import { Invalid } from "../errors.ts";
import { SCREENING_LIMITS } from "../screening/index.ts";
import { subjectsProblems } from "../subjects/index.ts";
import { CHANGELOG_MAX } from "./publish.ts";

/**
 * Bounds of a submission, in Unicode code points (titles, abstracts and keywords after
 * trimming). They are the rule screener's, so a form built from them and the screener can
 * never disagree; the changelog's are publishVersion's.
 */
export const SUBMISSION_LIMITS = {
  titleMin: SCREENING_LIMITS.titleMin,
  titleMax: SCREENING_LIMITS.titleMax,
  abstractMin: SCREENING_LIMITS.abstractMin,
  abstractMax: SCREENING_LIMITS.abstractMax,
  bodyMax: SCREENING_LIMITS.bodyMax,
  aiModelMax: SCREENING_LIMITS.aiModelMax,
  licenseMax: SCREENING_LIMITS.licenseMax,
  keywordsMax: SCREENING_LIMITS.keywordsMax,
  keywordMax: SCREENING_LIMITS.keywordMax,
  changelogMax: CHANGELOG_MAX,
} as const;

/** Licenses offered first on the form; any other identifier or URL is accepted too. */
export const SUGGESTED_LICENSES = [
  "CC-BY-4.0",
  "CC-BY-SA-4.0",
  "CC-BY-NC-4.0",
  "CC-BY-NC-SA-4.0",
  "CC-BY-ND-4.0",
  "CC0-1.0",
  "MIT",
  "Apache-2.0",
] as const;

export interface SubmissionFields {
  title: string;
  abstract: string;
  /** Markdown. */
  body: string;
  ai_model: string;
  license: string;
  keywords: string[];
  /**
   * Subject codes, the primary first (services/subjects). Empty or absent: a new paper has
   * none, a new version keeps the paper's (a paper's subjects are never emptied by a form).
   */
  subjects?: readonly string[] | undefined;
}

function length(s: string): number {
  return Array.from(s).length;
}

/** Keywords as typed in one field: split on commas, trimmed, blanks dropped, duplicates once. */
export function splitKeywords(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Checks the form-level bounds and lists every failure (nothing is stored for them: they
 * are typing mistakes, not screening decisions). Content judgements — prose, language,
 * duplicates, injections, secrets, the LLM's verdict — are the screeners' and are recorded.
 */
export function checkSubmission(
  fields: SubmissionFields & { changelog?: string | null },
  options: { changelogRequired: boolean },
): void {
  const L = SUBMISSION_LIMITS;
  const issues: FieldIssue[] = [];
  const issue = (name: string, message: string) => issues.push({ in: "body", name, message });
  const bounded = (name: string, value: string, min: number, max: number) => {
    const n = length(value.trim());
    if (n === 0 && min > 0) issue(name, "is required");
    else if (n < min) issue(name, `must be at least ${min} characters`);
    else if (n > max) issue(name, `must be at most ${max} characters`);
  };
  bounded("title", fields.title, L.titleMin, L.titleMax);
  if (/[\r\n\u2028\u2029]/.test(fields.title.trim())) issue("title", "must be a single line");
  bounded("abstract", fields.abstract, L.abstractMin, L.abstractMax);
  if (length(fields.body) > L.bodyMax) issue("body", `must be at most ${L.bodyMax} characters`);
  bounded("ai_model", fields.ai_model, 1, L.aiModelMax);
  bounded("license", fields.license, 1, L.licenseMax);
  if (fields.keywords.length > L.keywordsMax) {
    issue("keywords", `must be at most ${L.keywordsMax} keywords`);
  } else if (fields.keywords.some((k) => length(k.trim()) > L.keywordMax)) {
    issue("keywords", `each keyword must be at most ${L.keywordMax} characters`);
  }
  if (options.changelogRequired) {
    bounded("changelog", fields.changelog ?? "", 1, L.changelogMax);
  }
  // The same check publishVersion applies (parseSubjects), run here so a form gets its
  // subject mistakes listed with every other field's.
  for (const p of fields.subjects?.length ? subjectsProblems(fields.subjects) : []) {
    issue(p.index === null ? "subjects" : `subjects.${p.index}`, p.message);
  }
  if (issues.length > 0) throw new Invalid("The submission is not valid; see errors.", issues);
}
