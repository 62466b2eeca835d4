/**
 * @module `npm run eval:croissant`: the Croissant validator our tests use
 * (src/testing/croissant-validator.ts) against the reference validator's (mlcroissant's) own
 * cases in ../shared/data/croissant-examples: each of its failure graphs must produce exactly
 * the reference's errors (and every warning it prints), and each published example dataset must
 * validate with no error. The fast tests break a small document of ours one rule at a time;
 * this is where the validator is held to the reference.
 *
 * Writes `bench/results/eval-croissant.json`; exits 1 on any disagreement. `--smoke` runs the
 * first 3 cases of each group.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeResult } from "../bench/lib/results.ts";
import { orSmoke, samples } from "../bench/lib/smoke.ts";
import { validateCroissant } from "../src/testing/croissant-validator.ts";

const EXAMPLES = new URL("../../shared/data/croissant-examples/", import.meta.url);
const PER_GROUP = orSmoke(Number.POSITIVE_INFINITY, 3);

interface Report {
  errors: string[];
  warnings: string[];
}

interface Case {
  name: string;
  doc: unknown;
  /** The reference validator's report, split into its error and warning lines. */
  expected?: Report;
}

/** mlcroissant prints "Found the following N error(s)…" / "…warning(s)…", then "  -  line"s. */
function parseReport(text: string): Report {
  const out: Report = { errors: [], warnings: [] };
  let section: keyof Report | null = null;
  for (const line of text.split("\n")) {
    if (/^Found the following \d+ error\(s\)/.test(line)) section = "errors";
    else if (/^Found the following \d+ warning\(s\)/.test(line)) section = "warnings";
    else if (section && /^\s+-\s+/.test(line))
      out[section].push(line.replace(/^\s+-\s+/, "").trim());
  }
  return out;
}

/** Every `<group>/<case>/<version>/metadata.json` (with the reference's `output.txt` if any). */
function cases(group: string): Case[] {
  const root = new URL(`${group}/`, EXAMPLES);
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(new URL(`${d.name}/`, root), { withFileTypes: true })
        .filter((v) => v.isDirectory())
        .map((v) => new URL(`${d.name}/${v.name}/`, root)),
    )
    .map((dir) => {
      const name = dir.pathname.split("/").slice(-3, -1).join("/");
      const doc = JSON.parse(readFileSync(new URL("metadata.json", dir), "utf8")) as unknown;
      const output = new URL("output.txt", dir);
      return existsSync(output)
        ? { name, doc, expected: parseReport(readFileSync(output, "utf8")) }
        : { name, doc };
    })
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, PER_GROUP);
}

const sorted = (xs: string[]) => [...xs].sort();
const same = (a: string[], b: string[]) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

const disagreements: { name: string; expected: Report | "no errors"; got: Report }[] = [];

const goldens = cases("tests/graphs");
for (const c of goldens) {
  const got = await validateCroissant(c.doc);
  const expected = c.expected ?? { errors: [], warnings: [] };
  const agrees =
    expected.errors.length > 0 &&
    same(got.errors, expected.errors) &&
    expected.warnings.every((w) => got.warnings.includes(w));
  if (!agrees) disagreements.push({ name: c.name, expected, got });
}
const examples = cases("datasets");
for (const c of examples) {
  const got = await validateCroissant(c.doc);
  if (got.errors.length > 0) disagreements.push({ name: c.name, expected: "no errors", got });
}

const failureCases = samples("the reference's failure graphs", goldens.length);
const exampleDatasets = samples("the published example datasets", examples.length);
console.log(
  `failure graphs: ${failureCases - disagreements.filter((d) => d.expected !== "no errors").length}/${failureCases} with exactly the reference's errors; ` +
    `example datasets: ${exampleDatasets - disagreements.filter((d) => d.expected === "no errors").length}/${exampleDatasets} valid`,
);
for (const d of disagreements) console.log(`  disagrees on ${d.name}: ${JSON.stringify(d.got)}`);
writeResult("eval-croissant", {
  failureCases,
  exampleDatasets,
  disagreements,
  met: disagreements.length === 0,
});
if (disagreements.length > 0) process.exit(1);
