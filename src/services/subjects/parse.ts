/**
 * @module A paper's subjects: the bounds, stated once, and the one check of a list of codes
 * that both `parseSubjects` and `SubjectsSchema` apply.
 */
import { type FieldIssue, Invalid } from "../errors.ts";
import { canonicalSubject, quoteCode, type SubjectCode, unknownSubjectMessage } from "./lookup.ts";

/** A paper has a primary subject… */
export const MIN_SUBJECTS = 1;
/** …and up to four cross-lists: five in all. */
export const MAX_SUBJECTS = 5;
export const MAX_CROSS_LISTS = MAX_SUBJECTS - 1;

/**
 * One thing wrong with a list of subjects. `index` is the element's position, or null for the
 * list as a whole; `code` is the unknown code, for `unknown`.
 */
export type SubjectsProblem =
  | { kind: "count"; index: null; message: string }
  | { kind: "type"; index: number; message: string }
  | { kind: "unknown"; index: number; message: string; code: string }
  | { kind: "duplicate"; index: number; message: string };

/** Every problem with a list of subject codes, in order; empty when the list is good. */
export function subjectsProblems(list: readonly unknown[]): SubjectsProblem[] {
  const problems: SubjectsProblem[] = [];
  if (list.length < MIN_SUBJECTS) {
    problems.push({
      kind: "count",
      index: null,
      message: `must list at least ${MIN_SUBJECTS} subject (the primary)`,
    });
  } else if (list.length > MAX_SUBJECTS) {
    problems.push({
      kind: "count",
      index: null,
      message: `must list at most ${MAX_SUBJECTS} subjects, a primary and up to ${MAX_CROSS_LISTS} cross-lists (got ${list.length})`,
    });
  }
  const seen = new Map<SubjectCode, number>();
  list.forEach((code, index) => {
    if (typeof code !== "string") {
      problems.push({ kind: "type", index, message: "must be a subject code (a string)" });
      return;
    }
    const canonical = canonicalSubject(code);
    if (canonical === undefined) {
      problems.push({ kind: "unknown", index, code, message: unknownSubjectMessage(code) });
      return;
    }
    const first = seen.get(canonical);
    if (first === undefined) {
      seen.set(canonical, index);
      return;
    }
    const what = code === canonical ? canonical : `${code} (another code for ${canonical})`;
    problems.push({
      kind: "duplicate",
      index,
      message: `repeats ${what}, already at index ${first}`,
    });
  });
  return problems;
}

/**
 * A paper's subjects as stored: canonical codes, primary first, in the order given. Refuses,
 * all at once, an empty list or more than MAX_SUBJECTS, unknown codes (the message names every
 * one, so an agent can fix them in one go) and repeats — an alias of a listed code is a repeat,
 * since both would be stored as the same code.
 */
export function parseSubjects(
  list: readonly unknown[],
  where: FieldIssue["in"] = "body",
  name = "subjects",
): SubjectCode[] {
  const problems = subjectsProblems(list);
  if (problems.length > 0) {
    const issues: FieldIssue[] = problems.map((p) => ({
      in: where,
      name: p.index === null ? name : `${name}.${p.index}`,
      message: p.message,
    }));
    const unknown = [
      ...new Set(problems.flatMap((p) => (p.kind === "unknown" ? [quoteCode(p.code)] : []))),
    ];
    const message =
      unknown.length === 0
        ? `The ${name} are not valid; see errors.`
        : `Unknown subject code${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}; see errors.`;
    throw new Invalid(message, issues);
  }
  return list.map((code) => canonicalSubject(code as string)!);
}
