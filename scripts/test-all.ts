/**
 * @module `npm run test:all`: everything CI runs after installing, tier by tier, with each
 * tier's time. The fast tier (`npm test`) is what a plain clone runs; the rest needs the
 * machine `.ci/run` prepares (PostgreSQL with pgvector, Redis, Chromium, nginx, Apertium,
 * ../shared/data). Every step runs even when one fails, so one run shows every failure; the
 * exit code is 1 when any failed.
 *
 *   npm run test:all
 *   TEST_DATABASE_URL=postgres://… npm run test:all   (the PostgreSQL passes use it; default local)
 */
import { spawn } from "node:child_process";

const PG = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Step {
  tier: string;
  command: string[];
  env?: Record<string, string>;
}

const STEPS: Step[] = [
  { tier: "lint (biome, import walls, knip)", command: ["npm", "run", "lint"] },
  { tier: "typecheck", command: ["npm", "run", "typecheck"] },
  { tier: "OpenAPI drift", command: ["npm", "run", "openapi:check"] },
  { tier: "OpenAPI lint", command: ["npm", "run", "openapi:lint"] },
  { tier: "fast tier, PGlite", command: ["npx", "vitest", "run", "--project", "fast"] },
  {
    tier: "full tier, PGlite",
    command: ["npx", "vitest", "run", "--project", "full"],
    // Without the files that use PostgreSQL whatever the pass (vitest.config.ts says why).
    env: { QUIRE_TEST_PASS: "pglite" },
  },
  {
    tier: "fast tier, PostgreSQL",
    command: ["npx", "vitest", "run", "--project", "fast"],
    env: { TEST_DATABASE_URL: PG },
  },
  {
    tier: "full tier, PostgreSQL",
    command: ["npx", "vitest", "run", "--project", "full"],
    // Without the browser and LaTeX files, which run in the PGlite pass (vitest.config.ts).
    env: { TEST_DATABASE_URL: PG, QUIRE_TEST_PASS: "postgres" },
  },
];

function run(step: Step): Promise<number> {
  return new Promise((resolve) => {
    const [command, ...args] = step.command as [string, ...string[]];
    const child = spawn(command, args, {
      stdio: "inherit",
      env: { ...process.env, ...step.env },
    });
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

const results: { tier: string; seconds: number; ok: boolean }[] = [];
for (const step of STEPS) {
  process.stdout.write(`\n=== ${step.tier}: ${step.command.join(" ")}\n`);
  const started = performance.now();
  const code = await run(step);
  results.push({ tier: step.tier, seconds: (performance.now() - started) / 1000, ok: code === 0 });
}
const width = Math.max(...results.map((r) => r.tier.length));
process.stdout.write("\n=== test:all, by tier\n");
for (const r of results) {
  process.stdout.write(
    `${r.tier.padEnd(width)}  ${r.seconds.toFixed(0).padStart(5)} s  ${r.ok ? "ok" : "FAILED"}\n`,
  );
}
const total = results.reduce((s, r) => s + r.seconds, 0);
process.stdout.write(`${"total".padEnd(width)}  ${total.toFixed(0).padStart(5)} s\n`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
