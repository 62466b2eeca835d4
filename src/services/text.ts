/**
 * @module The one text rule of every string input: what PostgreSQL can store and a reader can
 * use. REST, MCP and the pages apply it once each, at their entry, through these functions.
 */
import { z } from "zod";
import { type FieldIssue, Invalid } from "./errors.ts";

/**
 * `line`: ids, handles, keywords, queries, cursors, anything in a URL: no control character
 * at all. `body`: free text (comments, reviews, papers, reasons): tab and line ends allowed.
 * Both refuse NUL (PostgreSQL text cannot hold it) and lone UTF-16 surrogates (they cannot be
 * encoded as UTF-8, so they would be stored as U+FFFD: silently changed text).
 */
export type TextKind = "line" | "body";

const LINE_BAD =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
  /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const BODY_BAD =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const MESSAGES: Record<TextKind, string> = {
  line: "must not contain control characters (NUL, tab, line breaks…) or unpaired surrogates",
  body: "must not contain NUL, control characters other than tab and line breaks, or unpaired surrogates",
};

/** Why `s` cannot be taken as text of this kind, or null when it can. */
export function textProblem(s: string, kind: TextKind): string | null {
  return (kind === "line" ? LINE_BAD : BODY_BAD).test(s) ? MESSAGES[kind] : null;
}

/** A zod string that follows the text rule; services build their schemas from it. */
export function text(kind: TextKind = "line") {
  return z.string().refine((s) => textProblem(s, kind) === null, { message: MESSAGES[kind] });
}

const MAX_DEPTH = 64;

/**
 * Every string in `value` (walked through arrays and objects, keys too) that breaks the rule,
 * as field issues named by their path. Too deep a value is itself an issue.
 */
export function textIssues(
  value: unknown,
  where: FieldIssue["in"],
  kind: TextKind,
  path = "",
  depth = 0,
): FieldIssue[] {
  const name = path || "(root)";
  if (typeof value === "string") {
    const problem = textProblem(value, kind);
    return problem ? [{ in: where, name, message: problem }] : [];
  }
  if (value === null || typeof value !== "object") return [];
  if (depth >= MAX_DEPTH) return [{ in: where, name, message: "is nested too deeply" }];
  const out: FieldIssue[] = [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  for (const [key, v] of entries) {
    const keyProblem = textProblem(key, "line");
    const at = path ? `${path}.${key}` : key;
    if (keyProblem) {
      out.push({ in: where, name: label(key), message: keyProblem });
      continue;
    }
    out.push(...textIssues(v, where, kind, at, depth + 1));
    if (out.length >= 20) break;
  }
  return out;
}

/** Throws Invalid naming every field of `value` that breaks the text rule. */
export function requireText(
  value: unknown,
  where: FieldIssue["in"],
  kind: TextKind,
  message = "The request contains text the archive cannot store; see errors.",
): void {
  const issues = textIssues(value, where, kind);
  if (issues.length > 0) throw new Invalid(message, issues);
}

/**
 * The query and path of a URL checked as `line` text: refused characters named by parameter
 * (query) or segment (path). Malformed percent-encoding is left to the router (a 404).
 */
export function urlTextIssues(url: URL): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const segment of url.pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      continue;
    }
    const problem = textProblem(decoded, "line");
    if (problem) {
      issues.push({ in: "path", name: label(decoded), message: problem });
      break;
    }
  }
  for (const [key, value] of url.searchParams) {
    const problem = textProblem(key, "line") ?? textProblem(value, "line");
    if (problem) issues.push({ in: "query", name: label(key), message: problem });
    if (issues.length >= 20) break;
  }
  return issues;
}

/** A field name fit to echo back: escaped and short. */
function label(s: string): string {
  return JSON.stringify(s.slice(0, 80)).slice(1, -1);
}
