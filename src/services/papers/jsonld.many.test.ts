/** @module JSON-LD for 5,000 papers (test/fixtures/synthetic-papers.ts). */
import { describe, expect, it } from "vitest";
import { paperDetails } from "../../../test/fixtures/paper-details.ts";
import { expandLocally, schemaOrgProblems } from "../../../test/fixtures/schemaorg/validate.ts";
import { loadSchemaOrgVocabulary } from "../../../test/fixtures/schemaorg/vocabulary.ts";
import { modellingProblems, type Node } from "./jsonld.test-helpers.ts";
import { toScholarlyArticle } from "./jsonld.ts";

const BASE = "https://quire.example";

describe("5,000 papers", () => {
  it("render as valid schema.org JSON-LD (pure; no database)", { timeout: 120_000 }, async () => {
    const details = paperDetails(5000);
    expect(details).toHaveLength(5000);
    expect(new Set(details.map((d) => d.paper.id)).size).toBe(5000);
    const vocabulary = loadSchemaOrgVocabulary();
    const failures: string[] = [];
    for (const [i, d] of details.entries()) {
      const doc = toScholarlyArticle(d, BASE, { versioned: i % 4 === 0 });
      const expanded = await expandLocally(doc);
      const problems = [
        ...schemaOrgProblems(expanded, vocabulary),
        ...modellingProblems(expanded[0] as Node, d),
      ];
      const record = doc as unknown as Record<string, unknown>;
      if (record.name !== d.version.title) problems.push("title changed");
      if (record.abstract !== d.version.abstract) problems.push("abstract changed");
      if (problems.length > 0) failures.push(`${d.paper.id}: ${problems.join("; ")}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
