import { defineConfig } from "vitest/config";

/**
 * Two tiers (docs/development.md):
 * - `fast` (`npm test`): unit and route tests on fixtures inside the repository; what a plain
 *   clone runs, with no ../shared and no services beyond the embedded engine.
 * - `full` (added by `npm run test:all`): servers and commands as child processes
 *   (`*.e2e.test.ts`), real Chromium (`*.browser.test.ts`, test/browser/), Apertium
 *   (`*.apertium.test.ts`), nginx, several instances, and the benchmarks' and evaluations'
 *   smoke runs (the only part that reads the large corpora in ../shared/data).
 */
export const FULL_TIER = [
  "**/*.e2e.test.ts",
  "**/*.scale.test.ts",
  // Machine parts .ci/run installs: Debian's Chromium, and Apertium's en-es pair.
  "**/*.browser.test.ts",
  "**/*.apertium.test.ts",
  // LaTeXML and bubblewrap (Debian latexml, bubblewrap): LaTeX sources and their sandbox.
  "**/*.latex.test.ts",
  "test/e2e.test.ts",
  "test/bench-smoke.test.ts",
  "test/browser/**/*.test.ts",
];

/**
 * Full-tier files `npm run test:all` runs in one engine's pass only (scripts/test-all.ts):
 * - `POSTGRES_ALWAYS` start PostgreSQL databases whatever the pass (several instances, a
 *   replica, nginx in front, a migration to PostgreSQL), so a PGlite pass would run them again
 *   unchanged: they run in the PostgreSQL pass.
 * - `PGLITE_PASS_ONLY` drive the site in Chromium (and LaTeXML, which uses no database) against
 *   `quire serve` as `npm start` runs it, on the embedded engine. What differs between the
 *   engines is SQL, and every service, route and page test runs on both in the fast tier, as
 *   do the other end-to-end files; the browser files check markup, scripts and flows.
 */
const POSTGRES_ALWAYS = [
  "test/instances.e2e.test.ts",
  "test/deploy.e2e.test.ts",
  "test/replica.e2e.test.ts",
  "test/migrate.e2e.test.ts",
];
const PGLITE_PASS_ONLY = ["test/browser/**", "**/*.browser.test.ts", "**/*.latex.test.ts"];

/**
 * What `npm run test:all` leaves out of the full tier in the pass it names
 * (`QUIRE_TEST_PASS=pglite|postgres`); unset, as a developer runs it, the full tier is whole.
 * (vitest's `--exclude` flag does not reach a project's own list, hence the variable.)
 */
function leftOutOfThisPass(): string[] {
  const pass = process.env.QUIRE_TEST_PASS;
  if (pass === "pglite") return POSTGRES_ALWAYS;
  if (pass === "postgres") return PGLITE_PASS_ONLY;
  return [];
}

const shared = {
  globalSetup: ["test/global-setup.ts"],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: "forks" as const,
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    ...shared,
    projects: [
      {
        test: {
          ...shared,
          name: "fast",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...FULL_TIER],
        },
      },
      {
        test: {
          ...shared,
          name: "full",
          include: FULL_TIER,
          exclude: ["**/node_modules/**", ...leftOutOfThisPass()],
        },
      },
    ],
  },
});
