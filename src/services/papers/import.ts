/** @module importPapers: JSONL records through publishVersion, one line at a time. */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { DomainError, Invalid } from "../errors.ts";
import { FilesFull, type SavedConversions } from "../files/index.ts";
import { findOwnerByHandle } from "../owners/index.ts";
import { subjectsProblems } from "../subjects/index.ts";
import { type PublishResult, publishVersion } from "./publish.ts";
import { type FieldsFromSource, fieldsFromSource } from "./source.ts";

const ImportRecordSchema = z.strictObject({
  /** With a `source` LaTeX bundle, title and abstract default to its \\title and abstract. */
  title: z.string().optional(),
  abstract: z.string().optional(),
  /** Absent when `source` gives the text. */
  body: z.string().optional(),
  /** A .zip or .tar.gz source bundle (LaTeX or Markdown with figures), relative to the JSONL file. */
  source: z.string().min(1).max(500).optional(),
  /** The bundle's main file, when it cannot be told (several `\\documentclass` or `.md` files). */
  main: z.string().min(1).max(200).optional(),
  ai_model: z.string(),
  license: z.string(),
  keywords: z.array(z.string()).max(50),
  /** Subject codes, the primary first (services/subjects); unknown codes make the line invalid. */
  subjects: z.array(z.string()).optional(),
  owner: z.string().optional(),
  published_at: z.iso.datetime({ offset: true }).optional(),
});
type ImportRecord = z.infer<typeof ImportRecordSchema>;

export interface ImportLineResult {
  line: number;
  outcome: PublishResult["outcome"] | "invalid";
  paper_id?: string;
  messages: string[];
}

export interface ImportSummary {
  published: number;
  /** Stored for a moderator: the LLM screener (asked with `llmScreening`) gave no verdict. */
  held: number;
  already_imported: number;
  rejected: number;
  invalid: number;
  warnings: number;
}

export interface ImportOptions {
  /**
   * Ask the LLM screener about every record too (when SCREENER_URL is set). Off by default:
   * an import is the operator's own, often large, collection, and a model call per record
   * would make it slow, costly and dependent on the endpoint (docs/adr/0012).
   */
  llmScreening?: boolean;
  /**
   * Reads a record's `source` bundle, given as written in the record (the CLI resolves it
   * against the JSONL file's folder and refuses paths outside it). Without it, records with
   * a `source` are invalid.
   */
  readSource?: (path: string) => Promise<Uint8Array>;
  /**
   * LaTeX conversions made earlier, by archive hash (the sample papers'): a bundle found here
   * is not converted again, and imports as if it had been (same text, files and import key).
   */
  savedConversions?: SavedConversions;
}

/**
 * Imports records as the operator. A bad line is reported with its number and skipped;
 * the rest go in. Each record's import key is the SHA-256 of its canonical form, so a
 * rerun (or a resumed, interrupted run) skips what is already in: idempotent.
 */
export async function importPapers(
  ctx: ServiceContext,
  lines: AsyncIterable<string> | Iterable<string>,
  onLine: (result: ImportLineResult) => void = () => {},
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    published: 0,
    held: 0,
    already_imported: 0,
    rejected: 0,
    invalid: 0,
    warnings: 0,
  };
  const owners = new Map<string, string | null>();
  const operator = { ...ctx, caller: { kind: "operator" as const } };
  let lineNumber = 0;
  let processed = 0;
  for await (const raw of lines) {
    lineNumber++;
    const text = raw.trim();
    if (text === "") continue;
    const result = await importLine(operator, text, lineNumber, owners, options);
    if (++processed === 100 || processed % 1000 === 0) await refreshStatistics(ctx);
    if (result.outcome === "invalid") summary.invalid++;
    else summary[result.outcome]++;
    if (result.outcome === "published" && result.messages.length > 0) summary.warnings++;
    onLine(result);
  }
  if (processed > 0) await refreshStatistics(ctx);
  return summary;
}

/**
 * A bulk import changes table sizes by orders of magnitude; fresh planner statistics keep
 * the duplicate checks on their indexes (PGlite has no autovacuum, and PostgreSQL's may lag).
 */
async function refreshStatistics(ctx: ServiceContext): Promise<void> {
  await ctx.db.execute(sql`analyze papers, paper_versions, chunks, screening_results`);
}

async function importLine(
  ctx: ServiceContext,
  text: string,
  line: number,
  owners: Map<string, string | null>,
  options: ImportOptions,
): Promise<ImportLineResult> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { line, outcome: "invalid", messages: ["not valid JSON"] };
  }
  const parsed = ImportRecordSchema.safeParse(json);
  if (!parsed.success) {
    return {
      line,
      outcome: "invalid",
      messages: parsed.error.issues.map((i) => `${i.path.join(".") || "(record)"}: ${i.message}`),
    };
  }
  const record = parsed.data;
  let source: FieldsFromSource | null = null;
  if (record.source) {
    if (!options.readSource) {
      return { line, outcome: "invalid", messages: ["source: this import cannot read files"] };
    }
    try {
      const bytes = await options.readSource(record.source);
      source = await fieldsFromSource(
        ctx,
        record,
        { bytes, main: record.main },
        { saved: options.savedConversions },
      );
    } catch (error) {
      if (error instanceof Invalid && error.issues.length > 0) {
        const messages = error.issues.map((issue) => `${issue.name}: ${issue.message}`);
        return { line, outcome: "invalid", messages };
      }
      if (!(error instanceof DomainError)) throw error;
      return { line, outcome: "invalid", messages: [`source: ${error.message}`] };
    }
  } else {
    const missing = (["title", "abstract", "body"] as const).filter((k) => record[k] === undefined);
    if (missing.length > 0) {
      return {
        line,
        outcome: "invalid",
        messages: missing.map((k) => `${k}: required without a source`),
      };
    }
  }
  const subjectProblems = record.subjects ? subjectsProblems(record.subjects) : [];
  if (subjectProblems.length > 0) {
    return {
      line,
      outcome: "invalid",
      messages: subjectProblems.map(
        (p) => `subjects${p.index === null ? "" : `.${p.index}`}: ${p.message}`,
      ),
    };
  }
  let ownerId: string | null = null;
  if (record.owner) {
    if (!owners.has(record.owner)) {
      owners.set(record.owner, (await findOwnerByHandle(ctx, record.owner))?.id ?? null);
    }
    ownerId = owners.get(record.owner) ?? null;
    if (!ownerId)
      return {
        line,
        outcome: "invalid",
        messages: [`owner: no owner has the handle "${record.owner}"`],
      };
  }
  const input = {
    title: source ? source.title : (record.title ?? ""),
    abstract: source ? source.abstract : (record.abstract ?? ""),
    body: source ? source.body : (record.body ?? ""),
    ...(source ? { files: source.files } : {}),
    ai_model: record.ai_model,
    license: record.license,
    keywords: record.keywords,
    subjects: record.subjects,
    ownerId,
    importKey: importKeyOf(source ? { ...record, source: source.sha256 } : record),
    llmScreening: options.llmScreening ?? false,
    ...(record.published_at ? { publishedAt: new Date(record.published_at) } : {}),
  };
  let result: PublishResult;
  try {
    result = await publishVersion(ctx, input);
  } catch (error) {
    // A full file store (FILES_MAX_MB) refuses this line; the lines after it may still go in
    // (text, or files the archive already has).
    if (!(error instanceof FilesFull)) throw error;
    return { line, outcome: "invalid", messages: [`source: ${error.message}`] };
  }
  if (result.outcome === "already_imported") {
    return { line, outcome: result.outcome, paper_id: result.paper_id, messages: [] };
  }
  const messages = result.screening.reasons.map((r) => `${r.severity}: ${r.message}`);
  return result.outcome === "rejected"
    ? { line, outcome: "rejected", messages }
    : { line, outcome: result.outcome, paper_id: result.paper_id, messages };
}

/**
 * SHA-256 of the record with keys sorted: the same record always has the same key. A
 * record's `source` counts by its bundle's hash, so a changed bundle is a new record.
 */
function importKeyOf(record: ImportRecord): string {
  const canonical = JSON.stringify(record, Object.keys(record).sort());
  return createHash("sha256").update(canonical).digest("hex");
}
