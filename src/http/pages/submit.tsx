/** @module /submit and /papers/:id/revise: the paper form, its preview, and screening outcomes. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import { Conflict, Forbidden, Invalid, NotFound, Unavailable } from "../../services/errors.ts";
import { BUNDLE_LIMITS, SourceRefused } from "../../services/files/index.ts";
import {
  getOwnPaper,
  revisePaper,
  SUBMISSION_LIMITS,
  type SubmissionResult,
  splitKeywords,
  submitPaper,
} from "../../services/papers/index.ts";
import type { ScreeningOutcome } from "../../services/screening/index.ts";
import type { AppEnv } from "../env.ts";
import type { FieldErrors } from "./form-errors.ts";
import { CsrfField, renderPage } from "./layout.tsx";
import { markdownRenderer } from "./markdown-lazy.ts";
import { type Page, type PageOptions, registerPage, renderError } from "./page.ts";
import { addressesField, chosenAddresses } from "./revise-addresses.tsx";
import { chosenSubjects, pickerValues } from "./subject-parts.tsx";
import {
  formatCount,
  PAPER_FORM_MAX_BYTES,
  PaperErrorSummary,
  PaperForm,
  PaperPreview,
  type PaperValues,
  paperFieldErrors,
  paperValues,
  ReasonList,
  reasonFieldErrors,
  signInFirst,
  statusText,
} from "./submit-parts.tsx";
import {
  formatBytes,
  readSourceUpload,
  refusalStatus,
  SOURCE_FIELD,
  sourceErrors,
} from "./submit-source.tsx";

interface FormState {
  status?: number;
  headers?: Record<string, string>;
  errors?: FieldErrors;
  preview?: boolean;
  /** A rejection: its reasons are listed above the form. */
  rejected?: ScreeningOutcome;
  /** The LLM screener gave no verdict on a new version: nothing was saved. */
  unavailable?: boolean;
  /** The name of a bundle sent with a preview (which does not read it). */
  bundleNotPreviewed?: string;
}

/** The frame of both forms: heading, lead, outcome or errors, preview, the form. */
async function formPage(
  p: Page,
  frame: { title: string; lead: Child; action: string; revising: boolean; addresses?: Child },
  values: PaperValues,
  state: FormState,
): Promise<Response> {
  let preview: { abstract: string; body: string } | undefined;
  if (state.preview) {
    const renderMarkdown = await markdownRenderer();
    preview = { abstract: renderMarkdown(values.abstract), body: renderMarkdown(values.body) };
  }
  const o = p.t.submit.outcome;
  const rejected = state.rejected;
  const errors = {
    ...(rejected ? reasonFieldErrors(p, rejected.reasons) : {}),
    ...(state.errors ?? {}),
  };
  const blocking = rejected?.reasons.filter((r) => r.severity === "reject") ?? [];
  const notes = rejected?.reasons.filter((r) => r.severity !== "reject") ?? [];
  return renderPage(p, {
    title: frame.title,
    status: state.status ?? 200,
    ...(state.headers ? { headers: state.headers } : {}),
    body: (
      <div class="paper-page">
        <h1>{frame.title}</h1>
        {frame.lead}
        {rejected ? (
          <section
            class="outcome outcome-rejected"
            id="outcome"
            role="alert"
            aria-labelledby="outcome-title"
          >
            <h2 id="outcome-title">{o.rejectedTitle}</h2>
            <p>{o.rejectedText}</p>
            <ReasonList p={p} reasons={blocking} id="rejection-reasons" />
            {notes.length > 0 ? (
              <>
                <p>{o.alsoWarnings}</p>
                <ReasonList p={p} reasons={notes} />
              </>
            ) : null}
          </section>
        ) : state.unavailable ? (
          <section
            class="outcome outcome-unavailable"
            id="outcome"
            role="alert"
            aria-labelledby="outcome-title"
          >
            <h2 id="outcome-title">{o.unavailableTitle}</h2>
            <p>{o.unavailableText}</p>
          </section>
        ) : (
          <PaperErrorSummary p={p} errors={errors} />
        )}
        {state.bundleNotPreviewed ? (
          <p class="notice" id="bundle-not-previewed">
            {p.t.submit.source.notPreviewed(state.bundleNotPreviewed)}
          </p>
        ) : null}
        {preview ? (
          <PaperPreview
            p={p}
            values={values}
            keywords={splitKeywords(values.keywords)}
            html={preview}
          />
        ) : null}
        <PaperForm
          p={p}
          action={frame.action}
          values={values}
          errors={errors}
          revising={frame.revising}
          addresses={frame.addresses}
        />
      </div>
    ),
  });
}

function submitFrame(p: Page) {
  const f = p.t.submit.form;
  return {
    title: f.title,
    lead: (
      <>
        <p class="lead">{f.intro}</p>
        <p>{f.screeningNote}</p>
      </>
    ),
    action: "/submit",
    revising: false,
  };
}

/** The revision form's frame, with the reviews of the version being revised to choose from. */
async function reviseFrame(
  p: Page,
  paper: { id: string; version: number },
  addressesError?: string,
) {
  const r = p.t.submit.revise;
  return {
    title: r.title(paper.id),
    lead: <p class="lead">{r.intro}</p>,
    action: `/papers/${paper.id}/revise`,
    revising: true,
    addresses: await addressesField(p, paper, p.form, addressesError),
  };
}

/** Signed in but not verified: why, and the way to the confirmation link. */
function unverifiedPage(p: Page, status = 200): Promise<Response> {
  const u = p.t.submit.unverified;
  return renderPage(p, {
    title: u.title,
    status,
    body: (
      <div class="narrow">
        <h1>{u.title}</h1>
        <p id="unverified-explanation">{u.text}</p>
        <form method="post" action={p.href("/verify-email/resend")}>
          <CsrfField p={p} />
          <button type="submit" class="secondary">
            {u.resend}
          </button>
        </form>
      </div>
    ),
  });
}

/** A page that only states why the action does not apply (409). */
export function cannotPage(p: Page, title: string, text: string): Promise<Response> {
  return renderPage(p, {
    title,
    status: 409,
    body: (
      <div class="narrow">
        <h1>{title}</h1>
        <p id="cannot-explanation">{text}</p>
        <p>
          <a href={p.href("/my/papers")}>{p.t.submit.paper.back}</a>
        </p>
      </div>
    ),
  });
}

/** The friendly 413 of a paper form: the bounds, nothing saved, go back. */
function tooLargePage(p: Page): Promise<Response> {
  const t = p.t.submit.tooLarge;
  const L = SUBMISSION_LIMITS;
  return renderPage(p, {
    title: t.title,
    status: 413,
    body: (
      <div class="narrow">
        <h1>{t.title}</h1>
        <p id="too-large-explanation">
          {t.text(
            formatCount(p, L.bodyMax),
            L.abstractMax,
            L.titleMax,
            formatBytes(p.t.meta.dateLocale, BUNDLE_LIMITS.compressedMax),
          )}
        </p>
        <p>{t.advice}</p>
        <p>
          <a href={p.href(p.path)}>{t.back}</a>
        </p>
      </div>
    ),
  });
}

const PAPER_FORM_OPTIONS: PageOptions = {
  maxFormBytes: PAPER_FORM_MAX_BYTES,
  tooLarge: tooLargePage,
  fileFields: [SOURCE_FIELD],
};

/** A preview reads no bundle: it says so, naming the file that was sent. */
function previewState(p: Page): FormState {
  const bundle = p.files[SOURCE_FIELD];
  return { preview: true, ...(bundle ? { bundleNotPreviewed: bundle.name || "?" } : {}) };
}

/** After a stored submission (published or held): the paper's own page says what happened. */
function afterStored(p: Page, result: SubmissionResult, notice: "submitted" | "revised") {
  if (result.outcome === "rejected") throw new Error("not stored");
  return p.c.redirect(`${p.href(`/my/papers/${result.paper_id}`)}?notice=${notice}`, 303);
}

const EMPTY: PaperValues = {
  title: "",
  abstract: "",
  body: "",
  ai_model: "",
  license: "CC-BY-4.0",
  keywords: "",
  changelog: "",
  subjects: pickerValues([]),
  main: "",
};

export function registerSubmitPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/submit", (p) => {
    if (!p.session) return signInFirst(p, "/submit");
    if (!p.session.owner.verified) return unverifiedPage(p);
    return formPage(p, submitFrame(p), EMPTY, {});
  });

  registerPage(
    app,
    "POST",
    "/submit",
    async (p) => {
      if (!p.session) return signInFirst(p, "/submit", 303);
      if (!p.session.owner.verified) return unverifiedPage(p, 403);
      const values = paperValues(p.form);
      if (p.form.intent === "preview") {
        return formPage(p, submitFrame(p), values, previewState(p));
      }
      let result: SubmissionResult;
      try {
        result = await submitPaper(p.ctx, {
          ...values,
          keywords: splitKeywords(values.keywords),
          subjects: chosenSubjects(values.subjects).subjects,
          source: await readSourceUpload(p, values.main),
        });
      } catch (error) {
        if (error instanceof SourceRefused) {
          return formPage(p, submitFrame(p), values, {
            status: refusalStatus(error.refusal),
            errors: sourceErrors(p, error.refusal),
          });
        }
        if (!(error instanceof Invalid)) throw error;
        return formPage(p, submitFrame(p), values, {
          status: 400,
          errors: paperFieldErrors(p, values, error.issues),
        });
      }
      if (result.outcome === "rejected") {
        return formPage(p, submitFrame(p), values, { status: 422, rejected: result.screening });
      }
      return afterStored(p, result, "submitted");
    },
    PAPER_FORM_OPTIONS,
  );

  registerPage(app, "GET", "/papers/:id/revise", async (p) => {
    const id = p.c.req.param("id") ?? "";
    if (!p.session) return signInFirst(p, `/papers/${id}/revise`);
    const paper = await ownPaperOr404(p, id);
    if (!paper) return renderError(p, 404);
    if (!p.session.owner.verified) return unverifiedPage(p);
    if (paper.status !== "published") {
      return cannotPage(
        p,
        p.t.submit.revise.title(paper.id),
        p.t.submit.revise.notPublished(statusText(p, paper.status)),
      );
    }
    return formPage(
      p,
      await reviseFrame(p, { id: paper.id, version: paper.version }),
      {
        title: paper.title,
        abstract: paper.current.abstract,
        body: paper.current.body,
        ai_model: paper.current.ai_model,
        license: paper.current.license,
        keywords: paper.current.keywords.join(", "),
        changelog: "",
        main: "",
        // A paper without subjects starts from the screener's suggestion, when there is one.
        subjects: pickerValues(
          paper.subjects.length > 0
            ? paper.subjects
            : paper.suggested_subject
              ? [paper.suggested_subject]
              : [],
        ),
      },
      {},
    );
  });

  registerPage(
    app,
    "POST",
    "/papers/:id/revise",
    async (p) => {
      const id = p.c.req.param("id") ?? "";
      if (!p.session) return signInFirst(p, `/papers/${id}/revise`, 303);
      const paper = await ownPaperOr404(p, id);
      if (!paper) return renderError(p, 404);
      if (!p.session.owner.verified) return unverifiedPage(p, 403);
      const frame = await reviseFrame(p, { id: paper.id, version: paper.version });
      const values = paperValues(p.form);
      if (p.form.intent === "preview") return formPage(p, frame, values, previewState(p));
      let result: SubmissionResult;
      try {
        result = await revisePaper(p.ctx, {
          ...values,
          keywords: splitKeywords(values.keywords),
          subjects: chosenSubjects(values.subjects).subjects,
          paperId: paper.id,
          addresses: chosenAddresses(p.form),
          source: await readSourceUpload(p, values.main),
        });
      } catch (error) {
        if (error instanceof SourceRefused) {
          return formPage(p, frame, values, {
            status: refusalStatus(error.refusal),
            errors: sourceErrors(p, error.refusal),
          });
        }
        if (error instanceof Invalid) {
          const errors = paperFieldErrors(p, values, error.issues);
          const withError = errors.addresses
            ? await reviseFrame(p, { id: paper.id, version: paper.version }, errors.addresses)
            : frame;
          return formPage(p, withError, values, { status: 400, errors });
        }
        if (error instanceof Unavailable) {
          return formPage(p, frame, values, {
            status: 503,
            unavailable: true,
            headers: { "retry-after": String(error.retryAfterSeconds ?? 60) },
          });
        }
        if (error instanceof Forbidden || error instanceof NotFound) return renderError(p, 404);
        if (error instanceof Conflict) {
          const now = await ownPaperOr404(p, id);
          return cannotPage(
            p,
            frame.title,
            p.t.submit.revise.notPublished(statusText(p, now?.status ?? "withdrawn")),
          );
        }
        throw error;
      }
      if (result.outcome === "rejected") {
        return formPage(p, frame, values, { status: 422, rejected: result.screening });
      }
      return afterStored(p, result, "revised");
    },
    PAPER_FORM_OPTIONS,
  );
}

/** The signed-in owner's paper, or null: someone else's paper is as unknown as no paper. */
export async function ownPaperOr404(p: Page, id: string) {
  try {
    return await getOwnPaper(p.ctx, { id });
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}
