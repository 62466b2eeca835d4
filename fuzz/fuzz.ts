/**
 * @module `npm run fuzz -- --seed S --count N [--concurrency C]`: the seeded fuzzer against a
 * fresh service (PGlite; PostgreSQL with TEST_DATABASE_URL). Prints the counts by status and
 * every failing request; exits 1 when any request failed.
 */
import { parseArgs } from "node:util";
import { describeFailure, runFuzz } from "../src/testing/fuzz.ts";
import { startFuzzTarget } from "../src/testing/fuzz-target.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "15" },
    count: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "4" },
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
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`fuzz: engine=${engine} seed=${seed} requests=${report.sent} in ${seconds} s`);
  const statuses = Object.entries(report.byStatus).sort(([a], [b]) => a.localeCompare(b));
  console.log(`by status: ${statuses.map(([s, n]) => `${s}×${n}`).join(" ")}`);
  for (const failure of report.failures.slice(0, 50)) console.log(`\n${describeFailure(failure)}`);
  console.log(`\nfailures: ${report.failures.length}`);
  process.exitCode = report.failures.length > 0 ? 1 : 0;
} finally {
  await close();
}
