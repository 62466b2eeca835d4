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
          exclude: ["**/node_modules/**"],
        },
      },
    ],
  },
});
