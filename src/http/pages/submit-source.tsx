/**
 * @module The paper forms' source bundle: the file input with what a bundle may hold (from
 * the files domain's limits, never restated), whether this server converts LaTeX, and each
 * refusal worded in the reader's language.
 */
import {
  BUNDLE_LIMITS,
  FIGURE_TYPES,
  SOURCE_TYPES,
  type SourceRefusal,
  SUPPLEMENTARY_TYPES,
} from "../../services/files/index.ts";
import type { SourceUpload } from "../../services/papers/index.ts";
import type { FieldErrors } from "./form-errors.ts";
import type { Page } from "./page.ts";

/** The form field that carries the bundle (multipart file). */
export const SOURCE_FIELD = "source";

/** Bytes as a reader of `locale` reads them: 20 MiB, 512 KiB, 1,5 MiB. */
export function formatBytes(locale: string, bytes: number): string {
  const mib = 1024 * 1024;
  const [value, unit] = bytes >= mib ? [bytes / mib, "MiB"] : [bytes / 1024, "KiB"];
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return `${number.format(value)} ${unit}`;
}

function extensions(types: Record<string, string>): string {
  return Object.keys(types)
    .map((ext) => `.${ext}`)
    .join(", ");
}

/** The bundle's bytes and named main file, or undefined when no file was chosen. */
export async function readSourceUpload(p: Page, main: string): Promise<SourceUpload | undefined> {
  const file = p.files[SOURCE_FIELD];
  if (!file) return undefined;
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    ...(main.trim() ? { main: main.trim() } : {}),
  };
}

/** The status a refusal answers with: too large 413, both a body and a bundle 400, else 422. */
export function refusalStatus(refusal: SourceRefusal): 400 | 413 | 422 {
  if (refusal.code === "too_large") return 413;
  if (refusal.code === "body_and_source") return 400;
  return 422;
}

/** A refusal in the page's language; the converter's own message is quoted as it is. */
function refusalText(p: Page, refusal: SourceRefusal): string {
  const r = p.t.submit.source.refusals;
  const size = (n: number) => formatBytes(p.t.meta.dateLocale, n);
  switch (refusal.code) {
    case "too_large":
      return r.too_large(size(refusal.max));
    case "not_archive":
      return r.not_archive;
    case "unreadable":
      return r.unreadable(refusal.format, refusal.detail);
    case "empty":
      return r.empty;
    case "bad_path":
      return refusal.why === "long"
        ? r.bad_path.long(refusal.path, BUNDLE_LIMITS.pathMax)
        : r.bad_path[refusal.why](refusal.path);
    case "too_many_entries":
      return r.too_many_entries(refusal.max);
    case "file_too_large":
      return r.file_too_large(refusal.path, size(refusal.max));
    case "total_too_large":
      return r.total_too_large(size(refusal.max));
    case "duplicate":
      return r.duplicate(refusal.path);
    case "not_plain_file":
      return r.not_plain_file(refusal.path);
    case "unknown_types":
      return r.unknown_types(refusal.paths.join(", "));
    case "too_many_files":
      return r.too_many_files(refusal.max);
    case "main_missing":
      return r.main_missing(refusal.path);
    case "no_main":
      return r.no_main;
    case "several_main":
      return r.several_main(refusal.paths.join(", "));
    case "figure_missing":
      return r.figure_missing(refusal.path);
    case "bad_figure":
      return refusal.kind === "mismatch"
        ? r.bad_figure.mismatch(refusal.path, refusal.detail)
        : r.bad_figure[refusal.kind](refusal.path);
    case "latex_unavailable":
      return r.latex_unavailable;
    case "converter":
      return refusal.timeout ? r.timeout(refusal.seconds) : r.converter(refusal.detail);
    case "no_text":
      return r.no_text(refusal.path);
    case "not_latex":
      return r.not_latex;
    case "body_and_source":
      return r.body_and_source;
  }
}

/** The refusal beside the file input (and in the error summary), with "nothing was saved". */
export function sourceErrors(p: Page, refusal: SourceRefusal): FieldErrors {
  return { [SOURCE_FIELD]: `${refusalText(p, refusal)} ${p.t.submit.source.chooseAgain}` };
}

/**
 * The file input, the main file, whether LaTeX is converted here (the server's converter,
 * as /readyz reports it), and what a bundle may hold, rendered from BUNDLE_LIMITS and the
 * type lists.
 */
export function SourceField({
  p,
  main,
  errors,
  revising,
}: {
  p: Page;
  main: string;
  errors: FieldErrors;
  revising: boolean;
}) {
  const s = p.t.submit.source;
  const L = BUNDLE_LIMITS;
  const error = errors[SOURCE_FIELD];
  const latex = p.ctx.latex;
  const described = [
    "paper-source-hint",
    latex ? "" : "latex-missing",
    error ? "paper-source-error" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <fieldset class="source-bundle" id="source-bundle">
      <legend>{s.label}</legend>
      <p class="hint" id="paper-source-hint">
        {revising ? `${s.hint} ${s.reviseHint}` : s.hint}
      </p>
      {latex ? (
        <p class="hint" id="latex-time">
          {s.latexTime(latex.timeoutSeconds)}
        </p>
      ) : (
        <p class="warning" id="latex-missing">
          {s.latexMissing}
        </p>
      )}
      {error ? (
        <p class="field-error" id="paper-source-error">
          {error}
        </p>
      ) : null}
      <div class="field">
        <label for="paper-source">{s.file}</label>
        <input
          type="file"
          id="paper-source"
          name={SOURCE_FIELD}
          accept=".zip,.tar.gz,.tgz"
          aria-describedby={described}
          aria-invalid={error ? "true" : undefined}
        />
      </div>
      <details class="bundle-contents" id="bundle-contents">
        <summary>{s.contents}</summary>
        <ul>
          <li>{s.figures(extensions(FIGURE_TYPES))}</li>
          <li>{s.supplementary(extensions(SUPPLEMENTARY_TYPES))}</li>
          <li>{s.sources(extensions(SOURCE_TYPES))}</li>
          <li id="bundle-sizes">
            {s.sizes(
              formatBytes(p.t.meta.dateLocale, L.compressedMax),
              formatBytes(p.t.meta.dateLocale, L.fileMax),
              formatBytes(p.t.meta.dateLocale, L.totalMax),
            )}
          </li>
          <li>{s.counts(L.entriesMax, L.keptMax)}</li>
          <li>{s.others}</li>
        </ul>
      </details>
      <div class="field">
        <label for="paper-main">{s.main}</label>
        <p class="hint" id="paper-main-hint">
          {s.mainHint}
        </p>
        <input
          type="text"
          id="paper-main"
          name="main"
          value={main}
          maxlength={L.pathMax}
          autocomplete="off"
          aria-describedby="paper-main-hint"
        />
      </div>
    </fieldset>
  );
}
