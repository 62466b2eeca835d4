/**
 * @module What the pages share about subjects: names with codes, links to subject pages, the
 * submission picker (selects grouped by arXiv's groups, no JavaScript needed) and facet lists.
 */
import type { SubjectCount } from "../../services/papers/index.ts";
import {
  MAX_CROSS_LISTS,
  MAX_SUBJECTS,
  SUBJECT_GROUPS,
  subjectName,
} from "../../services/subjects/index.ts";
import type { FieldErrors } from "./form-errors.ts";
import type { Page } from "./page.ts";

/** A count in the page's language (reading-parts has the same; this file loads before it). */
function formatCount(p: Page, n: number): string {
  return new Intl.NumberFormat(p.t.meta.dateLocale).format(n);
}

/** A subject, group or archive named in the page's language, with its code. */
export function subjectLabel(p: Page, code: string): string {
  return p.t.subjects.label(subjectName(code, p.lang), code);
}

/** The subject's page. */
export function subjectHref(p: Page, code: string): string {
  return p.href(`/subjects/${encodeURIComponent(code)}`);
}

/** A paper's subjects, primary first, each linked to its page (nothing for none). */
export function SubjectList({ p, subjects }: { p: Page; subjects: readonly string[] }) {
  if (subjects.length === 0) return null;
  return (
    <ul class="subjects">
      {subjects.map((code, i) => (
        <li>
          <a href={subjectHref(p, code)} data-subject={code}>
            {subjectName(code, p.lang)} <code>{code}</code>
          </a>
          {i === 0 && subjects.length > 1 ? (
            <span class="muted"> ({p.t.subjects.paper.primary})</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The form fields of the picker: `subjects.0` is the primary, then the cross-lists. */
export const SUBJECT_FIELDS = Array.from({ length: MAX_SUBJECTS }, (_, i) => `subjects.${i}`);

/** The picker's values as posted: one per field, "" for an empty one. */
export function subjectValues(form: Record<string, string>): string[] {
  return SUBJECT_FIELDS.map((name) => (form[name] ?? "").trim());
}

/** A paper's subjects as the picker's values (primary first, empty fields after). */
export function pickerValues(subjects: readonly string[]): string[] {
  return SUBJECT_FIELDS.map((_, i) => subjects[i] ?? "");
}

/**
 * The chosen subjects in order, for the services, and the field each came from. Cross-lists
 * without a primary keep an empty primary, which the services refuse as an unknown code and
 * `subjectFieldErrors` words as "choose the primary first".
 */
export function chosenSubjects(values: readonly string[]): {
  subjects: string[];
  fields: string[];
} {
  const any = values.some((v) => v !== "");
  const chosen = SUBJECT_FIELDS.flatMap((field, i) => {
    const value = values[i] ?? "";
    return (i === 0 && any) || value !== "" ? [{ field, value }] : [];
  });
  return { subjects: chosen.map((c) => c.value), fields: chosen.map((c) => c.field) };
}

/**
 * Service issues about `subjects` / `subjects.N` (N counts the chosen subjects: see
 * `chosenSubjects`) as errors on the picker's fields, in the page's language.
 */
export function subjectFieldErrors(
  p: Page,
  issues: readonly { name: string; message: string }[],
  chosen: { subjects: readonly string[]; fields: readonly string[] },
): FieldErrors {
  const e = p.t.subjects.errors;
  const first = SUBJECT_FIELDS[0] as string;
  const out: FieldErrors = {};
  for (const issue of issues) {
    if (issue.name === "subjects") {
      out[first] ??= /at least/.test(issue.message) ? e.required : e.tooMany(MAX_SUBJECTS);
      continue;
    }
    const index = /^subjects\.(\d+)$/.exec(issue.name)?.[1];
    if (index === undefined) continue;
    const field = chosen.fields[Number(index)] ?? first;
    out[field] ??=
      chosen.subjects[Number(index)] === ""
        ? e.primaryFirst
        : /^repeats /.test(issue.message)
          ? e.repeated
          : e.unknown;
  }
  return out;
}

/** Whether a service issue is about the subjects (the picker words those). */
export function isSubjectIssue(issue: { name: string }): boolean {
  return issue.name === "subjects" || issue.name.startsWith("subjects.");
}

/** The id of a picker field's select (`paper-subjects-0`, …), for labels and error links. */
export function subjectFieldId(prefix: string, field: string): string {
  return `${prefix}-${field.replace(".", "-")}`;
}

/** One select: an empty choice, then every category under its group, named with its code. */
function SubjectSelect(props: {
  p: Page;
  id: string;
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  describedBy: string;
}) {
  const { p, value } = props;
  const described = [props.describedBy, props.error ? `${props.id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div class="field subject-field">
      <label for={props.id}>{props.label}</label>
      {props.error ? (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      ) : null}
      <select
        id={props.id}
        name={props.name}
        aria-describedby={described}
        aria-invalid={props.error ? "true" : undefined}
      >
        <option value="" selected={value === ""}>
          {p.t.subjects.picker.none}
        </option>
        {SUBJECT_GROUPS.map((group) => (
          <optgroup label={group.name[p.lang]}>
            {group.subjects.map((s) => (
              <option value={s.code} selected={value === s.code}>
                {p.t.subjects.label(s.name[p.lang], s.code)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}

/**
 * The submission picker: a primary subject and up to four cross-lists, each a plain select
 * (grouped with optgroup, names in the page's language, codes shown), so it works without
 * JavaScript and with any screen reader. A value the selects do not offer (a stale form, an
 * alias) is kept as posted, so the owner sees the error beside it.
 */
export function SubjectPicker({
  p,
  idPrefix,
  values,
  errors,
  revising,
  hint,
}: {
  p: Page;
  idPrefix: string;
  values: readonly string[];
  errors: FieldErrors;
  revising: boolean;
  /** Instead of the submission's hint (which says the subjects are optional). */
  hint?: string;
}) {
  const t = p.t.subjects.picker;
  const hintId = `${idPrefix}-subjects-hint`;
  return (
    <fieldset class="subject-picker" id={`${idPrefix}-subjects`}>
      <legend>{t.legend}</legend>
      <p class="hint" id={hintId}>
        {hint ?? t.hint(MAX_CROSS_LISTS)}
        {revising ? ` ${t.reviseHint}` : ""}
      </p>
      {SUBJECT_FIELDS.map((field, i) => (
        <SubjectSelect
          p={p}
          id={subjectFieldId(idPrefix, field)}
          name={field}
          label={i === 0 ? t.primary : t.cross(i)}
          value={values[i] ?? ""}
          error={errors[field]}
          describedBy={hintId}
        />
      ))}
    </fieldset>
  );
}

/**
 * Subjects with their counts as links ("cs.CL Computation and Language (12)"), the one being
 * shown marked as the current one.
 */
export function FacetList({
  p,
  id,
  label,
  counts,
  href,
  current,
}: {
  p: Page;
  id: string;
  label: string;
  counts: readonly SubjectCount[];
  href: (code: string) => string;
  current?: string | null;
}) {
  if (counts.length === 0) return null;
  return (
    <ul class="facets" id={id} aria-label={label}>
      {counts.map((c) => (
        <li>
          <a
            href={href(c.code)}
            data-subject={c.code}
            aria-current={current === c.code ? "true" : undefined}
          >
            <code>{c.code}</code> {subjectName(c.code, p.lang)} ({formatCount(p, c.count)})
          </a>
        </li>
      ))}
    </ul>
  );
}
