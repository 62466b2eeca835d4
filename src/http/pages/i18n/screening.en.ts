/** @module How screening reasons are worded per language; English pages show the screeners' own messages. */
import type {
  RuleReasonCode,
  RuleReasonParams,
  SystemReasonCode,
  SystemReasonParams,
} from "../../../services/screening/index.ts";

/**
 * A detail sentence for every reason code the archive itself emits, from the reason's
 * params. Typed over the code unions, so a rule added without its wording fails the type
 * check. `field` is the reason's field (`title`, `keywords`, …) or null.
 */
export type ReasonDetails = {
  [C in RuleReasonCode]: (params: RuleReasonParams[C], field: string | null) => string;
} & {
  [C in SystemReasonCode]: (params: SystemReasonParams[C]) => string;
};

export type ScreeningMessages =
  /** The screeners write in this language: pages show their stored messages. */
  | { written: "stored" }
  /** Pages word each reason from its code and params with these. */
  | {
      written: "catalog";
      details: ReasonDetails;
      /** An LLM reason without a message in this language. */
      llmOtherLanguage: string;
      /** The model flagged or rejected without giving any reason. */
      llmUnexplained: { reject: string; warning: string };
      /** A reason code this catalog does not know (a future screener's, an old one). */
      unknownCode: string;
    };

export const screeningEn: ScreeningMessages = { written: "stored" };
