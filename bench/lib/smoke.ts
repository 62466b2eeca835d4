/**
 * @module Smoke mode shared by every `bench:*` and `eval:*` script: `--smoke` (or
 * BENCH_SMOKE=1) shrinks the run to a tiny corpus and a few seconds, so CI can prove each
 * script still runs and still measures something (test/bench-smoke.test.ts).
 */

/** Whether this process runs in smoke mode. */
export const SMOKE = process.argv.includes("--smoke") || process.env.BENCH_SMOKE === "1";

/**
 * The line a script prints when smoke mode is on; the harness requires it, so a script that
 * ignores `--smoke` (and would run its full, slow measurement in CI) fails instead.
 */
export const SMOKE_MARKER =
  "smoke mode: tiny corpus, short runs; figures prove the script works, not the speed";

if (SMOKE) {
  // Child processes a script spawns (one per engine, per measurement) inherit the mode.
  process.env.BENCH_SMOKE = "1";
  process.stderr.write(`${SMOKE_MARKER}\n`);
}

/** `full` normally, `smoke` in smoke mode: the one switch every script's defaults go through. */
export function orSmoke<T>(full: T, smoke: T): T {
  return SMOKE ? smoke : full;
}

/**
 * A figure the script is about to print, checked: NaN or an infinity means it could not be
 * computed (no samples, a zero baseline), which fails the run instead of printing "NaN".
 */
export function figure(name: string, value: number): number {
  if (!Number.isFinite(value)) throw new Error(`${name} could not be computed (${value})`);
  return value;
}

/** Fails the run when a measurement collected nothing. */
export function samples(name: string, count: number): number {
  if (!(count > 0)) throw new Error(`${name}: no samples were collected`);
  return count;
}
