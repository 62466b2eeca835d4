/** The retention policy and docs/data-lifecycle.md say the same thing, rule by rule. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { fromRoot } from "../../paths.ts";
import { CLIENT_METADATA_LIMITS } from "../oauth/index.ts";
import { RETENTION, RETENTION_RULES } from "./policy.ts";

const doc = readFileSync(fromRoot("docs/data-lifecycle.md"), "utf8");

describe("the retention policy", () => {
  it("has one rule per store, each with a bound and a retention", () => {
    const stores = RETENTION_RULES.map((r) => r.store);
    expect(new Set(stores).size).toBe(stores.length);
    for (const rule of RETENTION_RULES) {
      expect(rule.bound.length, rule.store).toBeGreaterThan(10);
      expect(rule.retention.length, rule.store).toBeGreaterThan(5);
      expect(rule.prunable(new Date()).length, rule.store).toBeGreaterThan(0);
    }
  });

  it.each(RETENTION_RULES.map((r) => [r.store, r] as const))(
    "docs/data-lifecycle.md has %s's row with its bound and retention, word for word",
    (store, rule) => {
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${store}\` |`));
      expect(row, `no row for ${store}`).toBeDefined();
      const [, bound, retention] = (row as string).split(" | ");
      expect(bound).toBe(rule.bound);
      expect(retention).toBe(rule.retention);
    },
  );

  it("states FILES_MAX_MB's default in the files rule's bound", () => {
    const rule = RETENTION_RULES.find((r) => r.store === "files");
    const megabytes = loadConfig({}).FILES_MAX_MB.toLocaleString("en-US");
    expect(rule?.bound).toContain(`\`FILES_MAX_MB\` in all (default ${megabytes} MiB;`);
  });

  it("outlives every cached metadata document before an unused client goes", () => {
    expect(RETENTION.unusedClientSeconds).toBeGreaterThan(CLIENT_METADATA_LIMITS.maxCacheSeconds);
    expect(RETENTION.unusedClientSeconds).toBe(25 * 3600);
  });
});
