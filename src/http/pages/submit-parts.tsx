/** @module Parts the submission pages share: the paper form, its preview, reasons, statuses, errors. */

import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { FieldIssue } from "../../services/errors.ts";
import { BUNDLE_LIMITS } from "../../services/files/index.ts";
import { SUBMISSION_LIMITS, SUGGESTED_LICENSES } from "../../services/papers/index.ts";
import type { FieldErrors } from "./form-errors.ts";
import { CsrfField, ErrorSummary } from "./layout.tsx";
import type { Page } from "./page.ts";
import { ReasonText, reasonWords, type ShownReason } from "./screening-reasons.tsx";
import {
  chosenSubjects,
  isSubjectIssue,
  SUBJECT_FIELDS,
  SubjectList,
  SubjectPicker,
  subjectFieldErrors,
  subjectFieldId,
  subjectValues,
} from "./subject-parts.tsx";
import { SOURCE_FIELD, SourceField } from "./submit-source.tsx";

const PAPER_FIELDS = [
  "title",
  "abstract",
  "body",
  "ai_model",
  "license",
  "keywords",
  "changelog",
] as const;
type PaperField = (typeof PAPER_FIELDS)[number];
/**
 * The fields as typed, the subject picker's values (one per select, "" when empty) and the
 * source bundle's main file (the bundle itself is a file: browsers never send it back).
 */
export type PaperValues = Record<PaperField, string> & { subjects: string[]; main: string };

const L = SUBMISSION_LIMITS;

/**
 * The text of a paper form at its largest: every field at its bound, at four bytes a
 * character (UTF-8's worst case, as the multipart form sends it), plus room for field
 * names, boundaries and the CSRF token.
 */
const PAPER_TEXT_MAX_BYTES =
  4 *
    (L.titleMax +
      L.abstractMax +
      L.bodyMax +
      L.aiModelMax +
      L.licenseMax +
      L.keywordsMax * (L.keywordMax + 2) +
      L.changelogMax) +
  64 * 1024;

/**
 * The largest body a paper form accepts (its own cap: every other page keeps MAX_FORM_BYTES):
 * the text at its largest, and a source bundle at its bound (BUNDLE_LIMITS.compressedMax)
 * with its part's headers. Any valid paper fits; a much larger body is refused before it is
 * read.
 */
export const PAPER_FORM_MAX_BYTES = PAPER_TEXT_MAX_BYTES + BUNDLE_LIMITS.compressedMax + 4096;

/** The form's values as typed; textarea line ends (CRLF from browsers) become `\n`. */
export function paperValues(form: Record<string, string>): PaperValues {
  const out = { subjects: subjectValues(form), main: form.main ?? "" } as PaperValues;
  for (const field of PAPER_FIELDS) out[field] = (form[field] ?? "").replace(/\r\n?/g, "\n");
  return out;
}

export function formatCount(p: Page, n: number): string {
  return new Intl.NumberFormat(p.t.meta.dateLocale).format(n);
}

/**
 * Where to go when signed out: the sign-in page, coming back here afterwards. `next` is
 * percent-encoded (slashes kept), so any path it came from makes a well-formed Location.
 */
export function signInFirst(p: Page, next: string, status: 302 | 303 = 302): Response {
  const query = `notice=sign-in-needed&next=${encodeURIComponent(next).replace(/%2F/g, "/")}`;
  return p.c.redirect(`${p.href("/sign-in")}?${query}`, status);
}

function length(s: string): number {
  return Array.from(s.trim()).length;
}

/** Field issues from the services, in the page's language, computed from what was typed. */
export function paperFieldErrors(
  p: Page,
  values: PaperValues,
  issues: readonly FieldIssue[],
): FieldErrors {
  const e = p.t.submit.errors;
  const out: FieldErrors = subjectFieldErrors(
    p,
    issues.filter(isSubjectIssue),
    chosenSubjects(values.subjects),
  );
  const bounded = (value: string, min: number, max: number) =>
    length(value) === 0 ? e.required : length(value) < min ? e.tooShort(min) : e.tooLong(max);
  for (const issue of issues) {
    const name = issue.name as PaperField;
    if (out[name] || isSubjectIssue(issue)) continue;
    if (/NUL/.test(issue.message)) {
      out[name] = e.nul;
      continue;
    }
    switch (name) {
      case "title":
        out.title = /single line/.test(issue.message)
          ? e.singleLine
          : bounded(values.title, L.titleMin, L.titleMax);
        break;
      case "abstract":
        out.abstract = bounded(values.abstract, L.abstractMin, L.abstractMax);
        break;
      case "body":
        out.body = e.tooLong(L.bodyMax);
        break;
      case "ai_model":
        out.ai_model = bounded(values.ai_model, 1, L.aiModelMax);
        break;
      case "license":
        out.license = bounded(values.license, 1, L.licenseMax);
        break;
      case "keywords":
        out.keywords = /keywords$/.test(issue.message)
          ? e.tooManyKeywords(L.keywordsMax)
          : e.keywordTooLong(L.keywordMax);
        break;
      case "changelog":
        out.changelog = bounded(values.changelog, 1, L.changelogMax);
        break;
      default:
        // The services' own words are English; a field this page does not know gets a
        // sentence in the page's language.
        out[issue.name] = e.invalid;
    }
  }
  return out;
}

/** Screening reasons, each worded for the page's language (see ReasonText). */
export function ReasonList({
  p,
  reasons,
  id,
}: {
  p: Page;
  reasons: readonly ShownReason[];
  id?: string;
}) {
  if (reasons.length === 0) return null;
  return (
    <ul class="screening-reasons" id={id}>
      {reasons.map((reason) => (
        <li class={`screening-reason screening-reason-${reason.severity}`} data-code={reason.code}>
          <ReasonText p={p} reason={reason} />
        </li>
      ))}
    </ul>
  );
}

/** Rejecting reasons tied to a form field, shown beside that field. */
export function reasonFieldErrors(p: Page, reasons: readonly ShownReason[]): FieldErrors {
  const out: FieldErrors = {};
  for (const reason of reasons) {
    if (reason.severity !== "reject" || !reason.field) continue;
    if (!(PAPER_FIELDS as readonly string[]).includes(reason.field) || out[reason.field]) continue;
    const words = reasonWords(p.t, reason);
    out[reason.field] = words.headline ?? words.detail ?? reason.message;
  }
  return out;
}

/** A paper's state as the owner reads it (held, published with warnings, …). */
export function statusText(
  p: Page,
  status: "submitted" | "published" | "rejected" | "withdrawn" | "removed",
  screening?: "passed" | "warnings",
): string {
  const s = p.t.submit.status;
  return status === "published" && screening === "warnings"
    ? `${s.published} (${s.warnings})`
    : s[status];
}

interface InputProps {
  p: Page;
  name: PaperField;
  label: string;
  hint: string;
  values: PaperValues;
  errors: FieldErrors;
  maxlength: number;
  rows?: number;
  list?: string;
  required?: boolean;
}

/** A labelled input or textarea with its hint and error tied to it. */
function PaperInput(props: InputProps) {
  const id = `paper-${props.name}`;
  const error = props.errors[props.name];
  const described = [`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    name: props.name,
    maxlength: props.maxlength,
    required: props.required ?? true,
    "aria-describedby": described,
    "aria-invalid": error ? ("true" as const) : undefined,
  };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <p class="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {props.rows ? (
        <textarea {...common} rows={props.rows}>
          {props.values[props.name]}
        </textarea>
      ) : (
        <input
          {...common}
          type="text"
          value={props.values[props.name]}
          list={props.list}
          autocomplete="off"
        />
      )}
    </div>
  );
}

/**
 * The paper form (new paper, or new version with a changelog). Multipart, so a large body
 * travels as UTF-8 rather than tripled by URL encoding. Preview comes first in the tree, so
 * pressing Enter in a field previews instead of submitting.
 */
export function PaperForm({
  p,
  action,
  values,
  errors,
  revising,
  addresses,
}: {
  p: Page;
  action: string;
  values: PaperValues;
  errors: FieldErrors;
  revising: boolean;
  /** The revision form's choice of reviews this version addresses (revise-addresses.tsx). */
  addresses?: Child | undefined;
}) {
  const f = p.t.submit.form;
  const field = { p, values, errors };
  return (
    <form
      method="post"
      action={p.href(action)}
      enctype="multipart/form-data"
      id="paper-form"
      class="paper-form"
      novalidate
    >
      <CsrfField p={p} />
      {revising ? (
        <PaperInput
          {...field}
          name="changelog"
          label={f.changelog}
          hint={f.changelogHint(L.changelogMax)}
          maxlength={L.changelogMax}
          rows={4}
        />
      ) : null}
      {revising ? addresses : null}
      <PaperInput
        {...field}
        name="title"
        label={f.fieldTitle}
        hint={f.titleHint(L.titleMin, L.titleMax)}
        maxlength={L.titleMax}
      />
      <PaperInput
        {...field}
        name="abstract"
        label={f.abstract}
        hint={f.abstractHint(L.abstractMin, L.abstractMax)}
        maxlength={L.abstractMax}
        rows={7}
      />
      <PaperInput
        {...field}
        name="body"
        label={f.body}
        hint={f.bodyHint(formatCount(p, L.bodyMax))}
        maxlength={L.bodyMax}
        rows={24}
        required={false}
      />
      <SourceField p={p} main={values.main} errors={errors} revising={revising} />
      <PaperInput
        {...field}
        name="ai_model"
        label={f.aiModel}
        hint={f.aiModelHint}
        maxlength={L.aiModelMax}
      />
      <PaperInput
        {...field}
        name="license"
        label={f.license}
        hint={f.licenseHint}
        maxlength={L.licenseMax}
        list="license-suggestions"
      />
      <datalist id="license-suggestions">
        {SUGGESTED_LICENSES.map((l) => (
          <option value={l} />
        ))}
      </datalist>
      <PaperInput
        {...field}
        name="keywords"
        label={f.keywords}
        hint={f.keywordsHint(L.keywordsMax, L.keywordMax)}
        maxlength={L.keywordsMax * (L.keywordMax + 2)}
        required={false}
      />
      <SubjectPicker
        p={p}
        idPrefix="paper"
        values={values.subjects}
        errors={errors}
        revising={revising}
      />
      <p class="hint" id="paper-actions-hint">
        {f.actionsHint}
      </p>
      <div class="form-actions">
        <button
          type="submit"
          name="intent"
          value="preview"
          class="secondary"
          aria-describedby="paper-actions-hint"
        >
          {f.preview}
        </button>
        <button type="submit" name="intent" value="submit" aria-describedby="paper-actions-hint">
          {revising ? f.submitVersion : f.submit}
        </button>
      </div>
    </form>
  );
}

/** The paper as readers will see it: the AI label, title, abstract, keywords, body. */
export function PaperPreview({
  p,
  values,
  keywords,
  html,
}: {
  p: Page;
  values: PaperValues;
  keywords: string[];
  /** The abstract and body as HTML (renderMarkdown). */
  html: { abstract: string; body: string };
}) {
  const t = p.t.submit.preview;
  return (
    <section class="preview" id="preview" aria-labelledby="preview-title">
      <h2 id="preview-title">{t.title}</h2>
      <p class="muted">{t.note}</p>
      <article class="paper-preview">
        <p class="ai-label">
          <span class="badge">{t.aiLabel}</span>{" "}
          {values.ai_model ? t.writtenBy(values.ai_model) : null}
        </p>
        <p class="preview-title">{values.title}</p>
        {values.changelog.trim() ? (
          <p>
            <strong>{t.changelog}:</strong> {values.changelog}
          </p>
        ) : null}
        <h3>{t.abstract}</h3>
        <div class="preview-abstract">{raw(html.abstract)}</div>
        {keywords.length > 0 ? (
          <p>
            <strong>{t.keywords}:</strong> {keywords.join(", ")}
          </p>
        ) : null}
        {values.subjects.some((s) => s !== "") ? (
          <div class="preview-subjects">
            <strong>{p.t.subjects.paper.title}:</strong>
            <SubjectList p={p} subjects={values.subjects.filter((s) => s !== "")} />
          </div>
        ) : null}
        {values.body.trim() ? (
          <div class="preview-body">{raw(html.body)}</div>
        ) : (
          <p class="muted">{t.noBody}</p>
        )}
      </article>
    </section>
  );
}

/** The error summary for a paper form: each field's error, linking to the field. */
export function PaperErrorSummary({ p, errors }: { p: Page; errors: FieldErrors }) {
  return (
    <ErrorSummary
      p={p}
      errors={[
        ...PAPER_FIELDS.flatMap((f) => (f === "body" ? [f, SOURCE_FIELD] : [f]))
          .filter((f) => errors[f])
          .map((f) => ({
            field: `paper-${f}`,
            message: errors[f] as string,
          })),
        ...SUBJECT_FIELDS.filter((f) => errors[f]).map((f) => ({
          field: subjectFieldId("paper", f),
          message: errors[f] as string,
        })),
      ]}
    />
  );
}
