/** @module The specifics each screening reason records beside its English message, so pages can word it in any language. */
import { z } from "zod";

/** What a stored reason may carry in `params`: plain JSON values, nothing nested. */
export type ReasonParams = Record<string, string | number | boolean | string[] | number[]>;

const count = z.number().int().nonnegative();
/** Submitted text as the rules quote it: secrets redacted, one line, truncated to 80. */
const quoted = z.string().max(200);
const none = z.object({});
const bounds = {
  atLeast: z.object({ min: count, length: count }),
  atMost: z.object({ max: count, length: count }),
};
/** Which keyword (1-based) a reason is about, when its field is `keywords`. */
const keyword = count.min(1).optional();

/**
 * The params of every code the rule screener emits. The keys are the `RuleReasonCode`
 * union, so a catalog typed `Record<RuleReasonCode, …>` fails the type check when a rule is
 * added without its wording.
 */
const RULE_REASON_PARAMS = {
  title_missing: none,
  title_too_short: bounds.atLeast,
  title_too_long: bounds.atMost,
  title_multiline: none,
  abstract_missing: none,
  abstract_too_short: bounds.atLeast,
  abstract_too_long: bounds.atMost,
  body_too_long: bounds.atMost,
  /** `length` 0 is an empty body; `min` is the length under which a body counts as short. */
  body_short: bounds.atLeast,
  no_sections: none,
  ai_model_missing: none,
  ai_model_too_long: bounds.atMost,
  license_missing: none,
  license_too_long: bounds.atMost,
  too_many_keywords: z.object({ max: count, count }),
  /** `positions`: the first ten bad keywords (1-based); `count`: how many are bad. */
  keyword_invalid: z.object({ max: count, positions: z.array(count).max(10), count }),
  /** Percentages of letters among visible characters. */
  not_prose: z.object({ percent: count, min_percent: count }),
  repeated_lines: z.object({ line: quoted, count, lines: count }),
  language_undetermined: none,
  /** BCP 47 codes of the title+abstract and of the body. */
  language_mismatch: z.object({ front: z.string().max(20), body: z.string().max(20) }),
  duplicate: z.object({ paper_id: z.string().max(100) }),
  /** The closest five papers, closest first; `count`: how many there are in all. */
  near_duplicate: z.object({ paper_ids: z.array(z.string().max(100)).max(5), count }),
  /**
   * `match`: code points (`U+200B ×3`) or the hiding markup; `position`: its 1-based
   * character; `count`: places in all; `kinds`: pattern codes such as `hidden_zero_width`.
   */
  hidden_text: z.object({
    keyword,
    match: quoted,
    position: count,
    count,
    kinds: z.array(z.string().max(40)).max(10),
  }),
  /** Up to three distinct phrases with their positions; `count`: matches in all. */
  prompt_injection: z.object({
    keyword,
    matches: z.array(quoted).max(3),
    positions: z.array(count).max(3),
    count,
    /** A chat-template control token was among them (the message adds advice). */
    template_token: z.boolean(),
  }),
  mentions_prompt_injection: z.object({
    keyword,
    matches: z.array(quoted).max(3),
    positions: z.array(count).max(3),
    count,
  }),
  /** `kinds`: secret pattern codes (`github_token`, …); `match` is already redacted. */
  secret: z.object({
    keyword,
    kinds: z.array(z.string().max(40)).max(20),
    match: quoted,
    position: count,
    count,
  }),
} as const;

export type RuleReasonCode = keyof typeof RULE_REASON_PARAMS;
export type RuleReasonParams = {
  [C in RuleReasonCode]: z.infer<(typeof RULE_REASON_PARAMS)[C]>;
};
export const RULE_REASON_CODES = Object.keys(RULE_REASON_PARAMS) as RuleReasonCode[];

/** Why the LLM screener gave no verdict, as `llm_unavailable` records it. */
const LLM_PROBLEMS = [
  "http_status",
  "timeout",
  "unreachable",
  "invalid_answer",
  "failed",
  "unexpected",
] as const;
export type LlmProblem = (typeof LLM_PROBLEMS)[number];

/** Reasons publication itself adds, beside the rules' and the model's own. */
const SYSTEM_REASON_PARAMS = {
  /** The rule screener failed internally; the message is fixed. */
  screening_error: none,
  llm_unavailable: z.object({
    /** `llm:<model>`. */
    screener: z.string().max(200),
    problem: z.enum(LLM_PROBLEMS),
    /** The HTTP status of the last answer, for `http_status`. */
    status: z.number().int().min(100).max(599).optional(),
    /** The per-attempt timeout, for `timeout`. */
    timeout_ms: count.optional(),
    attempts: count.optional(),
  }),
} as const;
export type SystemReasonCode = keyof typeof SYSTEM_REASON_PARAMS;
export type SystemReasonParams = {
  [C in SystemReasonCode]: z.infer<(typeof SYSTEM_REASON_PARAMS)[C]>;
};

/** Bound on the model's messages, in code points, in either language. */
export const LLM_MESSAGE_MAX = 500;

/** What an LLM reason may carry: the model's Spanish wording, or that it gave no reason. */
const LLM_REASON_PARAMS = z.object({
  message_es: z.string().min(1).max(LLM_MESSAGE_MAX).optional(),
  /** A flag or reject that came without any reason; Quire wrote the message. */
  unexplained: z.boolean().optional(),
});
export type LlmReasonParams = z.infer<typeof LLM_REASON_PARAMS>;

export function isRuleReasonCode(code: string): code is RuleReasonCode {
  return Object.hasOwn(RULE_REASON_PARAMS, code);
}

export function isSystemReasonCode(code: string): code is SystemReasonCode {
  return Object.hasOwn(SYSTEM_REASON_PARAMS, code);
}

/**
 * A stored reason's params, checked against its code's shape; null when absent (rows from
 * before params were recorded) or not of that shape, so a page falls back to the headline.
 */
export function ruleReasonParams<C extends RuleReasonCode>(
  code: C,
  params: unknown,
): RuleReasonParams[C] | null {
  if (params === undefined || params === null) return null;
  const parsed = RULE_REASON_PARAMS[code].safeParse(params);
  return parsed.success ? (parsed.data as RuleReasonParams[C]) : null;
}

export function systemReasonParams<C extends SystemReasonCode>(
  code: C,
  params: unknown,
): SystemReasonParams[C] | null {
  if (params === undefined || params === null) return null;
  const parsed = SYSTEM_REASON_PARAMS[code].safeParse(params);
  return parsed.success ? (parsed.data as SystemReasonParams[C]) : null;
}

export function llmReasonParams(params: unknown): LlmReasonParams {
  const parsed = LLM_REASON_PARAMS.safeParse(params ?? {});
  return parsed.success ? parsed.data : {};
}

/** A reason as read back from `screening_results.reasons` (jsonb): checked, not trusted. */
export interface StoredReason {
  code: string;
  severity: "reject" | "warning";
  field: string | null;
  /** In English, as the screener wrote it. */
  message: string;
  /** The specifics of the message, for pages in other languages; absent on old rows. */
  params?: ReasonParams;
}

/**
 * The reasons of one stored screening run. Entries without a string code and message are
 * skipped, an unknown severity reads as a warning, and params are kept only as an object
 * (each page checks them against the code's shape before wording them).
 */
export function storedReasons(stored: unknown): StoredReason[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const r = entry as Record<string, unknown>;
    if (typeof r.code !== "string" || typeof r.message !== "string") return [];
    const params = r.params;
    return [
      {
        code: r.code,
        severity: r.severity === "reject" ? "reject" : "warning",
        field: typeof r.field === "string" ? r.field : null,
        message: r.message,
        ...(typeof params === "object" && params !== null && !Array.isArray(params)
          ? { params: params as ReasonParams }
          : {}),
      } satisfies StoredReason,
    ];
  });
}

/** Rules first, then the LLM (`llm:<model>`): the order the screeners run in. */
export function byScreener(a: { screener: string }, b: { screener: string }): number {
  return Number(a.screener.startsWith("llm:")) - Number(b.screener.startsWith("llm:"));
}
