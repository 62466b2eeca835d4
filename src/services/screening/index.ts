/** @module The screening domain's public surface: what the front ends call. */
export { createHttpLlmScreener, type LlmReasonCode } from "./llm.ts";
export {
  isRuleReasonCode,
  isSystemReasonCode,
  llmReasonParams,
  type ReasonParams,
  type RuleReasonCode,
  type RuleReasonParams,
  ruleReasonParams,
  type SystemReasonCode,
  type SystemReasonParams,
  systemReasonParams,
} from "./reasons.ts";
export type { ScreeningOutcome } from "./rules.ts";
