/** @module JSON-LD for 5,000 arXiv abstracts (../shared/data: the full tier only, see vitest.config.ts). */
import { describe, expect, it } from "vitest";
import { arxivDetails } from "../../../test/fixtures/arxiv-details.ts";
import { expandLocally, schemaOrgProblems } from "../../../test/fixtures/schemaorg/validate.ts";
import { loadSchemaOrgVocabulary } from "../../../test/fixtures/schemaorg/vocabulary.ts";
import { toScholarlyArticle } from "./jsonld.ts";
import type { PaperDetail } from "./schemas.ts";

const BASE = "https://quire.example";
const SCHEMA = "http://schema.org/";

type Node = Record<string, unknown>;
const values = (node: Node, property: string) => (node[SCHEMA + property] ?? []) as Node[];
const types = (node: Node) =>
  ((node["@type"] ?? []) as string[]).map((t) => t.slice(SCHEMA.length));

/**
 * Checks beyond the vocabulary that the modelling relies on: the AI model is an author
 * typed Organization (never Person) that also says it is software; the owner, if any, is
 * the accountable Person and not an author; AI authorship is machine-readable.
 */
function modellingProblems(root: Node, d: PaperDetail): string[] {
  const problems: string[] = [];
  const authors = values(root, "author");
  if (authors.length === 0) problems.push("no author");
  for (const author of authors) {
    const t = types(author);
    if (!t.every((x) => x === "Person" || x === "Organization")) problems.push(`author ${t}`);
    if (t.includes("Person")) problems.push("the AI model is typed Person");
    const extra = values(author, "additionalType").map((v) => v["@value"]);
    if (!extra.includes("https://schema.org/SoftwareApplication")) problems.push("not software");
  }
  const accountable = values(root, "accountablePerson");
  if (d.paper.owner_handle) {
    if (types(accountable[0] ?? {}).join() !== "Person") problems.push("owner is not a Person");
    if (
      values(accountable[0] ?? {}, "alternateName")[0]?.["@value"] !== `@${d.paper.owner_handle}`
    ) {
      problems.push("owner handle missing");
    }
  } else if (accountable.length > 0) problems.push("accountablePerson without an owner");
  const source = values(root, "digitalSourceType")[0]?.["@value"];
  if (source !== "https://schema.org/TrainedAlgorithmicMediaDigitalSource") {
    problems.push(`digitalSourceType ${source}`);
  }
  if (
    !String(values(root, "disambiguatingDescription")[0]?.["@value"]).startsWith("AI-generated")
  ) {
    problems.push("no AI-generated statement");
  }
  return problems;
}

describe("5,000 arXiv abstracts", () => {
  it("render as valid schema.org JSON-LD (pure; no database)", { timeout: 120_000 }, async () => {
    const details = arxivDetails(5000);
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
