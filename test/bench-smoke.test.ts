/**
 * @module Every `bench:*` and `eval:*` script in package.json, run in its smoke mode as a
 * child process (`npm run <script> -- --smoke`) on this run's engine: PGlite, or PostgreSQL
 * when TEST_DATABASE_URL is set. So `.ci/run`, which runs the suite on both engines, runs
 * every benchmark and evaluation twice, and one that stops working fails CI.
 *
 * A smoke run fails on a non-zero exit (each script exits 1 on an error, a non-2xx it did not
 * intend, or a figure it could not compute: see bench/lib/smoke.ts), on "NaN" or "Infinity"
 * anywhere in its output, and when it does not print the smoke marker (a script that
 * ignores `--smoke` would run its full measurement in CI).
 *
 * A new script needs no change here: name it `bench:<what>` or `eval:<what>` in package.json,
 * import bench/lib/smoke.ts and size its defaults with `orSmoke(full, smoke)`, and read the
 * engine from BENCH_ENGINES (or EVAL_ENGINE). Only scripts that ignore the engine, or need
 * PostgreSQL whatever the engine, are listed in ENGINES below.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
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
  "bench:text": ["pglite"],
  "bench:ratelimit": ["pglite"],
  "bench:start": ["pglite"],
  "bench:migrate": ["postgres"],
  "bench:scale": ["postgres"],
};

/** The harness's own script, which runs this file. */
const SELF = "bench:smoke";

const scripts = Object.keys(
  (JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { scripts: object }).scripts,
).filter((name) => /^(bench|eval):/.test(name) && name !== SELF);

interface Run {
  code: number | null;
  output: string;
}

function runSmoke(script: string): Promise<Run> {
  const env: Record<string, string | undefined> = {
    ...process.env,
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

describe(`benchmarks and evaluations in smoke mode on ${ENGINE}`, () => {
  it("finds the scripts in package.json", () => {
    expect(scripts).toContain("bench:api");
    expect(scripts).toContain("eval:scifact");
  });

  for (const script of scripts.filter((s) => (ENGINES[s] ?? [ENGINE]).includes(ENGINE))) {
    it(`${script} runs in smoke mode`, async () => {
      const run = await runSmoke(script);
      const tail = run.output.slice(-4000);
      expect(run.code, `${script} exited ${run.code}:\n${tail}`).toBe(0);
      expect(run.output, `${script} ignored --smoke:\n${tail}`).toContain(SMOKE_MARKER);
      expect(run.output, `${script} printed a figure it could not compute:\n${tail}`).not.toMatch(
        /\bNaN\b|\bInfinity\b/,
      );
    }, 600_000);
  }
});
