/**
 * @module `npm run fuzz -- --seed S --count N [--concurrency C]`: the seeded fuzzer against a
 * fresh service (PGlite; PostgreSQL with TEST_DATABASE_URL). Prints the counts by status and
 * every failing request, and writes them to bench/results/fuzz.json and .md
 * (bench/lib/results.ts); exits 1 when any request failed. `-- --smoke` sends 100 requests
 * (unless --count says otherwise) and writes to a temporary folder.
 */
import { parseArgs } from "node:util";
import { writeResult } from "../bench/lib/results.ts";
import { orSmoke, samples } from "../bench/lib/smoke.ts";
import { describeFailure, runFuzz } from "../src/testing/fuzz.ts";
import { startFuzzTarget } from "../src/testing/fuzz-target.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "15" },
    count: { type: "string", default: orSmoke("1000", "100") },
    concurrency: { type: "string", default: "4" },
    smoke: { type: "boolean", default: false },
  },
});
const seed = Number(values.seed);
const count = Number(values.count);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1 || !(concurrency >= 1)) {
  console.error("usage: npm run fuzz -- --seed <integer> --count <n ≥ 1> [--concurrency <c>]");
  process.exit(2);
}
const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
const { target, close } = await startFuzzTarget();
const started = performance.now();
try {
  const report = await runFuzz(target, { seed, count, concurrency });
  const seconds = (performance.now() - started) / 1000;
  samples("requests sent", report.sent);
  console.log(
    `fuzz: engine=${engine} seed=${seed} requests=${report.sent} in ${seconds.toFixed(1)} s`,
  );
  const statuses = Object.entries(report.byStatus).sort(([a], [b]) => a.localeCompare(b));
  console.log(`by status: ${statuses.map(([s, n]) => `${s}×${n}`).join(" ")}`);
  for (const failure of report.failures.slice(0, 50)) console.log(`\n${describeFailure(failure)}`);
  console.log(`\nfailures: ${report.failures.length}`);
  writeResult("fuzz", {
    settings: { engine, seed, count, concurrency },
    sent: report.sent,
    seconds,
    failureCount: report.failures.length,
    byStatus: Object.fromEntries(statuses),
    failures: report.failures.slice(0, 50).map(describeFailure),
  });
  process.exitCode = report.failures.length > 0 ? 1 : 0;
} finally {
  await close();
}
