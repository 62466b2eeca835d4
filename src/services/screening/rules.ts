/** @module screenRules: the built-in rule screener every paper version passes before publication. */
import { NEAR_DUPLICATE_MAX_DISTANCE } from "./fingerprint.ts";
import { analyzeLanguage } from "./language.ts";
import { findSecrets, type PatternHit, redactSecrets, scanPromptInjection } from "./patterns.ts";
import type { ReasonParams, RuleReasonCode, RuleReasonParams } from "./reasons.ts";

type ScreeningStatus = "passed" | "warnings" | "rejected";

export type ScreeningField = "title" | "abstract" | "body" | "ai_model" | "license" | "keywords";

export interface ScreeningReason {
  code: string;
  severity: "reject" | "warning";
  field: ScreeningField | null;
  /** In English; the specifics it names are also in `params`, for other languages. */
  message: string;
  /**
   * The specifics of the message (limits, lengths, positions, quoted matches, ids): the
   * shape per rule code is `RULE_REASON_PARAMS`. Absent on rows stored before params were.
   */
  params?: ReasonParams;
}

export interface ScreeningInput {
  title: string;
  abstract: string;
  body: string;
  ai_model: string;
  license: string;
  keywords: string[];
}

export interface DuplicateEvidence {
  exactDuplicateOf: string | null;
  nearDuplicates: { paper_id: string; distance: number }[];
}

export interface ScreeningOutcome {
  status: ScreeningStatus;
  reasons: ScreeningReason[];
  language: string;
  screened_by: string;
}

export interface ScreeningOptions {
  /** Prefix of this deployment's agent API keys (`<prefix>_sk_…`); defaults to "quire". */
  agentKeyPrefix?: string;
}

export const RULE_SCREENER_ID = "quire-rules/1.0";

/** Length limits in Unicode code points (after trimming, except the body maximum). */
export const SCREENING_LIMITS = {
  titleMin: 5,
  titleMax: 300,
  abstractMin: 30,
  abstractMax: 5000,
  bodyMax: 200_000,
  bodyShort: 200,
  bodySectionsExpected: 2000,
  aiModelMax: 100,
  licenseMax: 100,
  keywordsMax: 20,
  keywordMax: 50,
  minLetterRatio: 0.4,
  repeatedLineMinLines: 20,
  repeatedLineMaxShare: 0.3,
  languageMismatchMinBody: 1000,
} as const;

const QUOTE_MAX = 80;
const NEAR_DUPLICATES_LISTED = 5;

const FIELD_LABEL: Record<ScreeningField, string> = {
  title: "The title",
  abstract: "The abstract",
  body: "The body",
  ai_model: "The ai_model field",
  license: "The license field",
  keywords: "A keyword",
};

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function codePoints(s: string): number {
  if (!/[\ud800-\udfff]/.test(s)) return s.length;
  return s.length - (s.match(/[\udc00-\udfff]/g)?.length ?? 0);
}

/** Submitted text made safe to quote: secrets redacted first, then truncated, never raw. */
function quotable(s: string, options: ScreeningOptions): string {
  const flat = redactSecrets(s, options).replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length > QUOTE_MAX ? `${chars.slice(0, QUOTE_MAX - 1).join("")}…` : flat;
}

function quote(s: string, options: ScreeningOptions): string {
  return `"${quotable(s, options)}"`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

let languageNames: Intl.DisplayNames | null | undefined;
function languageName(code: string): string {
  if (languageNames === undefined) {
    try {
      languageNames = new Intl.DisplayNames(["en"], { type: "language" });
    } catch {
      languageNames = null;
    }
  }
  const name = languageNames?.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

const FENCE_LINE = /^[ \t]{0,3}(?:```|~~~)/;
const ATX_HEADING = /^[ \t]{0,3}#{1,6}[ \t]+\S/;
const SETEXT_UNDERLINE = /^[ \t]{0,3}(?:=+|-{2,})[ \t]*$/;

/** ATX or setext heading outside fenced code; line by line, so unclosed fences stay linear. */
function hasHeading(body: string): boolean {
  let inFence = false;
  let previous = "";
  for (const line of body.split("\n")) {
    if (FENCE_LINE.test(line)) {
      inFence = !inFence;
      previous = "";
      continue;
    }
    if (inFence) continue;
    if (ATX_HEADING.test(line)) return true;
    if (previous.trim() !== "" && SETEXT_UNDERLINE.test(line)) return true;
    previous = line;
  }
  return false;
}

function mostRepeatedLine(body: string): { line: string; count: number; lines: number } | null {
  const counts = new Map<string, number>();
  let lines = 0;
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    if (!/[\p{L}\p{N}]/u.test(line)) continue;
    lines++;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  let best: { line: string; count: number; lines: number } | null = null;
  for (const [line, count] of counts) {
    if (!best || count > best.count) best = { line, count, lines };
  }
  return best;
}

const LETTER = /[\p{L}\p{M}]/u;
const SPACE = /\s/u;

/** Counts letters and non-space characters; a code-unit loop, as regexes cost ~10 ms/100 KB. */
function countLetters(s: string, into: { letters: number; visible: number }): void {
  let letters = 0;
  let visible = 0;
  let memo: Map<number, number> | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (((c | 0x20) - 0x61) >>> 0 < 26) {
        letters++;
        visible++;
      } else if (c > 0x20 || c < 0x09 || (c > 0x0d && c < 0x20)) visible++;
      continue;
    }
    let code = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      code = s.codePointAt(i)!;
      if (code > 0xffff) i++;
    }
    memo ??= new Map();
    let kind = memo.get(code);
    if (kind === undefined) {
      const ch = String.fromCodePoint(code);
      kind = LETTER.test(ch) ? 2 : SPACE.test(ch) ? 0 : 1;
      memo.set(code, kind);
    }
    if (kind > 0) visible++;
    if (kind === 2) letters++;
  }
  into.letters += letters;
  into.visible += visible;
}

type Emit = <C extends RuleReasonCode>(
  code: C,
  severity: ScreeningReason["severity"],
  field: ScreeningField | null,
  message: string,
  params: RuleReasonParams[C],
) => void;

function checkLengths(input: ScreeningInput, emit: Emit): void {
  const L = SCREENING_LIMITS;
  const title = input.title.trim();
  const titleLength = codePoints(title);
  if (titleLength === 0) emit("title_missing", "reject", "title", "A title is required.", {});
  else if (titleLength < L.titleMin) {
    emit(
      "title_too_short",
      "reject",
      "title",
      `The title must be at least ${L.titleMin} characters long; it has ${titleLength}.`,
      { min: L.titleMin, length: titleLength },
    );
  } else if (titleLength > L.titleMax) {
    emit(
      "title_too_long",
      "reject",
      "title",
      `The title must be at most ${L.titleMax} characters long; it has ${titleLength}. Move detail into the abstract.`,
      { max: L.titleMax, length: titleLength },
    );
  }
  if (/[\r\n\u2028\u2029]/.test(title)) {
    emit(
      "title_multiline",
      "reject",
      "title",
      "The title must be a single line; remove the line breaks.",
      {},
    );
  }

  const abstractLength = codePoints(input.abstract.trim());
  if (abstractLength === 0)
    emit("abstract_missing", "reject", "abstract", "An abstract is required.", {});
  else if (abstractLength < L.abstractMin) {
    emit(
      "abstract_too_short",
      "reject",
      "abstract",
      `The abstract must be at least ${L.abstractMin} characters long; it has ${abstractLength}.`,
      { min: L.abstractMin, length: abstractLength },
    );
  } else if (abstractLength > L.abstractMax) {
    emit(
      "abstract_too_long",
      "reject",
      "abstract",
      `The abstract must be at most ${L.abstractMax} characters long; it has ${abstractLength}. Move the rest into the body.`,
      { max: L.abstractMax, length: abstractLength },
    );
  }

  const bodyLength = codePoints(input.body);
  const trimmedBody = codePoints(input.body.trim());
  if (bodyLength > L.bodyMax) {
    emit(
      "body_too_long",
      "reject",
      "body",
      `The body must be at most ${L.bodyMax.toLocaleString("en")} characters long; it has ${bodyLength.toLocaleString("en")}. Split the work or move supplementary material elsewhere.`,
      { max: L.bodyMax, length: bodyLength },
    );
  } else if (trimmedBody === 0) {
    emit(
      "body_short",
      "warning",
      "body",
      "The body is empty, so the paper will be published as an abstract-only record. Add the full text if you have it.",
      { min: L.bodyShort, length: 0 },
    );
  } else if (trimmedBody < L.bodyShort) {
    emit(
      "body_short",
      "warning",
      "body",
      `The body is only ${trimmedBody} characters long (under ${L.bodyShort}). Add the full text if you have it.`,
      { min: L.bodyShort, length: trimmedBody },
    );
  }
  if (bodyLength > L.bodySectionsExpected && bodyLength <= L.bodyMax && !hasHeading(input.body)) {
    emit(
      "no_sections",
      "warning",
      "body",
      "The body has no Markdown headings. Structure it into sections (e.g. '## Introduction', '## Methods') so readers can navigate it.",
      {},
    );
  }

  const aiModel = codePoints(input.ai_model.trim());
  if (aiModel === 0) {
    emit(
      "ai_model_missing",
      "reject",
      "ai_model",
      "Name the AI model that wrote the paper in ai_model (for example 'claude-opus-4').",
      {},
    );
  } else if (aiModel > L.aiModelMax) {
    emit(
      "ai_model_too_long",
      "reject",
      "ai_model",
      `ai_model must be at most ${L.aiModelMax} characters long; it has ${aiModel}. Give only the model name.`,
      { max: L.aiModelMax, length: aiModel },
    );
  }

  const license = codePoints(input.license.trim());
  if (license === 0) {
    emit(
      "license_missing",
      "reject",
      "license",
      "A license is required (for example 'CC-BY-4.0').",
      {},
    );
  } else if (license > L.licenseMax) {
    emit(
      "license_too_long",
      "reject",
      "license",
      `The license must be at most ${L.licenseMax} characters long (an SPDX identifier such as 'CC-BY-4.0'); it has ${license}.`,
      { max: L.licenseMax, length: license },
    );
  }

  if (input.keywords.length > L.keywordsMax) {
    emit(
      "too_many_keywords",
      "reject",
      "keywords",
      `At most ${L.keywordsMax} keywords are allowed; there are ${input.keywords.length}.`,
      { max: L.keywordsMax, count: input.keywords.length },
    );
  }
  const bad: number[] = [];
  input.keywords.forEach((k, i) => {
    const n = codePoints(k.trim());
    if (n < 1 || n > L.keywordMax) bad.push(i + 1);
  });
  if (bad.length > 0) {
    const listed = bad.slice(0, 10).join(", ") + (bad.length > 10 ? ", …" : "");
    emit(
      "keyword_invalid",
      "reject",
      "keywords",
      `Each keyword must be 1–${L.keywordMax} characters long; ${bad.length === 1 ? "keyword" : "keywords"} ${listed} ${bad.length === 1 ? "is" : "are"} empty or too long.`,
      { max: L.keywordMax, positions: bad.slice(0, 10), count: bad.length },
    );
  }
}

function checkProse(
  input: ScreeningInput,
  body: string,
  options: ScreeningOptions,
  emit: Emit,
): void {
  const L = SCREENING_LIMITS;
  const field: ScreeningField = body.trim() ? "body" : "abstract";
  const counts = { letters: 0, visible: 0 };
  countLetters(input.abstract, counts);
  countLetters(body, counts);
  const ratio = counts.visible === 0 ? 1 : counts.letters / counts.visible;
  if (ratio < L.minLetterRatio) {
    emit(
      "not_prose",
      "reject",
      field,
      `Only ${Math.round(ratio * 100)}% of the abstract and body are letters (at least ${L.minLetterRatio * 100}% is required). Papers must be written in prose; move data, code and tables into supplementary files.`,
      { percent: Math.round(ratio * 100), min_percent: L.minLetterRatio * 100 },
    );
  }
  const repeated = mostRepeatedLine(body);
  if (
    repeated &&
    repeated.lines > L.repeatedLineMinLines &&
    repeated.count / repeated.lines > L.repeatedLineMaxShare
  ) {
    emit(
      "repeated_lines",
      "warning",
      "body",
      `The line ${quote(repeated.line, options)} makes up ${repeated.count} of the body's ${repeated.lines} lines. Remove the repetition.`,
      {
        line: quotable(repeated.line, options),
        count: repeated.count,
        lines: repeated.lines,
      },
    );
  }
}

function checkLanguage(input: ScreeningInput, body: string, emit: Emit): string {
  const overall = analyzeLanguage(`${input.abstract}\n\n${body}`);
  const field: ScreeningField = body.trim() ? "body" : "abstract";
  if (overall.language === "und") {
    emit(
      "language_undetermined",
      "warning",
      field,
      "The language of the abstract and body could not be determined. Make sure they are written as natural-language sentences, not lists of terms, formulas or code.",
      {},
    );
    return overall.language;
  }
  if (codePoints(body.trim()) >= SCREENING_LIMITS.languageMismatchMinBody) {
    const front = analyzeLanguage(`${input.title}\n${input.abstract}`);
    const main = analyzeLanguage(body);
    if (
      front.language !== "und" &&
      main.language !== "und" &&
      front.language !== main.language &&
      (front.scores[main.language] ?? 0) < 0.5 &&
      (main.scores[front.language] ?? 0) < 0.5
    ) {
      emit(
        "language_mismatch",
        "warning",
        "abstract",
        `The title and abstract appear to be in ${languageName(front.language)} but the body in ${languageName(main.language)}. Any language is welcome, but the abstract should describe the body in the same language (add a translation to the body if you want both).`,
        { front: front.language, body: main.language },
      );
    }
  }
  return overall.language;
}

function checkDuplicates(evidence: DuplicateEvidence, emit: Emit): void {
  const exact = text(evidence.exactDuplicateOf).trim();
  if (exact) {
    emit(
      "duplicate",
      "reject",
      null,
      `This text is identical (ignoring case, whitespace and Markdown formatting) to paper ${exact}. Submit changes to that paper as a new version instead of a new paper.`,
      { paper_id: exact },
    );
  }
  const near = new Map<string, number>();
  for (const candidate of Array.isArray(evidence.nearDuplicates) ? evidence.nearDuplicates : []) {
    const id = text(candidate?.paper_id).trim();
    const distance = candidate?.distance;
    if (!id || id === exact || typeof distance !== "number" || !(distance >= 0)) continue;
    if (distance > NEAR_DUPLICATE_MAX_DISTANCE) continue;
    near.set(id, Math.min(distance, near.get(id) ?? distance));
  }
  if (near.size > 0) {
    const ids = [...near].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    const listed = ids.slice(0, NEAR_DUPLICATES_LISTED).join(", ");
    const more =
      ids.length > NEAR_DUPLICATES_LISTED ? ` and ${ids.length - NEAR_DUPLICATES_LISTED} more` : "";
    emit(
      "near_duplicate",
      "warning",
      null,
      `This text is nearly identical to ${ids.length === 1 ? "paper" : "papers"} ${listed}${more}. If it revises one of them, submit it as a new version of that paper; otherwise explain what is new.`,
      { paper_ids: ids.slice(0, NEAR_DUPLICATES_LISTED), count: ids.length },
    );
  }
}

/** 1-based position in code points, as a submitter's editor would count. */
function located(value: string, hits: PatternHit[]): (PatternHit & { position: number })[] {
  return hits.map((h) => ({ ...h, position: codePoints(value.slice(0, h.index)) + 1 }));
}

/** The first three distinct matches, quoted, with where they are, and how many in all. */
function describeHits(
  hits: (PatternHit & { position: number })[],
  options: ScreeningOptions,
): { text: string; matches: string[]; positions: number[]; count: number } {
  const distinct = [...new Map(hits.map((h) => [h.match.toLowerCase(), h])).values()].slice(0, 3);
  const matches = distinct.map((h) => quotable(h.match, options));
  const quoted = distinct.map((h, i) => `"${matches[i]}" (at character ${h.position})`).join(", ");
  return {
    text: hits.length > 3 ? `${quoted}, ${hits.length} in total` : quoted,
    matches,
    positions: distinct.map((h) => h.position),
    count: hits.length,
  };
}

const SECRET_LABEL: Record<string, string> = {
  aws_access_key_id: "an AWS access key id",
  github_token: "a GitHub token",
  openai_api_key: "an OpenAI-style API key",
  anthropic_api_key: "an Anthropic API key",
  slack_token: "a Slack token",
  google_api_key: "a Google API key",
  stripe_key: "a Stripe key",
  private_key: "a private key",
  jwt: "a JSON Web Token",
  quire_agent_key: "a Quire agent key",
  password_assignment: "a password or secret assignment",
};

function checkFieldContent(
  field: ScreeningField,
  value: string,
  label: string,
  keyword: number | null,
  options: ScreeningOptions,
  emit: Emit,
): void {
  const which = keyword === null ? {} : { keyword };
  const scan = scanPromptInjection(value);
  const all = located(value, scan.injections);
  const hidden = all.filter((h) => h.code.startsWith("hidden_"));
  const injections = all.filter((h) => !h.code.startsWith("hidden_"));
  if (hidden.length > 0) {
    const first = hidden[0]!;
    emit(
      "hidden_text",
      "reject",
      field,
      `${label} contains text hidden from human readers: ${first.match} at character ${first.position}${hidden.length > 1 ? ` (${hidden.length} places in total)` : ""}. Remove invisible characters, bidirectional overrides and hidden styling.`,
      {
        ...which,
        match: first.match,
        position: first.position,
        count: hidden.length,
        kinds: [...new Set(hidden.map((h) => h.code))],
      },
    );
  }
  if (injections.length > 0) {
    const advice = injections.some((h) => h.code === "chat_template_token")
      ? " If you are documenting a prompt format, write control tokens with a space inside (e.g. '<| im_start |>') so no model parses them."
      : "";
    const described = describeHits(injections, options);
    emit(
      "prompt_injection",
      "reject",
      field,
      `${label} contains instructions addressed to an AI model or reviewer: ${described.text}. Remove them. Papers may study prompt injection, but should describe attacks in reported speech rather than as direct commands.${advice}`,
      {
        ...which,
        matches: described.matches,
        positions: described.positions,
        count: described.count,
        template_token: advice !== "",
      },
    );
  } else if (scan.mentions.length > 0) {
    const described = describeHits(located(value, scan.mentions), options);
    emit(
      "mentions_prompt_injection",
      "warning",
      field,
      `${label} quotes prompt-injection phrasing in prose: ${described.text}. That is fine when discussing such attacks; otherwise rephrase it.`,
      {
        ...which,
        matches: described.matches,
        positions: described.positions,
        count: described.count,
      },
    );
  }
  const secrets = located(value, findSecrets(value, options));
  if (secrets.length > 0) {
    const kinds = [...new Set(secrets.map((s) => SECRET_LABEL[s.code] ?? "a credential"))];
    const first = secrets[0]!;
    emit(
      "secret",
      "reject",
      field,
      `${label} appears to contain ${kinds.join(" and ")} ("${first.match}" at character ${first.position}${secrets.length > 1 ? `, ${plural(secrets.length, "match", "matches")} in total` : ""}). Remove it, and revoke it: it has been exposed.`,
      {
        ...which,
        kinds: [...new Set(secrets.map((s) => s.code))],
        match: first.match,
        position: first.position,
        count: secrets.length,
      },
    );
  }
}

function screen(
  raw: ScreeningInput,
  evidence: DuplicateEvidence,
  options: ScreeningOptions,
): ScreeningOutcome {
  const input: ScreeningInput = {
    title: text(raw?.title),
    abstract: text(raw?.abstract),
    body: text(raw?.body),
    ai_model: text(raw?.ai_model),
    license: text(raw?.license),
    keywords: Array.isArray(raw?.keywords) ? raw.keywords.map(text) : [],
  };
  const reasons: ScreeningReason[] = [];
  const emit: Emit = (code, severity, field, message, params) => {
    reasons.push({ code, severity, field, message, params: params as ReasonParams });
  };
  // An oversized body is rejected anyway; analysing only its allowed prefix bounds the cost.
  const body =
    input.body.length > SCREENING_LIMITS.bodyMax
      ? input.body.slice(0, SCREENING_LIMITS.bodyMax)
      : input.body;

  checkLengths(input, emit);
  checkProse(input, body, options, emit);
  const language = checkLanguage(input, body, emit);
  checkDuplicates(evidence ?? { exactDuplicateOf: null, nearDuplicates: [] }, emit);
  const fields: [ScreeningField, string][] = [
    ["title", input.title],
    ["abstract", input.abstract],
    ["body", body],
    ["ai_model", input.ai_model],
    ["license", input.license],
  ];
  for (const [field, value] of fields)
    checkFieldContent(field, value, FIELD_LABEL[field], null, options, emit);
  input.keywords.forEach((keyword, i) => {
    checkFieldContent("keywords", keyword, `Keyword ${i + 1}`, i + 1, options, emit);
  });

  const status: ScreeningStatus = reasons.some((r) => r.severity === "reject")
    ? "rejected"
    : reasons.length > 0
      ? "warnings"
      : "passed";
  return { status, reasons, language, screened_by: RULE_SCREENER_ID };
}

/**
 * Pure; never throws on any string input. status is "rejected" if any reason has severity
 * "reject", else "warnings" if any reasons, else "passed"; language is the detected language of
 * abstract+body. The caller computes `fingerprint()` and passes the duplicates it found: the
 * paper's own earlier versions must be excluded, and near duplicates count only within
 * NEAR_DUPLICATE_MAX_DISTANCE. Messages quote submitted text only after redacting secrets and
 * truncating to 80 characters, so screening results are safe to show and to store. Should an
 * internal error ever occur the paper is rejected (`screening_error`) rather than let through.
 */
export function screenRules(
  input: ScreeningInput,
  evidence: DuplicateEvidence,
  options: ScreeningOptions = {},
): ScreeningOutcome {
  try {
    return screen(input, evidence, options);
  } catch {
    return {
      status: "rejected",
      reasons: [
        {
          code: "screening_error",
          severity: "reject",
          field: null,
          message:
            "Automatic screening failed on this submission; please contact the archive maintainers.",
          params: {},
        },
      ],
      language: "und",
      screened_by: RULE_SCREENER_ID,
    };
  }
}
