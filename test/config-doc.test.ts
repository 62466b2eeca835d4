/** @module docs/configuration.md's table is what the configuration schema says, variable by variable. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configReference, withReference } from "../scripts/lib/config-reference.ts";
import { ConfigSchema } from "../src/config.ts";

const doc = readFileSync(new URL("../docs/configuration.md", import.meta.url), "utf8");

describe("the configuration reference", () => {
  it("lists every variable the server reads, with its meaning", () => {
    const reference = configReference();
    for (const name of Object.keys(ConfigSchema.shape)) {
      expect(reference).toContain(`| \`${name}\` |`);
    }
    expect(reference).toContain("| `PORT` | `3000` | 0–65535 |");
    expect(reference).toContain("| `LOG_LEVEL` | `info` | `fatal`, `error`");
  });

  it("is committed as generated (run `npm run config:doc` after changing src/config.ts)", () => {
    expect(withReference(doc)).toBe(doc);
  });
});
