/**
 * @module Benchmark results as files: each run writes `bench/results/<name>.json` with its
 * figures and where they came from (commit, date, machine, load, command), and beside it
 * `<name>.md`, the same record rendered as tables, so documentation links a file a command
 * wrote instead of restating numbers. Smoke runs write to the system's temporary folder
 * instead (or BENCH_RESULTS_DIR): they prove the script works, and their figures mean nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SMOKE } from "./smoke.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RESULTS = join(ROOT, "bench", "results");

/** The provenance every record starts with; the rest of a record is the script's figures. */
const PROVENANCE = ["name", "date", "commit", "command", "machine", "load", "smoke"];

/** Variables that say where or how a run reports, not what it measured (smoke is its own line). */
const NOT_SETTINGS = new Set(["BENCH_RESULTS_DIR", "BENCH_SMOKE"]);

function commit(): string {
  try {
    const git = (args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" });
    const sha = git(["rev-parse", "--short", "HEAD"]).trim();
    // Other scripts' result files are not changes to what is measured.
    const dirty = git([
      "status",
      "--porcelain",
      "--untracked-files=no",
      "--",
      ".",
      ":(exclude)bench/results",
    ]).trim();
    return dirty ? `${sha}+changes` : sha;
  } catch {
    return "unknown";
  }
}

/**
 * The script and its arguments, and the BENCH_* / EVAL_* settings it ran with (URLs only
 * named: they can carry a password).
 */
function command(): string {
  const settings = Object.entries(process.env)
    .filter(([key, value]) => /^(BENCH|EVAL)_/.test(key) && !NOT_SETTINGS.has(key) && value)
    .map(([key, value]) => (key.endsWith("_URL") ? `${key}=…` : `${key}=${value}`))
    .sort();
  const script = process.argv[1] ? relative(ROOT, process.argv[1]) : "unknown";
  return [...settings, script, ...process.argv.slice(2)].join(" ");
}

/**
 * Where results go: BENCH_RESULTS_DIR when set (the smoke harness gives each run its own),
 * else the repository's bench/results, or a temporary folder in smoke mode.
 */
export function resultsDir(): string {
  const dir =
    process.env.BENCH_RESULTS_DIR || (SMOKE ? join(tmpdir(), "quire-bench-results") : RESULTS);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Writes the run's figures with their provenance as `<name>.json` and `<name>.md`; returns
 * the JSON file's path (both are printed). Figures are plain data: numbers, strings, arrays
 * of records (rendered as tables), and objects of them.
 */
export function writeResult(name: string, figures: Record<string, unknown>): string {
  const clash = Object.keys(figures).filter((k) => PROVENANCE.includes(k));
  if (clash.length > 0)
    throw new Error(`result ${name}: figures may not be named ${clash.join(", ")}`);
  const dir = resultsDir();
  const record = {
    name,
    date: new Date().toISOString(),
    commit: commit(),
    command: command(),
    machine: {
      cpu: cpus()[0]?.model.trim() ?? "unknown",
      cores: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: process.platform,
    },
    load: loadavg().map((l) => Math.round(l * 100) / 100),
    smoke: SMOKE,
    ...figures,
  };
  const json = join(dir, `${name}.json`);
  writeFileSync(json, `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(dir, `${name}.md`), renderResult(record));
  console.log(`results: ${json} (and ${name}.md)`);
  return json;
}

// --- rendering ------------------------------------------------------------------------------

type Primitive = string | number | boolean | null | undefined;
type Flat = Record<string, Primitive>;

const isPrimitive = (v: unknown): v is Primitive => v === null || typeof v !== "object";
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isFlat = (v: unknown): v is Flat => isRecord(v) && Object.values(v).every(isPrimitive);

/** A value as a table cell; a number under a key ending in "bytes" is shown in KiB, MiB or GiB. */
function cell(v: unknown, key = ""): string {
  if (v === null || v === undefined) return "–";
  if (typeof v === "number" && /bytes$/i.test(key) && Number.isFinite(v)) {
    const [unit, size] =
      Math.abs(v) >= 2 ** 30
        ? ["GiB", 2 ** 30]
        : Math.abs(v) >= 2 ** 20
          ? ["MiB", 2 ** 20]
          : ["KiB", 2 ** 10];
    return `${cell(v / (size as number))} ${unit}`;
  }
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return "–";
    return v.toLocaleString(
      "en",
      Number.isInteger(v) || Math.abs(v) >= 1000
        ? { maximumFractionDigits: 0 }
        : { maximumSignificantDigits: 4 },
    );
  }
  if (isPrimitive(v)) return String(v).replace(/\|/g, "\\|").replace(/\n/g, " ");
  return `\`${JSON.stringify(v)}\``;
}

function table(rows: Flat[], keyColumn?: string[]): string[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const header = keyColumn ? ["", ...columns] : columns;
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r, i) => {
      const cells = columns.map((c) => cell(r[c], c));
      return `| ${(keyColumn ? [keyColumn[i] ?? "", ...cells] : cells).join(" | ")} |`;
    }),
    "",
  ];
}

/** A heading for an array item: its first string field, or its position. */
function labelOf(item: unknown, index: number): string {
  const text = isRecord(item) ? Object.values(item).find((v) => typeof v === "string") : undefined;
  return typeof text === "string" ? text : `#${index + 1}`;
}

function section(title: string, value: unknown, depth: number): string[] {
  const heading = [`${"#".repeat(Math.min(depth, 6))} ${title}`, ""];
  if (Array.isArray(value)) {
    if (value.every(isFlat)) return [...heading, ...table(value)];
    return [
      ...heading,
      ...value.flatMap((item, i) =>
        isPrimitive(item) ? [`- ${cell(item)}`] : section(labelOf(item, i), item, depth + 1),
      ),
      "",
    ];
  }
  if (isRecord(value)) {
    const entries = Object.values(value);
    if (entries.length > 0 && entries.every(isFlat)) {
      return [...heading, ...table(entries, Object.keys(value))];
    }
    return [...heading, ...fields(value, depth + 1)];
  }
  return [...heading, cell(value), ""];
}

/** Primitive fields (and short lists of them) as one key/value list, then a section for each other. */
function fields(record: Record<string, unknown>, depth: number): string[] {
  const simple = Object.entries(record).filter(
    ([, v]) =>
      isPrimitive(v) || (Array.isArray(v) && v.every(isPrimitive) && v.join(", ").length <= 100),
  );
  const list = simple.map(
    ([k, v]) =>
      `- ${k}: ${Array.isArray(v) ? v.map((x) => cell(x, k)).join(", ") || "none" : cell(v, k)}`,
  );
  return [
    ...(list.length > 0 ? [...list, ""] : []),
    ...Object.entries(record)
      .filter(([k]) => !simple.some(([s]) => s === k))
      .flatMap(([k, v]) => section(k, v, depth)),
  ];
}

/** A result record as Markdown: provenance first, then the figures as lists and tables. */
export function renderResult(record: Record<string, unknown>): string {
  const m = isRecord(record.machine) ? record.machine : {};
  const figures = Object.fromEntries(
    Object.entries(record).filter(([k]) => !PROVENANCE.includes(k)),
  );
  const lines = [
    `# Results: ${cell(record.name)}`,
    "",
    `Rendered by bench/lib/results.ts from ${cell(record.name)}.json beside it; do not edit.`,
    "",
    `- date: ${cell(record.date)}`,
    `- commit: ${cell(record.commit)}`,
    `- command: ${record.command ? `\`${String(record.command)}\`` : "not recorded"}`,
    `- machine: ${cell(m.cpu)}, ${cell(m.cores)} cores, ${cell(m.memoryGiB)} GiB, node ${cell(m.node)}, ${cell(m.platform)}`,
    `- load average (1, 5, 15 min): ${Array.isArray(record.load) ? record.load.map((l) => cell(l)).join(", ") : "–"}`,
    `- smoke run: ${record.smoke ? "yes (the figures prove the script works, not the speed)" : "no"}`,
    "",
    ...fields(figures, 2),
  ];
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
