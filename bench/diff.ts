/**
 * @module bench:diff — CPU time of the version diff on 200,000-character bodies (the
 * screener's maximum) and on the worst inputs for its caps, to check that a public diff page
 * costs a bounded, small amount whatever two versions hold. Prints best and median ms and
 * writes them to bench/results/diff.json and .md (bench/lib/results.ts).
 */
import { diffBody, diffText } from "../src/services/papers/diff.ts";
import { cpuMs } from "./lib/cpu.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke } from "./lib/smoke.ts";

/** Repetitions per case (smoke: one, `npm run bench:diff -- --smoke`). */
const REPEATS = orSmoke(5, 1);

const paragraphs = Array.from(
  { length: 2000 },
  (_, i) => `Paragraph ${i} reports the measured mass balance of glaciers over the years.`,
);
const body = paragraphs.join("\n\n");
const edited = (every: number) =>
  paragraphs.map((p, i) => (i % every === 0 ? p.replace("measured", "modelled") : p)).join("\n\n");
const words = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");

const cases: [string, () => unknown][] = [
  ["body 200 KB, 1 paragraph edited", () => diffBody(body, edited(2000))],
  ["body 200 KB, every 10th paragraph edited", () => diffBody(body, edited(10))],
  ["body 200 KB, every 2nd paragraph edited", () => diffBody(body, edited(2))],
  [
    "body 200 KB, every paragraph rewritten",
    () => diffBody(body, paragraphs.map((p) => p.split(" ").reverse().join(" ")).join("\n\n")),
  ],
  [
    "body 3,000 lines, all different",
    () =>
      diffBody(
        Array.from({ length: 3000 }, (_, i) => `old line ${i}`).join("\n"),
        Array.from({ length: 3000 }, (_, i) => `new row ${i * 7}`).join("\n"),
      ),
  ],
  ["abstract 5,000 chars, all different", () => diffText(words("a", 700), words("b", 700))],
  [
    "abstract 5,000 chars, one word changed",
    () => diffText(words("a", 700), `${words("a", 699)} z`),
  ],
];

console.log(
  "case".padEnd(44),
  "best ms".padStart(8),
  "median ms".padStart(10),
  "parts".padStart(6),
);
const rows: { case: string; bestMs: number; medianMs: number; parts: number }[] = [];
for (const [name, run] of cases) {
  const parts = (run() as unknown[]).length;
  const { best, median } = cpuMs(run, REPEATS);
  figure(name, best);
  figure(name, median);
  console.log(
    name.padEnd(44),
    best.toFixed(1).padStart(8),
    median.toFixed(1).padStart(10),
    String(parts).padStart(6),
  );
  rows.push({ case: name, bestMs: best, medianMs: median, parts });
}
writeResult("diff", { settings: { repeats: REPEATS }, cases: rows });
