/** @module What the JSON-LD tests share: the modelling checks beyond the vocabulary. */
import type { PaperDetail } from "./schemas.ts";

const SCHEMA = "http://schema.org/";

export type Node = Record<string, unknown>;
const values = (node: Node, property: string) => (node[SCHEMA + property] ?? []) as Node[];
const types = (node: Node) =>
  ((node["@type"] ?? []) as string[]).map((t) => t.slice(SCHEMA.length));

/**
 * Checks beyond the vocabulary that the modelling relies on: the AI model is an author
 * typed Organization (never Person) that also says it is software; the owner, if any, is
 * the accountable Person and not an author; AI authorship is machine-readable.
 */
export function modellingProblems(root: Node, d: PaperDetail): string[] {
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
