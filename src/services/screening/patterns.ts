/** @module Detectors for prompt injection, hidden text and pasted secrets; pure and linear-time. */

export interface PatternHit {
  code: string;
  match: string;
  index: number;
}

/** Bound on hits per scan, so a hostile document cannot inflate the screening result. */
const MAX_HITS = 50;
const LOOKBACK = 160;

interface InjectionPattern {
  code: string;
  regex: RegExp;
  /** First word forms that make an instruction (the rest are narrative: "ignoring", "ignores"). */
  imperative?: RegExp;
  /** Whether a narrative (non-imperative) occurrence is reported as a mention. */
  mention: boolean;
  /** Narrower test for mentions, so "the model ignores the instructions" is not flagged. */
  mentionIf?: RegExp;
  /** Extra check on the matched text, for phrases that are only suspicious with a qualifier. */
  accept?: (match: string) => boolean;
}

const DETERMINERS =
  "all|any|every|each|of|the|your|my|our|these|those|its|their|previous|prior|preceding|earlier|above|foregoing|original|initial|old|system|developer|existing|other|given|prompt";
const WEAK_NOUN = /\b(?:guidelines|rules|context|messages|constraints)$/i;
const QUALIFIER =
  /\b(?:previous|prior|preceding|above|earlier|foregoing|your|system|all|original|initial)\b/i;
const AI =
  "(?:ai|llm|lm|gpt|chatgpt|claude|gemini|language\\s+model|large\\s+language\\s+model|chatbot|assistant|automated|machine)";
const WORK = "(?:paper|submission|manuscript|work|article|study)";
const PRAISE =
  "(?:positive|favou?rable|glowing|good|great|high|excellent|strong|perfect|maximum|top|outstanding|enthusiastic)\\s+(?:reviews?|ratings?|scores?|assessments?|evaluations?|feedback|marks?|grades?|recommendations?)";

const INJECTION_PATTERNS: InjectionPattern[] = [
  {
    code: "ignore_instructions",
    regex: new RegExp(
      `\\b(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|forget(?:s|ting)?|overrid(?:e|es|ing)|bypass(?:es|ed|ing)?)\\s+(?:(?:${DETERMINERS})\\s+){0,4}(?:instructions?|prompts?|directions|directives|commands|system\\s+prompt|everything\\s+(?:above|before|prior)|guidelines|rules|context|messages|constraints)\\b`,
      "gi",
    ),
    imperative: /^(?:ignore|disregard|forget|override|bypass)\b/i,
    mention: true,
    mentionIf: /\b(?:previous|prior|above|preceding|earlier|foregoing|your)\b/i,
    accept: (m) => !WEAK_NOUN.test(m) || QUALIFIER.test(m),
  },
  {
    code: "ignore_instructions",
    regex:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:above|foregoing|preceding)(?=\s*(?:$|[.,;:!?)"'”]|\s(?:and|then|text|content)\b))/gi,
    mention: false,
  },
  {
    code: "role_override",
    regex:
      /\byou\s+are\s+now\s+(?:a|an|the|my|acting|operating|going\s+to|no\s+longer|free|unrestricted|unfiltered|jailbroken|dan|developer\s+mode)\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall|should|have\s+to)\b|\b(?:enter|enable|activate)\s+(?:dan|developer|god|jailbreak|unrestricted)\s+mode\b/gi,
    mention: true,
  },
  {
    code: "addressed_to_ai",
    regex: new RegExp(
      `\\b(?:(?:note|message|instructions?|attention)\\s+(?:to|for)\\s+(?:the\\s+|all\\s+|any\\s+)?${AI}s?(?:\\s+(?:reviewers?|readers?|assistants?|agents?|systems?))?\\s*:|(?:if|when)\\s+you\\s+are\\s+(?:an?\\s+)?(?:ai|llm|language\\s+model|large\\s+language\\s+model|automated\\s+reviewer|chatbot|ai\\s+assistant)\\b)`,
      "gi",
    ),
    mention: true,
  },
  {
    code: "review_manipulation",
    regex: new RegExp(
      `\\b(?:give|write|provide|produce|output|generate|assign)\\s+(?:(?:this\\s+${WORK}|it)\\s+(?:(?:a|an|only)\\s+)?(?:(?:very|highly|extremely|only)\\s+)?${PRAISE}|only\\s+(?:(?:a|an)\\s+)?${PRAISE}|(?:(?:a|an)\\s+)?${PRAISE}\\s+only(?=\\s*(?:[.!;,]|$)))`,
      "gi",
    ),
    mention: false,
  },
  {
    code: "review_manipulation",
    regex: new RegExp(
      `\\b(?:rate|score|grade|rank|evaluate|assess|review)\\s+this\\s+${WORK}\\s+(?:as\\s+)?(?:(?:very\\s+)?(?:highly|positively|favou?rably|excellent|outstanding|strong\\s+accept|accept)|(?:an?\\s+)?(?:\\d+(?:\\s*\\/\\s*\\d+)?|ten|five)(?:\\s+out\\s+of\\s+\\d+)?)(?![\\w/])`,
      "gi",
    ),
    mention: false,
  },
  {
    code: "review_manipulation",
    regex: new RegExp(
      `\\b(?:recommend|suggest|vote\\s+for|argue\\s+for)\\s+(?:the\\s+)?(?:accepting|acceptance\\s+of|accept|publication\\s+of|publishing)\\s+this\\s+${WORK}\\b|\\b(?:accept|approve)\\s+this\\s+${WORK}\\b`,
      "gi",
    ),
    mention: false,
  },
  {
    code: "review_manipulation",
    regex:
      /\b(?:do\s+not|don't|never)\s+(?:highlight|mention|point\s+out|discuss|report|list|critici[sz]e|flag)\s+(?:any\s+)?(?:negatives?|weakness(?:es)?|flaws?|limitations?|criticisms?|shortcomings?)\b/gi,
    mention: false,
  },
];

/** Sentence starters that still leave the next words an instruction: "Please, …", "LLM reviewers: …". */
const PREAMBLE = new RegExp(
  `^(?:(?:please|kindly|now|so|then|also|just|simply|instead|first|finally|importantly|important|note|attention|warning|reminder|hey|hi|hello|ok|okay|ps|nb|system|user|assistant|reviewers?|agents?|(?:dear|to|for|hey|hello|attention)\\s+(?:the\\s+|all\\s+|any\\s+)?(?:${AI}|model|reviewer|agent|bot)s?(?:\\s+(?:reviewers?|readers?|agents?))?|${AI}s?(?:\\s+(?:reviewers?|readers?|agents?))?)\\b[\\s,.!:;-]*)+$`,
  "i",
);
const SECOND_PERSON =
  /^(?:(?:and|so|then|now)\s+)?you\s+(?:must|should|will|shall|need\s+to|have\s+to|are\s+to|are\s+required\s+to|are\s+instructed\s+to)(?:\s+(?:now|always|also|instead))?$/i;
/** "…, e.g. ignore previous instructions" and "such as 'ignore …'" introduce an example in prose. */
const NARRATIVE_TAIL =
  /(?:\be\.\s?g\.|\bi\.\s?e\.|\bsuch\s+as|\blike|\bnamely|\bincluding|\bfor\s+(?:example|instance)|\bcf\.|\bviz\.)\s*[,:]?$/i;
const ABBREVIATION =
  /\b(?:e\.\s?g|i\.\s?e|etc|cf|vs|et\s+al|figs?|eqs?|viz|resp|approx|incl|esp|refs?|sec|no)\./gi;
const LEADING_JUNK = /^[\s"'“”‘’«»()[\]{}*_`>#~|-]+/;
const TRAILING_JUNK = /[\s"'“”‘’«»([{*_`>~|-]+$/;
const LABEL = /^\s*:/;

function lastBoundary(s: string): number {
  let cut = -1;
  for (const mark of [".", "!", "?", "\n"]) cut = Math.max(cut, s.lastIndexOf(mark) + 1);
  const closeComment = s.lastIndexOf("-->");
  if (closeComment >= 0) cut = Math.max(cut, closeComment + 3);
  const openComment = s.lastIndexOf("<!--");
  if (openComment >= 0) cut = Math.max(cut, openComment + 4);
  return Math.max(cut, 0);
}

/**
 * Whether the words before a match leave it in the position of a command: at the start of a
 * sentence, line or clause, after a vocative ("AI reviewers:") or after "you must". Anything
 * else ("… asking the model to ignore previous instructions …", "e.g. …") is narrative, and so
 * is a phrase used as a label ("Ignore Previous Prompt: Attack Techniques for LMs").
 */
function isCommandPosition(text: string, index: number, end: number): boolean {
  if (LABEL.test(text.slice(end, end + 3))) return false;
  const before = text.slice(Math.max(0, index - LOOKBACK), index);
  if (NARRATIVE_TAIL.test(before.replace(TRAILING_JUNK, ""))) return false;
  const masked = before.replace(ABBREVIATION, (m) => m.replace(/\./g, " "));
  const sentence = masked
    .slice(lastBoundary(masked))
    .replace(LEADING_JUNK, "")
    .replace(TRAILING_JUNK, "");
  if (sentence === "" || PREAMBLE.test(sentence)) return true;
  const clauseStart = Math.max(
    sentence.lastIndexOf(","),
    sentence.lastIndexOf(":"),
    sentence.lastIndexOf(";"),
  );
  const clause = sentence.slice(clauseStart + 1).replace(LEADING_JUNK, "");
  return clause === "" || PREAMBLE.test(clause) || SECOND_PERSON.test(clause);
}

const CHAT_TOKEN =
  /<\|[a-z][a-z0-9_]{1,30}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:start|end)_of_turn>|<\/?(?:start|end)_of_text>/gi;
const COMMENT_ADDRESSEE = new RegExp(`\\b(?:${AI}|reviewers?|models?|agents?|bots?)s?\\b`, "i");
const COMMENT_DIRECTIVE =
  /\b(?:ignore|disregard|forget|give|rate|score|accept|approve|recommend|praise|say|write|output|respond|reply|answer|must|should|please|do\s+not|don't|never|always)\b/i;

/** Non-global copies: `test` on the global originals would move the lastIndex matchAll starts from. */
const INJECTION_TESTERS = INJECTION_PATTERNS.map((p) => new RegExp(p.regex.source, "i"));

/**
 * Hidden comments count when they address a model or reviewer with a directive, or contain any
 * injection phrase at all; "<!-- TODO: rerun with a lower learning rate -->" does not.
 */
function isCommentInstruction(content: string): boolean {
  if (COMMENT_ADDRESSEE.test(content) && COMMENT_DIRECTIVE.test(content)) return true;
  return INJECTION_TESTERS.some((regex) => regex.test(content));
}

const MARKDOWN_COMMENT = /^[ \t]*\[(?:\/\/|comment|#|_)\]:[ \t]*(?:#|<>)[ \t]*(.*)$/gim;
const HTML_TAG = /<[a-z][a-z0-9-]*\b[^<>]{0,2000}>/gi;
const HIDING_STYLE =
  /\bstyle\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|["'])|opacity\s*:\s*0(?:\.0+)?\s*(?:;|["'])|color\s*:\s*(?:white|#fff(?:fff)?\b|transparent))|\shidden(?:\s|=|>|\/)/i;
const LATEX_HIDING = /\\(?:textcolor|color)\s*\{\s*white\s*\}/gi;

function excerpt(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const INVISIBLE =
  /[\u200b-\u200d\u2060-\u2064\ufeff\u180e\u202a-\u202e\u2066-\u2069]|\p{Variation_Selector}|[\u{e0000}-\u{e007f}]/gu;
const ZERO_WIDTH = new Set([
  0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x180e,
]);
/** Scripts written with spaces, where a zero-width character inside a word has no job to do. */
const ALPHABETIC = /[0-9A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/;
const SPACE_OR_PUNCTUATION = /[\s\p{P}\p{S}]/u;
/** Isolated zero-width characters next to spaces or punctuation are copy-paste debris, up to a point. */
const MAX_STRAY_ZERO_WIDTH = 8;

function isVariationSelector(cp: number | undefined): boolean {
  return (
    cp !== undefined &&
    ((cp >= 0xfe00 && cp <= 0xfe0f) ||
      (cp >= 0xe0100 && cp <= 0xe01ef) ||
      (cp >= 0x180b && cp <= 0x180f && cp !== 0x180e))
  );
}

function previousCodePoint(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.codePointAt(index - 2) : low;
}

type ZeroWidthUse = "hidden" | "stray" | "legitimate";

/**
 * Zero-width characters are legitimate between letters of scripts that need them (Persian and
 * Indic joiners, Thai word breaks, emoji ZWJ sequences) and common as single stray debris next
 * to spaces in copied text. They hide things when they split a word of a spaced script
 * ("ig<ZWSP>nore"), when they come in runs (steganographic encodings), or when strays pile up.
 */
function zeroWidthUse(text: string, index: number, cp: number): ZeroWidthUse {
  if (cp === 0xfeff && index === 0) return "legitimate";
  const prev = text[index - 1] ?? " ";
  const next = text[index + 1] ?? " ";
  if (ZERO_WIDTH.has(prev.charCodeAt(0)) || ZERO_WIDTH.has(next.charCodeAt(0))) return "hidden";
  if (ALPHABETIC.test(prev) && ALPHABETIC.test(next)) return "hidden";
  if (SPACE_OR_PUNCTUATION.test(prev) || SPACE_OR_PUNCTUATION.test(next)) return "stray";
  return "legitimate";
}

/**
 * Invisible characters that hide or disguise text (see zeroWidthUse for zero-width ones).
 * Embedding/isolate bidi controls are allowed in documents that contain right-to-left script,
 * overrides never; tag characters only inside emoji flag sequences; single variation selectors
 * are normal, runs of them are a known data-smuggling channel.
 */
function findHiddenCharacters(text: string, hits: PatternHit[]): void {
  const hasRtl = RTL_LETTER.test(text);
  const found: { code: string; index: number; end: number; cp: number }[] = [];
  const strays: { code: string; index: number; end: number; cp: number }[] = [];
  let flagSequenceEnd = -1;
  for (const m of text.matchAll(INVISIBLE)) {
    const index = m.index;
    const cp = m[0].codePointAt(0)!;
    const end = index + m[0].length;
    if (ZERO_WIDTH.has(cp)) {
      const use = zeroWidthUse(text, index, cp);
      if (use === "hidden") found.push({ code: "hidden_zero_width", index, end, cp });
      else if (use === "stray") strays.push({ code: "hidden_zero_width", index, end, cp });
    } else if (cp >= 0x202a && cp <= 0x202e) {
      if (cp === 0x202d || cp === 0x202e || !hasRtl) {
        found.push({ code: "hidden_bidi_control", index, end, cp });
      }
    } else if (cp >= 0x2066 && cp <= 0x2069) {
      if (!hasRtl) found.push({ code: "hidden_bidi_control", index, end, cp });
    } else if (cp >= 0xe0000 && cp <= 0xe007f) {
      if (index === flagSequenceEnd || text.codePointAt(index - 2) === 0x1f3f4) {
        flagSequenceEnd = end;
      } else {
        found.push({ code: "hidden_tag_characters", index, end, cp });
      }
    } else if (isVariationSelector(previousCodePoint(text, index))) {
      found.push({ code: "hidden_variation_selectors", index, end, cp });
    }
  }
  if (strays.length > MAX_STRAY_ZERO_WIDTH) {
    for (const stray of strays) found.push(stray);
    found.sort((a, b) => a.index - b.index);
  }
  let i = 0;
  while (i < found.length && hits.length < MAX_HITS) {
    const first = found[i]!;
    const distinct = new Set([first.cp]);
    let end = first.end;
    let j = i + 1;
    while (j < found.length && found[j]!.index === end && found[j]!.code === first.code) {
      distinct.add(found[j]!.cp);
      end = found[j]!.end;
      j++;
    }
    const labels = [...distinct].slice(0, 5).map(codePointLabel).join(" ");
    hits.push({
      code: first.code,
      match: j - i > 1 ? `${labels} ×${j - i}` : labels,
      index: first.index,
    });
    i = j;
  }
}

function findHiddenMarkup(text: string, hits: PatternHit[]): void {
  for (const m of text.matchAll(HTML_TAG)) {
    if (hits.length >= MAX_HITS) return;
    if (HIDING_STYLE.test(m[0])) {
      hits.push({ code: "hidden_html_style", match: excerpt(m[0]), index: m.index });
    }
  }
  for (const m of text.matchAll(LATEX_HIDING)) {
    if (hits.length >= MAX_HITS) return;
    hits.push({ code: "hidden_html_style", match: m[0], index: m.index });
  }
}

/** HTML comments are invisible once rendered; an unclosed one hides the rest of the document. */
function findCommentInstructions(text: string, hits: PatternHit[]): void {
  let from = 0;
  while (hits.length < MAX_HITS) {
    const start = text.indexOf("<!--", from);
    if (start < 0) break;
    const close = text.indexOf("-->", start + 4);
    const end = close < 0 ? text.length : close;
    const content = text.slice(start + 4, end);
    if (isCommentInstruction(content)) {
      hits.push({ code: "comment_instruction", match: excerpt(content), index: start });
    }
    if (close < 0) break;
    from = close + 3;
  }
  for (const m of text.matchAll(MARKDOWN_COMMENT)) {
    if (hits.length >= MAX_HITS) return;
    if (isCommentInstruction(m[1] ?? "")) {
      hits.push({ code: "comment_instruction", match: excerpt(m[0]), index: m.index });
    }
  }
}

const FORMAT_CHARACTERS = /\p{Cf}+/gu;
/** Cheap pre-test (no Unicode property lookup): every Cf character is non-ASCII. */
const MAYBE_FORMAT_CHARACTER = /[^\0-\x7f]/;

interface VisibleText {
  clean: string;
  /** From clean offset `at` on, original offsets are `shift` larger. */
  removed: { at: number; shift: number }[];
}

/**
 * The text with invisible format characters removed, so "ignore<ZWSP> previous instructions"
 * cannot slip past the phrase patterns, plus what is needed to map offsets back.
 */
function visibleText(text: string): VisibleText {
  const removed: VisibleText["removed"] = [];
  if (!MAYBE_FORMAT_CHARACTER.test(text)) return { clean: text, removed };
  const pieces: string[] = [];
  let length = 0;
  let last = 0;
  let shift = 0;
  for (const m of text.matchAll(FORMAT_CHARACTERS)) {
    pieces.push(text.slice(last, m.index));
    length += m.index - last;
    shift += m[0].length;
    removed.push({ at: length, shift });
    last = m.index + m[0].length;
  }
  if (removed.length === 0) return { clean: text, removed };
  pieces.push(text.slice(last));
  return { clean: pieces.join(""), removed };
}

function remap(hits: PatternHit[], removed: VisibleText["removed"]): PatternHit[] {
  if (removed.length === 0) return hits;
  return hits.map((hit) => {
    let lo = 0;
    let hi = removed.length - 1;
    let shift = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (removed[mid]!.at <= hit.index) {
        shift = removed[mid]!.shift;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return { ...hit, index: hit.index + shift };
  });
}

/**
 * findPromptInjection and findPromptInjectionMentions in one pass over the text (the screener
 * needs both; each scan costs a few milliseconds per 100 KB).
 */
export function scanPromptInjection(text: string): {
  injections: PatternHit[];
  mentions: PatternHit[];
} {
  const hidden: PatternHit[] = [];
  findHiddenCharacters(text, hidden);
  const { clean, removed } = visibleText(text);
  const found: PatternHit[] = [];
  const mentions: PatternHit[] = [];
  for (const m of clean.matchAll(CHAT_TOKEN)) {
    if (found.length >= MAX_HITS) break;
    found.push({ code: "chat_template_token", match: m[0], index: m.index });
  }
  findCommentInstructions(clean, found);
  findHiddenMarkup(clean, found);
  for (const pattern of INJECTION_PATTERNS) {
    for (const m of clean.matchAll(pattern.regex)) {
      const match = m[0];
      if (pattern.accept && !pattern.accept(match)) continue;
      const imperativeForm = pattern.imperative ? pattern.imperative.test(match) : true;
      const hit = { code: pattern.code, match: excerpt(match), index: m.index };
      if (imperativeForm && isCommandPosition(clean, m.index, m.index + match.length)) {
        if (found.length < MAX_HITS) found.push(hit);
      } else if (pattern.mention && (!pattern.mentionIf || pattern.mentionIf.test(match))) {
        if (mentions.length < MAX_HITS) mentions.push(hit);
      }
    }
  }
  const byIndex = (a: PatternHit, b: PatternHit) => a.index - b.index;
  return {
    injections: [...hidden, ...remap(found, removed)].sort(byIndex),
    mentions: remap(mentions, removed).sort(byIndex),
  };
}

/**
 * Instructions aimed at an LLM or reviewer that reads the paper: "ignore previous instructions",
 * "you are now …", requests for high scores or acceptance, chat-template control tokens,
 * instruction-like HTML/Markdown comments, and hidden text. Phrases count only in command
 * position (sentence or clause start, after a vocative such as "LLM reviewers:", or after "you
 * must"); the same words in narrative prose are returned by findPromptInjectionMentions
 * instead, so papers can study prompt injection in reported speech. Hidden-text hits have codes
 * starting with "hidden_" (zero-width, bidi override, tag characters, variation-selector runs,
 * CSS/LaTeX-hidden text). Linear time: no pattern can backtrack across the document.
 */
export function findPromptInjection(text: string): PatternHit[] {
  return scanPromptInjection(text).injections;
}

/**
 * Injection phrases in narrative position ("attacks that ask the model to ignore previous
 * instructions"): worth a reviewer's glance, not a rejection.
 */
export function findPromptInjectionMentions(text: string): PatternHit[] {
  return scanPromptInjection(text).mentions;
}

interface SecretPattern {
  code: string;
  regex: RegExp;
  /** Filters out documentation placeholders ("ghp_xxxx…", "AKIA…EXAMPLE"). */
  valid?: (match: string) => boolean;
}

const distinctChars = (s: string) => new Set(s).size;
const randomLooking = (s: string) => distinctChars(s) >= 8 && /\d/.test(s) && /[a-z]/i.test(s);
const PLACEHOLDER =
  /^(?:\*+|x+|\.{3,}.*|<.*>|\$\{.*\}|\{\{.*\}\}|%.*%|your[_-].*|changeme|redacted|example.*|placeholder|password|secret|null|none|undefined|true|false|os\.environ.*|process\.env.*|env\..*|[/~.].*)$/i;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const patternsByPrefix = new Map<string, SecretPattern[]>();

/** Compiled once per agent-key prefix (a deployment has one; the cache stays tiny). */
function secretPatterns(agentKeyPrefix: string): SecretPattern[] {
  let patterns = patternsByPrefix.get(agentKeyPrefix);
  if (!patterns) {
    patterns = buildSecretPatterns(agentKeyPrefix);
    if (patternsByPrefix.size < 16) patternsByPrefix.set(agentKeyPrefix, patterns);
  }
  return patterns;
}

function buildSecretPatterns(agentKeyPrefix: string): SecretPattern[] {
  return [
    {
      code: "private_key",
      regex: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
    },
    {
      code: "quire_agent_key",
      regex: new RegExp(
        `(?<![A-Za-z0-9_])${escapeRegExp(agentKeyPrefix)}_sk_[A-Za-z0-9]{20,}`,
        "g",
      ),
    },
    { code: "stripe_key", regex: /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[A-Za-z0-9]{20,}/g },
    {
      code: "aws_access_key_id",
      regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Za-z0-9])/g,
      valid: (m) => !m.endsWith("EXAMPLE") && distinctChars(m.slice(4)) >= 6,
    },
    {
      code: "github_token",
      regex: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
      valid: (m) => randomLooking(m.slice(4)),
    },
    {
      code: "anthropic_api_key",
      regex: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/g,
      valid: (m) => randomLooking(m.slice(7)),
    },
    {
      code: "openai_api_key",
      regex: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g,
      valid: (m) => randomLooking(m.slice(3)),
    },
    {
      code: "slack_token",
      regex: /(?<![A-Za-z0-9_-])xox[abeoprs]-[A-Za-z0-9-]{10,}/g,
      valid: (m) => randomLooking(m.slice(5)),
    },
    {
      code: "google_api_key",
      regex: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
      valid: (m) => distinctChars(m.slice(4)) >= 8,
    },
    {
      code: "jwt",
      regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/g,
    },
    {
      code: "password_assignment",
      regex:
        /(?<![A-Za-z0-9])(?:password|passwd|pwd|secret|secret[_-]?key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?[ \t]*[:=][ \t]*(?:"[^"\s]{8,200}"|'[^'\s]{8,200}'|[^\s"'`,;()<>]{12,200})/gi,
      valid: (m) => {
        const value = m.replace(/^[^:=]*[:=][ \t]*/, "");
        const quoted = /^["']/.test(value);
        const bare = quoted ? value.slice(1, -1) : value;
        if (PLACEHOLDER.test(bare) || distinctChars(bare) < 5) return false;
        return quoted || randomLooking(bare);
      },
    },
  ];
}

/** PEM headers alone are harmless (and common in papers); only a header with key material counts. */
function pemHasKeyMaterial(text: string, headerEnd: number): boolean {
  return /^\s*(?:[A-Za-z-]+:[^\n]*\n\s*)*[A-Za-z0-9+/=\s]{40}/.test(
    text.slice(headerEnd, headerEnd + 400),
  );
}

const PEM_SCAN_LIMIT = 20_000;

/** End of a PEM block: its END line if one follows, else the run of base64 after the header. */
function pemBlockEnd(text: string, headerEnd: number): number {
  const window = text.slice(headerEnd, headerEnd + PEM_SCAN_LIMIT);
  const close = window.indexOf("-----END");
  if (close >= 0) {
    const stop = window.indexOf("-----", close + 8);
    return headerEnd + (stop >= 0 ? stop + 5 : close + 8);
  }
  return headerEnd + (/^[A-Za-z0-9+/=\s:-]*/.exec(window)?.[0].length ?? 0);
}

interface SecretSpan {
  code: string;
  start: number;
  end: number;
}

/**
 * Non-overlapping secret spans in `text`, most specific pattern first. With `strict`, look-alike
 * placeholders are dropped and the count is capped; without it everything secret-shaped is
 * kept, however many there are (for redaction).
 */
function secretSpans(text: string, agentKeyPrefix: string, strict: boolean): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const overlaps = (start: number, end: number) =>
    spans.some((s) => start < s.end && end > s.start);
  for (const pattern of secretPatterns(agentKeyPrefix)) {
    for (const m of text.matchAll(pattern.regex)) {
      if (strict && spans.length >= MAX_HITS) return spans;
      const start = m.index;
      let end = start + m[0].length;
      if (overlaps(start, end)) continue;
      if (strict && pattern.valid && !pattern.valid(m[0])) continue;
      if (pattern.code === "private_key") {
        if (strict && !pemHasKeyMaterial(text, end)) continue;
        end = pemBlockEnd(text, end);
      }
      spans.push({ code: pattern.code, start, end });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * Keeps at most the first 6 characters then "…": enough to locate the leak, never enough to
 * use it. Everything the screener reports about a secret goes through this.
 */
export function redactSecret(secret: string): string {
  return `${Array.from(secret).slice(0, 6).join("")}…`;
}

/**
 * Credentials pasted into a paper: AWS access key ids, GitHub, OpenAI, Anthropic, Slack, Stripe
 * and Google API keys, PEM private keys (with key material), JWTs, Quire agent keys
 * (`<agentKeyPrefix>_sk_` + 20+ base62 characters) and `password = "…"`-style assignments with
 * long values. `match` is always redacted (see redactSecret). Obvious documentation
 * placeholders (AKIA…EXAMPLE, ghp_xxxx…) are skipped so papers about secret scanning pass.
 * Invisible format characters are ignored, so a zero-width space cannot split a key.
 */
export function findSecrets(text: string, options: { agentKeyPrefix?: string } = {}): PatternHit[] {
  const { clean, removed } = visibleText(text);
  const hits = secretSpans(clean, options.agentKeyPrefix ?? "quire", true).map((s) => ({
    code: s.code,
    match: redactSecret(clean.slice(s.start, s.end)),
    index: s.start,
  }));
  return remap(hits, removed);
}

/**
 * Replaces everything that looks like a secret (placeholders included: when quoting, erring
 * towards redaction is free) with its redacted form. Invisible format characters are dropped
 * first so they cannot split a key past the patterns; the result is meant for display.
 */
export function redactSecrets(text: string, options: { agentKeyPrefix?: string } = {}): string {
  const { clean } = visibleText(text);
  let out = "";
  let last = 0;
  for (const span of secretSpans(clean, options.agentKeyPrefix ?? "quire", false)) {
    out += clean.slice(last, span.start) + redactSecret(clean.slice(span.start, span.end));
    last = span.end;
  }
  return out + clean.slice(last);
}
