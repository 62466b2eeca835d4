/** @module The one way pages word a screening reason: a headline and a detail, in the page's language. */
import {
  isRuleReasonCode,
  isSystemReasonCode,
  llmReasonParams,
  type ReasonParams,
  type RuleReasonCode,
  type RuleReasonParams,
  ruleReasonParams,
  systemReasonParams,
} from "../../services/screening/index.ts";
import type { Messages } from "./i18n/index.ts";
import type { ReasonDetails } from "./i18n/screening.en.ts";
import type { Page } from "./page.ts";

/** A stored screening reason as pages receive it (params unchecked: they come from jsonb). */
export interface ShownReason {
  code: string;
  severity: "reject" | "warning";
  field: string | null;
  /** In English, as the screener wrote it. */
  message: string;
  params?: ReasonParams | undefined;
  /** `quire-rules/…` or `llm:<model>`, where the page knows it. */
  screener?: string | undefined;
}

export interface ReasonWords {
  /** What the reason is about, from the code; null for an unknown code on English pages. */
  headline: string | null;
  /** The specifics; null when the stored reason does not carry enough to word them. */
  detail: string | null;
}

/** A reason's headline in the page's language, or null when the catalog has none for it. */
export function reasonHeadline(t: Messages, code: string): string | null {
  const codes = t.submit.reasons.codes;
  return Object.hasOwn(codes, code) ? codes[code as keyof typeof codes] : null;
}

/** Where the screener is not known (a submission's combined outcome), codes tell. */
function fromLlm(reason: ShownReason): boolean {
  return reason.screener ? reason.screener.startsWith("llm:") : !isRuleReasonCode(reason.code);
}

function ruleDetail<C extends RuleReasonCode>(
  details: ReasonDetails,
  code: C,
  reason: ShownReason,
): string | null {
  const params = ruleReasonParams(code, reason.params);
  if (!params) return null;
  const format = details[code] as (params: RuleReasonParams[C], field: string | null) => string;
  return format(params, reason.field);
}

/**
 * English pages show the screeners' own (English) messages under the headline. Other
 * languages never show them: rule and system reasons are worded from their params (rows
 * stored before params get the headline alone), the model's reasons by the wording it gave
 * in that language or a sentence saying it explained itself only in English, and unknown
 * codes by a generic sentence.
 */
export function reasonWords(t: Messages, reason: ShownReason): ReasonWords {
  const headline = reasonHeadline(t, reason.code);
  const s = t.screening;
  if (s.written === "stored") return { headline, detail: reason.message };
  const { code } = reason;
  if (isSystemReasonCode(code)) {
    const detail =
      code === "llm_unavailable"
        ? withParams(systemReasonParams(code, reason.params), s.details.llm_unavailable)
        : withParams(systemReasonParams(code, reason.params), s.details.screening_error);
    return { headline: headline ?? s.unknownCode, detail };
  }
  if (fromLlm(reason)) {
    const params = llmReasonParams(reason.params);
    const detail =
      params.message_es ??
      (params.unexplained ? s.llmUnexplained[reason.severity] : s.llmOtherLanguage);
    return { headline: headline ?? reasonHeadline(t, "other"), detail };
  }
  if (isRuleReasonCode(code)) return { headline, detail: ruleDetail(s.details, code, reason) };
  return { headline: s.unknownCode, detail: null };
}

function withParams<T>(params: T | null, format: (params: T) => string): string | null {
  return params === null ? null : format(params);
}

/** A reason's headline (bold) and detail (muted, below); the detail alone when no headline. */
export function ReasonText({ p, reason }: { p: Page; reason: ShownReason }) {
  const { headline, detail } = reasonWords(p.t, reason);
  if (!headline) return <strong>{detail}</strong>;
  return (
    <>
      <strong>{headline}</strong>
      {detail ? (
        <>
          <br />
          <span class="muted">{detail}</span>
        </>
      ) : null}
    </>
  );
}
