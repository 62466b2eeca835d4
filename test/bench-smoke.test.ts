/**
 * @module Every `bench:*` and `eval:*` script in package.json, and `fuzz`, run in its smoke
 * mode as a child process (`npm run <script> -- --smoke`) on this run's engine: PGlite, or
 * PostgreSQL when TEST_DATABASE_URL is set. So `.ci/run`, which runs the suite on both
 * engines, runs every benchmark and evaluation twice, and one that stops working fails CI.
 *
 * A smoke run fails on a non-zero exit (each script exits 1 on an error, a non-2xx it did not
 * intend, or a figure it could not compute: see bench/lib/smoke.ts), on "NaN" or "Infinity"
 * anywhere in its output, when it does not print the smoke marker (a script that ignores
 * `--smoke` would run its full measurement in CI), and when it did not write the result files
 * listed for it in RESULTS (bench/lib/results.ts), each with its provenance and the figures
 * named there, none empty. Each run writes into a temporary folder of its own
 * (BENCH_RESULTS_DIR), so bench/results/ never changes in CI and no other run's files count.
 *
 * A new script: name it `bench:<what>` or `eval:<what>` in package.json, import
 * bench/lib/smoke.ts and size its defaults with `orSmoke(full, smoke)`, read the engine from
 * BENCH_ENGINES (or EVAL_ENGINE), write its figures with `writeResult`, and list what it
 * writes in RESULTS below. Only scripts that ignore the engine, or need PostgreSQL whatever the
 * engine, are listed in ENGINES.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SMOKE_MARKER } from "../bench/lib/smoke.ts";

type Engine = "pglite" | "postgres";

const ROOT = new URL("..", import.meta.url);
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const ENGINE: Engine = DATABASE_URL ? "postgres" : "pglite";

/**
 * The passes a script runs in, when not both: engine-free scripts once (in the PGlite pass),
 * and scripts that always use PostgreSQL (a migration into it, nginx in front of it) in the
 * PostgreSQL pass.
 */
const ENGINES: Record<string, Engine[]> = {
  "bench:diff": ["pglite"],
  "bench:render": ["pglite"],
  "bench:latex": ["pglite"],
  "bench:text": ["pglite"],
  "bench:ratelimit": ["pglite"],
  "bench:start": ["pglite"],
  "bench:migrate": ["postgres"],
  "bench:scale": ["postgres"],
  "eval:croissant": ["pglite"],
  "eval:screening": ["pglite"],
};

/**
 * The result files each script writes (by name, without .json/.md) and the figures each must
 * hold besides its provenance: what a script that silently stopped measuring would lose.
 */
const RESULTS: Record<string, Record<string, string[]>> = {
  "bench:api": { api: ["settings", "engines"] },
  "bench:cache": { cache: ["settings", "traffic", "cache", "rssBytes"] },
  "bench:diff": { diff: ["settings", "cases"] },
  "bench:export": { export: ["settings", "rows"] },
  "bench:find": { find: ["targets", "iterations", "runs"] },
  "bench:latex": { latex: ["settings", "fidelity", "timing"] },
  "bench:migrate": {
    migrate: ["settings", "import", "migrate", "largestTables", "responses", "backup"],
  },
  "bench:ratelimit": {
    ratelimit: ["settings", "consume", "GET /api/v1/openapi.json in process"],
  },
  "bench:reads": { reads: ["settings", "rows"] },
  "bench:render": { render: ["settings", "cases"] },
  "bench:scale": { scale: ["settings", "configurations"] },
  "bench:search": { search: ["settings", "engines"] },
  "bench:soak": { [`soak-${ENGINE}`]: ["settings", "answers", "snapshots", "pruned", "verdicts"] },
  "bench:start": { start: ["settings", "starts", "warmStartsS"] },
  "bench:text": { text: ["settings", "operations"] },
  "bench:writes": { writes: ["settings", "rows"] },
  "eval:arxiv": { arxiv: ["settings", "sets"] },
  "eval:croissant": { "eval-croissant": ["failureCases", "exampleDatasets"] },
  "eval:related": { "eval-related": ["papers", "queries", "metric", "engines"] },
  "eval:screening": { "eval-screening": ["bounds", "abstracts", "fullTexts"] },
  "eval:scifact": { scifact: ["settings", "channels", "publishedBaselines"] },
  fuzz: { fuzz: ["settings", "sent", "byStatus"] },
};

/** Provenance every result file starts with (bench/lib/results.ts). */
const PROVENANCE = ["name", "date", "commit", "command", "machine", "load", "smoke"];

/** The harness's own script, which runs this file. */
const SELF = "bench:smoke";

const scripts = Object.keys(
  (JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { scripts: object }).scripts,
).filter((name) => (/^(bench|eval):/.test(name) || name === "fuzz") && name !== SELF);

interface Run {
  code: number | null;
  output: string;
}

function runSmoke(script: string, resultsDir: string): Promise<Run> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    BENCH_RESULTS_DIR: resultsDir,
    BENCH_ENGINES: ENGINE,
    EVAL_ENGINE: ENGINE,
    LOG_LEVEL: "silent",
  };
  if (DATABASE_URL) {
    env.BENCH_ADMIN_URL = DATABASE_URL;
    env.EVAL_ADMIN_URL = DATABASE_URL;
  }
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", script, "--", "--smoke"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += String(d);
    });
    child.stderr.on("data", (d) => {
      output += String(d);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Whether a figure holds something: a number or boolean, or a non-empty text, list or record. */
function present(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** What is wrong with the result files `expected` in `dir` (none: an empty list). */
function resultProblems(dir: string, expected: Record<string, string[]>): string[] {
  const problems: string[] = [];
  for (const [name, keys] of Object.entries(expected)) {
    const json = join(dir, `${name}.json`);
    const md = join(dir, `${name}.md`);
    if (!existsSync(json)) {
      problems.push(`${name}.json was not written`);
      continue;
    }
    const record = JSON.parse(readFileSync(json, "utf8")) as Record<string, unknown>;
    for (const key of PROVENANCE) if (!(key in record)) problems.push(`${name}: no ${key}`);
    if (record.name !== name) problems.push(`${name}: named ${String(record.name)}`);
    if (record.smoke !== true) problems.push(`${name}: not marked as a smoke run`);
    for (const key of keys) {
      if (!present(record[key])) problems.push(`${name}: figure "${key}" missing or empty`);
    }
    if (!existsSync(md)) problems.push(`${name}.md was not written`);
    else if (!readFileSync(md, "utf8").startsWith(`# Results: ${name}\n`)) {
      problems.push(`${name}.md does not start with its title`);
    }
  }
  return problems;
}

describe(`benchmarks and evaluations in smoke mode on ${ENGINE}`, () => {
  it("finds the scripts in package.json, and knows what each writes", () => {
    expect(scripts).toContain("bench:api");
    expect(scripts).toContain("eval:scifact");
    expect(scripts).toContain("fuzz");
    expect(scripts.filter((s) => !(s in RESULTS))).toEqual([]);
  });

  for (const script of scripts.filter((s) => (ENGINES[s] ?? [ENGINE]).includes(ENGINE))) {
    it(`${script} runs in smoke mode and writes its results`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "quire-bench-smoke-"));
      try {
        const run = await runSmoke(script, dir);
        const tail = run.output.slice(-4000);
        expect(run.code, `${script} exited ${run.code}:\n${tail}`).toBe(0);
        expect(run.output, `${script} ignored --smoke:\n${tail}`).toContain(SMOKE_MARKER);
        expect(run.output, `${script} printed a figure it could not compute:\n${tail}`).not.toMatch(
          /\bNaN\b|\bInfinity\b/,
        );
        expect(resultProblems(dir, RESULTS[script] ?? {}), `${script}:\n${tail}`).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 600_000);
  }
});
