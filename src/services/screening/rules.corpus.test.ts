/** @module The rule screener calibrated on real corpora: SciFact, arXiv abstracts, unarXive full texts (../shared/data; the full tier only, see vitest.config.ts). */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectLanguage } from "./language.ts";
import { codes, NONE, paper } from "./rules.test-helpers.ts";
import { screenRules } from "./rules.ts";

const SHARED = new URL("../../../../shared/data/", import.meta.url);
const SCIFACT_URL = new URL("beir-scifact/corpus.jsonl", SHARED);
const ARXIV_DIR_URL = new URL("arxiv-daily-cs/data/", SHARED);
const UNARXIVE_URL = new URL("unarxive-sample/arXiv_src_2212_086.jsonl", SHARED);

interface Record_ {
  id: string;
  title: string;
  abstract: string;
}

function loadSciFact(): Record_[] {
  return readFileSync(SCIFACT_URL, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const r = JSON.parse(l) as { _id: string; title: string; text: string };
      return { id: r._id, title: r.title, abstract: r.text };
    });
}

function loadArxiv(): Record_[] {
  const byId = new Map<string, Record_>();
  for (const file of readdirSync(ARXIV_DIR_URL)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    for (const line of readFileSync(new URL(file, ARXIV_DIR_URL), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { id: string; title: string; summary: string };
      byId.set(r.id, { id: r.id, title: r.title, abstract: r.summary });
    }
  }
  return [...byId.values()];
}

const LENGTH_CODES = new Set([
  "title_missing",
  "title_too_short",
  "title_too_long",
  "title_multiline",
  "abstract_missing",
  "abstract_too_short",
  "abstract_too_long",
]);

describe.each([
  ["SciFact corpus", loadSciFact, 5183],
  ["arXiv cs listings (distinct ids)", loadArxiv, 6925],
])("calibration on %s", (name, load, expectedCount) => {
  const records = load();

  it("rejects nothing except records whose title or abstract genuinely fail the length rules", () => {
    const statuses: Record<string, number> = {};
    const reasonCounts: Record<string, number> = {};
    const lengthRejections: string[] = [];
    const otherRejections: string[] = [];
    for (const r of records) {
      const outcome = screenRules(
        {
          title: r.title,
          abstract: r.abstract,
          body: "",
          ai_model: "test",
          license: "CC-BY-4.0",
          keywords: [],
        },
        NONE,
      );
      statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
      for (const x of outcome.reasons) reasonCounts[x.code] = (reasonCounts[x.code] ?? 0) + 1;
      const rejects = outcome.reasons.filter((x) => x.severity === "reject");
      if (rejects.length === 0) continue;
      const line = `${r.id}: ${rejects.map((x) => x.code).join(", ")}`;
      if (rejects.every((x) => LENGTH_CODES.has(x.code))) lengthRejections.push(line);
      else otherRejections.push(line);
    }
    console.info(
      `${name}: ${records.length} records, statuses ${JSON.stringify(statuses)}, reasons ${JSON.stringify(reasonCounts)}, ` +
        `length-rule rejections ${lengthRejections.length} (${((100 * lengthRejections.length) / records.length).toFixed(2)}%): ${lengthRejections.join("; ")}`,
    );
    expect(records.length).toBe(expectedCount);
    expect(otherRejections).toEqual([]);
    expect(lengthRejections.length / records.length).toBeLessThan(0.005);
  });

  it('detects "en" for at least 98% of records', () => {
    const counts: Record<string, number> = {};
    for (const r of records) {
      const language = detectLanguage(`${r.abstract}\n\n`);
      counts[language] = (counts[language] ?? 0) + 1;
    }
    const share = (counts.en ?? 0) / records.length;
    console.info(
      `${name}: detected languages ${JSON.stringify(counts)} (en ${(100 * share).toFixed(2)}%)`,
    );
    expect(share).toBeGreaterThanOrEqual(0.98);
  });
});

describe("calibration on unarXive full texts", () => {
  it("accepts real full papers rendered as Markdown", () => {
    const papers = readFileSync(UNARXIVE_URL, "utf8")
      .split("\n")
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as {
            paper_id: string;
            metadata: { title: string };
            abstract: { text: string };
            body_text: { section: string; text: string }[];
          },
      );
    const summary: string[] = [];
    let rejected = 0;
    for (const p of papers) {
      let body = "";
      let section = "";
      let formula = 0;
      for (const para of p.body_text) {
        if (para.section && para.section !== section) {
          section = para.section;
          body += `## ${section}\n\n`;
        }
        body += `${para.text
          .replace(/\{\{formula:[^}]+\}\}/g, () => `$x_{${formula++}}$`)
          .replace(/\{\{cite:[^}]+\}\}/g, "[1]")}\n\n`;
      }
      const outcome = screenRules(
        paper({ title: p.metadata.title.replace(/\s+/g, " "), abstract: p.abstract.text, body }),
        NONE,
      );
      const rejects = outcome.reasons.filter((r) => r.severity === "reject").map((r) => r.code);
      if (rejects.length > 0) {
        rejected++;
        expect(rejects, p.paper_id).toEqual(["body_too_long"]);
      }
      if (outcome.reasons.length > 0) summary.push(`${p.paper_id}: ${codes(outcome).join(", ")}`);
      expect(outcome.language).toBe("en");
    }
    console.info(
      `unarXive: ${papers.length} papers, ${rejected} rejected (body_too_long only); ${summary.join("; ")}`,
    );
    expect(rejected).toBeLessThanOrEqual(2);
  });
});
