/**
 * @module bench/lib/results.ts: a result is written as JSON with its provenance and as
 * Markdown rendered from the same record (tables for lists of records and records of records,
 * key/value lists for the rest), into BENCH_RESULTS_DIR when set.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderResult, writeResult } from "../bench/lib/results.ts";

let dir: string;
const saved = process.env.BENCH_RESULTS_DIR;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "quire-results-test-"));
  process.env.BENCH_RESULTS_DIR = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.BENCH_RESULTS_DIR;
  else process.env.BENCH_RESULTS_DIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("writeResult", () => {
  it("writes the figures with their provenance as JSON and as Markdown", () => {
    const path = writeResult("example", {
      settings: { seconds: 10, engines: ["pglite", "postgres"] },
      rows: [
        { endpoint: "trivial", rps: 20682.4, vsTrivial: 1 },
        { endpoint: "detail | cached", rps: 3048, vsTrivial: 0.147361 },
      ],
    });
    expect(path).toBe(join(dir, "example.json"));
    const record = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    expect(Object.keys(record).slice(0, 7)).toEqual([
      "name",
      "date",
      "commit",
      "command",
      "machine",
      "load",
      "smoke",
    ]);
    expect(record.smoke).toBe(false);
    expect(record.rows).toHaveLength(2);
    const md = readFileSync(join(dir, "example.md"), "utf8");
    expect(md).toMatch(/^# Results: example\n/);
    expect(md).toContain("- smoke run: no");
    expect(md).toContain("- engines: pglite, postgres");
    expect(md).toContain("| endpoint | rps | vsTrivial |");
    expect(md).toContain("| trivial | 20,682 | 1 |");
    expect(md).toContain("| detail \\| cached | 3,048 | 0.1474 |");
  });

  it("refuses figures named like its provenance", () => {
    expect(() => writeResult("clash", { load: { seconds: 1 } })).toThrow(/load/);
  });
});

describe("renderResult", () => {
  it("renders records of records as a table keyed by name, and byte counts in binary units", () => {
    const md = renderResult({
      name: "r",
      peakRssBytes: 3 * 2 ** 20,
      tables: { agents: { rows: 0, bytes: 40_960 }, papers: { rows: 12, bytes: 2 ** 31 } },
      missing: Number.NaN,
      failures: [],
    });
    expect(md).toContain("- peakRssBytes: 3 MiB");
    expect(md).toContain("- missing: –");
    expect(md).toContain("- failures: none");
    expect(md).toContain("## tables\n\n|  | rows | bytes |\n| --- | --- | --- |");
    expect(md).toContain("| agents | 0 | 40 KiB |");
    expect(md).toContain("| papers | 12 | 2 GiB |");
  });

  it("gives each item of a list of nested records a heading of its first text", () => {
    const md = renderResult({
      name: "r",
      engines: [{ engine: "pglite", latency: { lexical: { p50: 1.5, p95: 3 } } }],
    });
    expect(md).toContain("### pglite\n\n- engine: pglite\n\n#### latency\n\n|  | p50 | p95 |");
    expect(md).toContain("| lexical | 1.5 | 3 |");
  });
});
