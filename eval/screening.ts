/**
 * @module `npm run eval:screening`: the rule screener and the language detector calibrated on
 * real research text that no test fixture holds (../shared/data): the SciFact corpus, the
 * arXiv cs listings and the unarXive full texts. A real abstract must pass every rule but the
 * length rules (which may refuse under 0.5 % of them), at least 98 % of abstracts are detected
 * as English, and at most two full papers are refused, each only as `body_too_long`.
 *
 * Writes `bench/results/eval-screening.json`; exits 1 when a bound is not met. `--smoke` screens
 * the first 300 records of each corpus and 5 full texts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { writeResult } from "../bench/lib/results.ts";
import { orSmoke, samples } from "../bench/lib/smoke.ts";
import { detectLanguage } from "../src/services/screening/language.ts";
import { type DuplicateEvidence, screenRules } from "../src/services/screening/rules.ts";

const SHARED = new URL("../../shared/data/", import.meta.url);
const SCIFACT = new URL("beir-scifact/corpus.jsonl", SHARED);
const ARXIV_DIR = new URL("arxiv-daily-cs/data/", SHARED);
const UNARXIVE = new URL("unarxive-sample/arXiv_src_2212_086.jsonl", SHARED);

const RECORDS = orSmoke(Number.POSITIVE_INFINITY, 300);
const FULL_TEXTS = orSmoke(Number.POSITIVE_INFINITY, 5);
const NONE: DuplicateEvidence = { exactDuplicateOf: null, nearDuplicates: [] };

/** The bounds a calibration must meet. */
const BOUNDS = {
  lengthRejectionShare: 0.005,
  englishShare: 0.98,
  fullTextsRefused: 2,
};

const LENGTH_CODES = new Set([
  "title_missing",
  "title_too_short",
  "title_too_long",
  "title_multiline",
  "abstract_missing",
  "abstract_too_short",
  "abstract_too_long",
]);

interface Abstract {
  id: string;
  title: string;
  abstract: string;
}

function lines(url: URL): string[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((l) => l.trim());
}

function loadSciFact(): Abstract[] {
  return lines(SCIFACT).map((l) => {
    const r = JSON.parse(l) as { _id: string; title: string; text: string };
    return { id: r._id, title: r.title, abstract: r.text };
  });
}

function loadArxiv(): Abstract[] {
  const byId = new Map<string, Abstract>();
  for (const file of readdirSync(ARXIV_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    for (const line of lines(new URL(file, ARXIV_DIR))) {
      const r = JSON.parse(line) as { id: string; title: string; summary: string };
      byId.set(r.id, { id: r.id, title: r.title, abstract: r.summary });
    }
  }
  return [...byId.values()];
}

function paper(title: string, abstract: string, body: string) {
  return {
    title,
    abstract,
    body,
    ai_model: "eval",
    license: "CC-BY-4.0",
    keywords: [],
  };
}

/** Screens abstracts: which rules refuse them, and which language they are detected as. */
function calibrate(corpus: string, records: Abstract[]) {
  const statuses: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  const languages: Record<string, number> = {};
  const lengthRejections: string[] = [];
  const otherRejections: string[] = [];
  for (const r of records) {
    const outcome = screenRules(paper(r.title, r.abstract, ""), NONE);
    statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
    for (const x of outcome.reasons) reasons[x.code] = (reasons[x.code] ?? 0) + 1;
    const language = detectLanguage(`${r.abstract}\n\n`);
    languages[language] = (languages[language] ?? 0) + 1;
    const rejects = outcome.reasons.filter((x) => x.severity === "reject");
    if (rejects.length === 0) continue;
    const line = `${r.id}: ${rejects.map((x) => x.code).join(", ")}`;
    if (rejects.every((x) => LENGTH_CODES.has(x.code))) lengthRejections.push(line);
    else otherRejections.push(line);
  }
  const n = samples(corpus, records.length);
  const lengthRejectionShare = lengthRejections.length / n;
  const englishShare = (languages.en ?? 0) / n;
  const met =
    otherRejections.length === 0 &&
    lengthRejectionShare < BOUNDS.lengthRejectionShare &&
    englishShare >= BOUNDS.englishShare;
  console.log(
    `${corpus}: ${n} abstracts, statuses ${JSON.stringify(statuses)}, length-rule refusals ` +
      `${lengthRejections.length} (${(100 * lengthRejectionShare).toFixed(2)} %), other refusals ` +
      `${otherRejections.length}, English ${(100 * englishShare).toFixed(2)} % — ${met ? "met" : "NOT MET"}`,
  );
  for (const line of otherRejections) console.log(`  refused by a rule other than length: ${line}`);
  return {
    corpus,
    records: n,
    statuses,
    reasons,
    languages,
    lengthRejections,
    otherRejections,
    lengthRejectionShare,
    englishShare,
    met,
  };
}

/** Screens unarXive full texts rendered as Markdown (formulas as inline math, citations as [1]). */
function fullTexts() {
  const papers = lines(UNARXIVE)
    .slice(0, FULL_TEXTS)
    .map(
      (l) =>
        JSON.parse(l) as {
          paper_id: string;
          metadata: { title: string };
          abstract: { text: string };
          body_text: { section: string; text: string }[];
        },
    );
  const refused: { id: string; codes: string[] }[] = [];
  const notEnglish: string[] = [];
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
      paper(p.metadata.title.replace(/\s+/g, " "), p.abstract.text, body),
      NONE,
    );
    const rejects = outcome.reasons.filter((r) => r.severity === "reject").map((r) => r.code);
    if (rejects.length > 0) refused.push({ id: p.paper_id, codes: rejects });
    if (outcome.language !== "en") notEnglish.push(p.paper_id);
  }
  const n = samples("unarXive full texts", papers.length);
  const met =
    refused.length <= BOUNDS.fullTextsRefused &&
    refused.every((r) => r.codes.length === 1 && r.codes[0] === "body_too_long") &&
    notEnglish.length === 0;
  console.log(
    `unarXive: ${n} full texts, ${refused.length} refused (${refused.map((r) => `${r.id}: ${r.codes.join(", ")}`).join("; ") || "none"}), ` +
      `${notEnglish.length} not detected as English — ${met ? "met" : "NOT MET"}`,
  );
  return { papers: n, refused, notEnglish, met };
}

const abstracts = [
  calibrate("SciFact", loadSciFact().slice(0, RECORDS)),
  calibrate("arXiv cs (distinct ids)", loadArxiv().slice(0, RECORDS)),
];
const full = fullTexts();
const met = abstracts.every((a) => a.met) && full.met;
writeResult("eval-screening", {
  bounds: BOUNDS,
  abstracts: abstracts.map(({ lengthRejections, ...rest }) => ({
    ...rest,
    lengthRejections: lengthRejections.length,
    lengthRejected: lengthRejections,
  })),
  fullTexts: full,
  met,
});
if (!met) {
  console.error("eval:screening: a calibration bound is not met");
  process.exit(1);
}
