/**
 * @module The fuzzer in CI: 3,000 seeded hostile requests over every front end, on the engine
 * of the run (PGlite, or PostgreSQL with TEST_DATABASE_URL). Any 5xx (503 only where the
 * contract allows it), hang over 5 s, dropped connection, stack trace or SQL text fails it,
 * printing the request.
 * `npm run fuzz -- --seed S --count N` runs any number.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeFailure, type FuzzTarget, runFuzz } from "../src/testing/fuzz.ts";
import { startFuzzTarget } from "../src/testing/fuzz-target.ts";

const SEED = 15;
const COUNT = 3000;

let target: FuzzTarget;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ target, close } = await startFuzzTarget());
}, 120_000);
afterAll(async () => {
  await close?.();
});

describe("the fuzzer", () => {
  it(`answers ${COUNT} hostile requests (seed ${SEED}) without a 5xx, a hang or a leak`, async () => {
    const report = await runFuzz(target, { seed: SEED, count: COUNT });
    expect(report.sent).toBe(COUNT);
    // Every family was exercised, and most requests were refused as they should be.
    const statuses = Object.keys(report.byStatus);
    expect(statuses).toEqual(expect.arrayContaining(["200", "400", "403", "415"]));
    expect(report.failures.map(describeFailure).join("\n\n")).toBe("");
  }, 600_000);
});
