/** @module The screening domain's public surface: what the front ends and publication call. */
export { type Fingerprint, fingerprint, NEAR_DUPLICATE_MAX_DISTANCE } from "./fingerprint.ts";
export {
  createHttpLlmScreener,
  type LlmReasonCode,
  type LlmScreener,
  LlmScreenerError,
  type LlmVerdict,
} from "./llm.ts";
export {
  byScreener,
  isRuleReasonCode,
  isSystemReasonCode,
  llmReasonParams,
  type ReasonParams,
  type RuleReasonCode,
  type RuleReasonParams,
  ruleReasonParams,
  type StoredReason,
  type SystemReasonCode,
  type SystemReasonParams,
  storedReasons,
  systemReasonParams,
} from "./reasons.ts";
export {
  type DuplicateEvidence,
  RULE_SCREENER_ID,
  SCREENING_LIMITS,
  type ScreeningInput,
  type ScreeningOutcome,
  screenRules,
} from "./rules.ts";
