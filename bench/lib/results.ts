/**
 * @module Benchmark results as files: each run writes `bench/results/<name>.json` with its
 * figures and where they came from (commit, date, machine, load), so documentation links a
 * file a command wrote instead of restating numbers. Smoke runs write to the system's
 * temporary folder instead: they prove the script works, and their figures mean nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SMOKE } from "./smoke.ts";

const RESULTS = fileURLToPath(new URL("../results", import.meta.url));

function commit(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      encoding: "utf8",
    }).trim();
    return dirty ? `${sha}+changes` : sha;
  } catch {
    return "unknown";
  }
}

/** Where a result named `name` is written (the repository's, or a temporary one in smoke mode). */
export function resultPath(name: string): string {
  const dir = SMOKE ? join(tmpdir(), "quire-bench-results") : RESULTS;
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.json`);
}

/** Writes the run's figures with its provenance; returns the file's path (printed too). */
export function writeResult(name: string, figures: Record<string, unknown>): string {
  const path = resultPath(name);
  const record = {
    name,
    date: new Date().toISOString(),
    commit: commit(),
    machine: {
      cpu: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: process.platform,
    },
    load: loadavg().map((l) => Math.round(l * 100) / 100),
    smoke: SMOKE,
    ...figures,
  };
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`results: ${path}`);
  return path;
}
