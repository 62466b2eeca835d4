/** @module Citations of 5,000 papers (test/fixtures/synthetic-papers.ts). */
import { parse } from "@retorquere/bibtex-parser";
import { describe, expect, it } from "vitest";
import { paperDetails } from "../../../test/fixtures/paper-details.ts";
import { BASE, bracesBalanced, squash } from "./citations.test-helpers.ts";
import { toBibtex, toRis } from "./citations.ts";
import type { PaperDetail } from "./schemas.ts";

describe("toBibtex on 5,000 papers", () => {
  it("round-trips the abstracts richest in LaTeX specials; all 5,000 keep braces balanced", {
    timeout: 120_000,
  }, () => {
    const details = paperDetails(5000);
    const entries = details.map((d) => toBibtex(d, BASE));
    expect(entries.filter((e) => !bracesBalanced(e))).toEqual([]);
    // The parser needs 15-50 ms an entry, so round-trip the 200 hardest records, not all.
    const special = /[\\{}&%$#_~^<>|]/g;
    const kinds = (d: PaperDetail) =>
      new Set(`${d.version.title} ${d.version.abstract}`.match(special) ?? []).size;
    const hardest = details
      .map((d, i) => ({ d, i, k: kinds(d) }))
      .sort((a, b) => b.k - a.k || a.i - b.i)
      .slice(0, 200);
    expect(hardest.at(-1)?.k).toBeGreaterThanOrEqual(3);
    const library = parse(hardest.map(({ i }) => entries[i]).join("\n"), { english: false });
    expect(library.errors).toEqual([]);
    expect(library.entries).toHaveLength(200);
    const mismatches: string[] = [];
    for (const [n, entry] of library.entries.entries()) {
      const d = hardest[n]?.d as PaperDetail;
      if (entry.fields.title !== squash(d.version.title)) mismatches.push(`${d.paper.id} title`);
      if (entry.fields.abstract !== squash(d.version.abstract)) {
        mismatches.push(`${d.paper.id} abstract`);
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });
});

describe("toRis on 5,000 papers", () => {
  it("keeps every record to one value per line", () => {
    const bad = paperDetails(5000).filter((d) => {
      const lines = toRis(d, BASE).slice(0, -2).split("\r\n");
      return (
        lines[0] !== "TY  - GEN" ||
        lines.at(-1) !== "ER  - " ||
        lines.slice(0, -1).some((l) => !/^[A-Z][A-Z0-9] {2}- \S/.test(l))
      );
    });
    expect(bad.map((d) => d.paper.id)).toEqual([]);
  });
});
