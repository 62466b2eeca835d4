/** @module diffPaperVersions: what changed between two versions of a paper, field by field. */
import { diffLines, diffWordsWithSpace } from "diff";
import { and, eq, inArray } from "drizzle-orm";
import { papers, paperVersions } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { type FieldIssue, Invalid } from "../errors.ts";
import { parsePaperRef } from "../ids.ts";
import { paperNotFound } from "./get.ts";
import { canSeePaper } from "./visibility.ts";

type DiffOp = "same" | "added" | "removed";

export interface DiffPart {
  op: DiffOp;
  text: string;
}

const DIFF_FIELDS = ["title", "abstract", "ai_model", "license", "keywords", "body"] as const;
type DiffField = (typeof DIFF_FIELDS)[number];

export interface FieldDiff {
  field: DiffField;
  changed: boolean;
  parts: DiffPart[];
}

export interface VersionDiff {
  paper_id: string;
  from: { version: number; created_at: string; changelog: string | null };
  to: { version: number; created_at: string; changelog: string | null };
  fields: FieldDiff[];
}

export interface DiffPaperVersionsInput {
  /** `YYMM.NNNNN` (a version suffix is ignored: the versions are `from` and `to`). */
  id: string;
  from: number;
  to: number;
}

/**
 * Edit-distance caps. The diff runs on a public page, so its cost must not depend on how
 * different two versions are: Myers' algorithm is O((N+M)·D), and these caps bound D. Past
 * a cap the change is shown whole (old text removed, new text added), which is still true,
 * just coarser. Lines first, then words only inside a changed block of moderate size.
 */
const LINE_EDITS_MAX = 500;
const WORD_EDITS_MAX = 400;
const REFINE_CHARS_MAX = 6000;
/** Characters of changed body text refined word by word in all; the rest is shown whole. */
const REFINE_BUDGET = 40_000;

/**
 * Compares two versions of a visible paper (same 404 as the paper for anything the caller
 * may not see). Versions must exist and differ; either order is accepted, so a reader can
 * look backwards too. Text fields are compared by words (body: by lines, then by words
 * within changed lines); keywords as a set.
 */
export async function diffPaperVersions(
  ctx: ServiceContext,
  input: DiffPaperVersionsInput,
): Promise<VersionDiff> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const [paper] = await ctx.db
    .select({ status: papers.status, ownerId: papers.ownerId, current: papers.currentVersion })
    .from(papers)
    .where(eq(papers.id, ref.id))
    .limit(1);
  if (!paper || !canSeePaper(ctx.caller, paper)) throw paperNotFound(input.id);

  const issues: FieldIssue[] = [];
  const check = (name: "from" | "to", value: number) => {
    if (!Number.isInteger(value) || value < 1 || value > paper.current) {
      issues.push({
        in: "query",
        name,
        message:
          paper.current === 1
            ? "this paper has only version 1"
            : `must be a version from 1 to ${paper.current}`,
      });
    }
  };
  check("from", input.from);
  check("to", input.to);
  if (issues.length === 0 && input.from === input.to) {
    issues.push({ in: "query", name: "to", message: "must differ from `from`" });
  }
  if (issues.length > 0)
    throw new Invalid("These versions cannot be compared; see errors.", issues);

  const rows = await ctx.db
    .select()
    .from(paperVersions)
    .where(
      and(
        eq(paperVersions.paperId, ref.id),
        inArray(paperVersions.version, [input.from, input.to]),
      ),
    );
  const a = rows.find((r) => r.version === input.from);
  const b = rows.find((r) => r.version === input.to);
  if (!a || !b) throw paperNotFound(input.id);

  const fields: FieldDiff[] = [
    field("title", diffText(a.title, b.title)),
    field("abstract", diffText(a.abstract, b.abstract)),
    field("ai_model", diffWhole(a.aiModel, b.aiModel)),
    field("license", diffWhole(a.license, b.license)),
    field("keywords", diffSet(a.keywords, b.keywords)),
    field("body", diffBody(a.body, b.body)),
  ];
  return {
    paper_id: ref.id,
    from: { version: a.version, created_at: a.createdAt.toISOString(), changelog: a.changelog },
    to: { version: b.version, created_at: b.createdAt.toISOString(), changelog: b.changelog },
    fields,
  };
}

function field(name: DiffField, parts: DiffPart[]): FieldDiff {
  const kept = parts.filter((p) => p.text.length > 0);
  return {
    field: name,
    changed: kept.some((p) => p.op !== "same"),
    // Keywords are items, one per part; text parts of one kind in a row read as one.
    parts: name === "keywords" ? kept : joinRuns(kept),
  };
}

function joinRuns(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last && last.op === part.op) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

function opOf(change: { added: boolean; removed: boolean }): DiffOp {
  return change.added ? "added" : change.removed ? "removed" : "same";
}

/** Both texts whole: the old one removed, the new one added (or one unchanged part). */
function diffWhole(a: string, b: string): DiffPart[] {
  if (a === b) return a ? [{ op: "same", text: a }] : [];
  return [
    ...(a ? [{ op: "removed" as const, text: a }] : []),
    ...(b ? [{ op: "added" as const, text: b }] : []),
  ];
}

/** Word by word (whitespace kept), or whole when the texts are too far apart. */
export function diffText(a: string, b: string): DiffPart[] {
  if (a === b) return diffWhole(a, b);
  if (a.length > REFINE_CHARS_MAX || b.length > REFINE_CHARS_MAX) return diffWhole(a, b);
  const changes = diffWordsWithSpace(a, b, { maxEditLength: WORD_EDITS_MAX });
  if (!changes) return diffWhole(a, b);
  return coalesce(changes.map((c) => ({ op: opOf(c), text: c.value })));
}

/** Unchanged runs this short between two changes are folded into them (see `coalesce`). */
const SHORT_SAME = 4;

/**
 * Word diffs of rewritten prose alternate one-word changes with the spaces and small words
 * they share ("the", " "), which reads as noise. A short unchanged run between two changes
 * is folded into both sides, so each changed stretch reads as one removal then one addition.
 */
export function coalesce(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed = "";
  let added = "";
  let inChange = false;
  const flush = () => {
    if (removed) out.push({ op: "removed", text: removed });
    if (added) out.push({ op: "added", text: added });
    removed = "";
    added = "";
    inChange = false;
  };
  parts.forEach((part, i) => {
    if (part.op === "removed") {
      removed += part.text;
      inChange = true;
    } else if (part.op === "added") {
      added += part.text;
      inChange = true;
    } else {
      const next = parts[i + 1];
      const between = inChange && next !== undefined && next.op !== "same";
      if (between && [...part.text.trim()].length < SHORT_SAME) {
        removed += part.text;
        added += part.text;
      } else {
        flush();
        out.push(part);
      }
    }
  });
  flush();
  return out;
}

/** Line by line, then word by word inside each block of removed lines followed by added ones. */
export function diffBody(a: string, b: string): DiffPart[] {
  if (a === b) return diffWhole(a, b);
  const lines = diffLines(a, b, { maxEditLength: LINE_EDITS_MAX });
  if (!lines) return diffWhole(a, b);
  const out: DiffPart[] = [];
  let budget = REFINE_BUDGET;
  for (let i = 0; i < lines.length; i++) {
    const change = lines[i];
    if (!change) continue;
    const next = lines[i + 1];
    if (change.removed && next?.added) {
      const size = change.value.length + next.value.length;
      if (size <= budget) {
        budget -= size;
        out.push(...diffText(change.value, next.value));
      } else {
        out.push({ op: "removed", text: change.value }, { op: "added", text: next.value });
      }
      i++;
      continue;
    }
    out.push({ op: opOf(change), text: change.value });
  }
  return out;
}

/** Keywords are a set: kept ones, then removed, then added, each in its version's order. */
function diffSet(a: string[], b: string[]): DiffPart[] {
  const inB = new Set(b.map((k) => k.toLowerCase()));
  const inA = new Set(a.map((k) => k.toLowerCase()));
  return [
    ...a.filter((k) => inB.has(k.toLowerCase())).map((text) => ({ op: "same" as const, text })),
    ...a.filter((k) => !inB.has(k.toLowerCase())).map((text) => ({ op: "removed" as const, text })),
    ...b.filter((k) => !inA.has(k.toLowerCase())).map((text) => ({ op: "added" as const, text })),
  ];
}
