/**
 * @module /moderation/papers/{id}/subjects: a moderator files a paper under other subjects,
 * with a reason for the log (services/moderation `setPaperSubjects`).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Invalid } from "../../../services/errors.ts";
import { MODERATION_REASON_MAX, setPaperSubjects } from "../../../services/moderation/index.ts";
import { getPaper, subjectSuggestion } from "../../../services/papers/index.ts";
import { MAX_CROSS_LISTS } from "../../../services/subjects/index.ts";
import type { AppEnv } from "../../env.ts";
import type { FieldErrors } from "../form-errors.ts";
import { CsrfField, ErrorSummary, Field, renderPage } from "../layout.tsx";
import { type Page, registerPage } from "../page.ts";
import {
  chosenSubjects,
  isSubjectIssue,
  pickerValues,
  SUBJECT_FIELDS,
  SubjectList,
  SubjectPicker,
  subjectFieldErrors,
  subjectFieldId,
  subjectLabel,
  subjectValues,
} from "../subject-parts.tsx";
import { guard, reasonError, SectionLinks } from "./parts.tsx";

const DONE = ["changed", "unchanged"] as const;

interface FormState {
  status?: number;
  values?: string[];
  reason?: string;
  errors?: FieldErrors;
}

/** Registered before the queue's `/moderation/papers/:id/:action`, which it would otherwise meet. */
export function registerSubjectModeration(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/moderation/papers/:id/subjects", (p) => {
    const id = p.c.req.param("id") ?? "";
    return guard(p, `/moderation/papers/${id}/subjects`) ?? subjectsPage(p, id);
  });

  registerPage(app, "POST", "/moderation/papers/:id/subjects", async (p) => {
    const id = p.c.req.param("id") ?? "";
    const blocked = guard(p, `/moderation/papers/${id}/subjects`);
    if (blocked) return blocked;
    const values = subjectValues(p.form);
    const chosen = chosenSubjects(values);
    const reason = p.form.reason ?? "";
    let changed: boolean;
    try {
      const result = await setPaperSubjects(p.ctx, {
        paperId: id,
        subjects: chosen.subjects,
        reason,
      });
      changed = result.event_id !== null;
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      const errors = subjectFieldErrors(p, error.issues.filter(isSubjectIssue), chosen);
      if (chosen.subjects.length === 0) {
        errors[SUBJECT_FIELDS[0] as string] = p.t.subjects.errors.required;
      }
      const reasonMessage = reasonError(p, error);
      if (reasonMessage) errors.reason = reasonMessage;
      return subjectsPage(p, id, { status: 400, values, reason, errors });
    }
    const done = changed ? "changed" : "unchanged";
    return p.c.redirect(`${p.href(`/moderation/papers/${id}/subjects`)}?done=${done}`, 303);
  });
}

async function subjectsPage(p: Page, id: string, state: FormState = {}): Promise<Response> {
  const { paper } = await getPaper(p.ctx, { id });
  const suggested = await subjectSuggestion(p.ctx, paper.id);
  const t = p.t.subjects.moderation;
  const errors = state.errors ?? {};
  const done = p.c.req.query("done");
  const action = `/moderation/papers/${paper.id}/subjects`;
  return renderPage(p, {
    title: t.title(paper.id),
    status: state.status ?? 200,
    body: (
      <div class="narrow">
        <SectionLinks p={p} />
        <h1>{t.title(paper.id)}</h1>
        {done && (DONE as readonly string[]).includes(done) ? (
          <p class="notice" role="status" id="notice">
            {done === "changed" ? t.done : t.unchanged}
          </p>
        ) : null}
        <p class="lead">{t.intro}</p>
        <p>
          <a href={p.href(`/papers/${paper.id}`)}>{paper.title}</a>
        </p>
        <h2>{t.now}</h2>
        {paper.subjects.length > 0 ? (
          <SubjectList p={p} subjects={paper.subjects} />
        ) : (
          <p class="muted">{t.none}</p>
        )}
        {suggested ? (
          <p class="suggested-subject" id="suggested-subject">
            {t.suggested(subjectLabel(p, suggested))}
          </p>
        ) : null}
        <ErrorSummary
          p={p}
          errors={[
            ...SUBJECT_FIELDS.filter((f) => errors[f]).map((f) => ({
              field: subjectFieldId("mod", f),
              message: errors[f] as string,
            })),
            ...(errors.reason ? [{ field: "mod-reason", message: errors.reason }] : []),
          ]}
        />
        <form method="post" action={p.href(action)} id="subjects-form">
          <CsrfField p={p} />
          <SubjectPicker
            p={p}
            idPrefix="mod"
            values={state.values ?? pickerValues(suggested ? [suggested] : paper.subjects)}
            errors={errors}
            revising={false}
            hint={t.pickerHint(MAX_CROSS_LISTS)}
          />
          <Field
            id="mod-reason"
            name="reason"
            label={t.reason}
            hint={p.t.moderation.actions.reasonHint(MODERATION_REASON_MAX)}
            value={state.reason ?? ""}
            error={errors.reason}
            maxlength={MODERATION_REASON_MAX}
            autocomplete="off"
          />
          <button type="submit">{t.submit}</button>
        </form>
      </div>
    ),
  });
}
