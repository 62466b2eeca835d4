/**
 * @module Every relative link in README.md and docs/ resolves: the file exists and, when the
 * link names a heading (`file.md#anchor`), the file has that heading. Documents move; links
 * that point nowhere are how a tree's docs stop being true.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(path, out);
    else if (entry.name.endsWith(".md")) out.push(path);
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading?.[1]) continue;
    anchors.add(
      heading[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    );
  }
  return anchors;
}

/** Links of the form `[text](target)` outside code, skipping absolute URLs and mail. */
function links(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target);
    }
  }
  return out;
}

const files = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];

describe("documentation links", () => {
  it("finds the documents", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it("resolve to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const link of links(text)) {
        const [path = "", anchor] = link.split("#");
        const target = path === "" ? file : normalize(join(dirname(file), decodeURI(path)));
        const where = `${relative(ROOT, file)} → ${link}`;
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && statSync(target).isFile() && target.endsWith(".md")) {
          if (!anchorsOf(readFileSync(target, "utf8")).has(anchor)) {
            broken.push(`${where} (no such heading)`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps the README a newcomer's page: at most 250 lines, no dates", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
    expect(readme).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
  });
});
