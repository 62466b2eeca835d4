/** @module The paper page's human review form: its states, score fields and field errors. */
import type { FieldIssue } from "../../../services/errors.ts";
import { CsrfField, ErrorSummary } from "../layout.tsx";
import type { Page } from "../page.ts";
import { SCORE_KEYS, SCORE_MAX, type ScoreKey } from "../reading-parts.tsx";
import type { PaperData, ReviewFormState } from "./data.ts";

export function ReviewForm({
  p,
  data,
  state,
}: {
  p: Page;
  data: PaperData;
  state: ReviewFormState | undefined;
}) {
  const t = p.t.reading.review;
  const { session } = p;
  const paperPath = `/papers/${data.ref}`;
  if (!session) {
    return (
      <div class="review-box" id="review-sign-in">
        <h3>{t.title}</h3>
        <p>{t.signInText}</p>
        <p>
          <a href={`${p.href("/sign-in")}?next=${encodeURIComponent(paperPath)}`}>{t.signIn}</a>
        </p>
      </div>
    );
  }
  if (!session.owner.verified) {
    return (
      <div class="review-box warning" id="review-unverified">
        <h3>{t.title}</h3>
        <p>{t.unverified}</p>
        <form method="post" action={p.href("/verify-email/resend")}>
          <CsrfField p={p} />
          <button type="submit" class="secondary">
            {t.resend}
          </button>
        </form>
      </div>
    );
  }
  if (data.detail.paper.owner_handle === session.owner.handle) {
    return (
      <div class="review-box" id="review-own-paper">
        <h3>{t.title}</h3>
        <p>{t.ownPaper}</p>
      </div>
    );
  }
  const errors = state?.errors ?? {};
  const summary: { field?: string; message: string }[] = [];
  if (state?.general) summary.push({ message: state.general });
  for (const [field, message] of Object.entries(errors)) {
    if (message) summary.push({ field: `review-${field}`, message });
  }
  const form = p.form;
  return (
    <div class="review-box" id="review-form-box">
      <h3 id="review-form-title">{t.title}</h3>
      <p>{t.intro}</p>
      <ErrorSummary p={p} errors={summary} />
      <form
        method="post"
        action={p.href(`${paperPath}/reviews`)}
        id="review-form"
        aria-labelledby="review-form-title"
        class="narrow"
        novalidate
      >
        <CsrfField p={p} />
        {SCORE_KEYS.map((key) => (
          <ScoreSelect p={p} name={key} value={form[key] ?? ""} error={errors[key]} />
        ))}
        <div class="field">
          <label for="review-body">{t.body}</label>
          <p class="hint" id="review-body-hint">
            {t.bodyHint}
          </p>
          {errors.body ? (
            <p class="field-error" id="review-body-error">
              {errors.body}
            </p>
          ) : null}
          <textarea
            id="review-body"
            name="body"
            rows={10}
            required
            aria-describedby={
              errors.body ? "review-body-hint review-body-error" : "review-body-hint"
            }
            aria-invalid={errors.body ? "true" : undefined}
          >
            {form.body ?? ""}
          </textarea>
        </div>
        <button type="submit">{t.submit}</button>
      </form>
    </div>
  );
}

function ScoreSelect({
  p,
  name,
  value,
  error,
}: {
  p: Page;
  name: ScoreKey;
  value: string;
  error: string | undefined;
}) {
  const t = p.t.reading.review;
  const max = SCORE_MAX[name];
  const id = `review-${name}`;
  const hint = name === "confidence" ? t.confidenceHint : t.scaleHint(max);
  return (
    <div class="field">
      <label for={id}>{p.t.reading.paper.scoreNames[name]}</label>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <select
        id={id}
        name={name}
        required
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? "true" : undefined}
      >
        <option value="">{t.choose}</option>
        {Array.from({ length: max }, (_, i) => String(i + 1)).map((n) => (
          <option value={n} selected={n === value}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Form strings to the service's input: digits become numbers; anything else stays and fails. */
export function reviewInput(form: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { body: form.body ?? "" };
  for (const key of SCORE_KEYS) {
    const raw = (form[key] ?? "").trim();
    if (raw !== "") out[key] = /^\d{1,3}$/.test(raw) ? Number(raw) : raw;
  }
  return out;
}

export function reviewErrors(p: Page, issues: readonly FieldIssue[]): ReviewFormState["errors"] {
  const t = p.t.reading.review;
  const errors: ReviewFormState["errors"] = {};
  for (const issue of issues) {
    const name = issue.name as ScoreKey | "body";
    if (errors[name]) continue;
    if ((SCORE_KEYS as readonly string[]).includes(name)) {
      errors[name] = t.scoreError(SCORE_MAX[name as ScoreKey]);
    } else if (name === "body") {
      errors.body = (p.form.body ?? "").trim() === "" ? t.bodyEmpty : t.bodyLong;
    }
  }
  return errors;
}
