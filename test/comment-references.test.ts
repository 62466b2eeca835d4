/** @module Every file a code comment names (docs/…, src/…, services/…) exists in this repository; reads only the repository's own files. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
const TREES = ["src", "test", "bench", "scripts", "eval", "fuzz"];
/** A path as comments write it: from the root, from src, or from the file's folder. */
const PATH =
  /(?<![\w./-])((?:\.\.?\/)*(?:docs|src|services|http|mcp|cli|db|testing|bench|scripts|test|eval|fuzz)\/[\w./-]*\w)/g;
/** A comment naming the specification's folder beside the repository rather than docs/contract. */
const OUTSIDE_SPEC = new RegExp(`${["shared", "spec"].join("\\/")}\\b`);
/** Where a line's comment starts: `//` after a blank, `/*`, or a JSDoc continuation `*`. */
const COMMENT = /(?:^|\s)\/\/(.*)|\/\*(.*)|^\s*\*(.*)/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "fixtures") sourceFiles(path, out);
    } else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * Root-, src- or file-relative; `docs/adr/0012` names the ADR numbered 0012. A results file
 * (`bench/results/<name>.json` or `.md`) is what a script writes when it runs: its folder must
 * exist, the file need not until the script's first full run.
 */
function resolves(file: string, ref: string): boolean {
  if (/^bench\/results\/[\w.-]+\.(json|md)$/.test(ref))
    return existsSync(join(ROOT, "bench/results"));
  const adr = /^docs\/adr\/(\d{4})$/.exec(ref);
  if (adr) return readdirSync(join(ROOT, "docs/adr")).some((n) => n.startsWith(`${adr[1]}-`));
  return [join(ROOT, ref), join(ROOT, "src", ref), join(dirname(file), ref)].some((p) =>
    existsSync(p),
  );
}

function references(): { at: string; ref: string; ok: boolean }[] {
  const found = [];
  for (const file of TREES.flatMap((t) => sourceFiles(join(ROOT, t)))) {
    const lines = readFileSync(file, "utf8").split("\n");
    for (const [i, line] of lines.entries()) {
      const m = COMMENT.exec(line);
      const text = m?.[1] ?? m?.[2] ?? m?.[3];
      if (!text) continue;
      for (const [, ref] of text.matchAll(PATH)) {
        const at = `${relative(ROOT, file)}:${i + 1}`;
        found.push({ at, ref: ref as string, ok: resolves(file, ref as string) });
      }
    }
  }
  return found;
}

describe("comment references", () => {
  it("name only files that exist in the repository", () => {
    const all = references();
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((r) => !r.ok).map((r) => `${r.at} ${r.ref}`)).toEqual([]);
  });

  // The specification's copy outside this repository is not part of a clone: comments cite
  // docs/contract, which is. (This test reads only the repository's own source files.)
  it("cite the contract in docs/contract, never the specification's copy outside the repository", () => {
    const outside = TREES.flatMap((t) => sourceFiles(join(ROOT, t))).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => {
          const m = COMMENT.exec(line);
          const text = m?.[1] ?? m?.[2] ?? m?.[3] ?? "";
          return OUTSIDE_SPEC.test(text) ? [`${relative(ROOT, file)}:${i + 1}`] : [];
        }),
    );
    expect(outside).toEqual([]);
  });
});
