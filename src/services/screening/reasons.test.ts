/** @module Reading stored screening reasons back: what the pages may trust of a jsonb row. */
import { describe, expect, it } from "vitest";
import { byScreener, storedReasons } from "./reasons.ts";

describe("storedReasons", () => {
  it("keeps well-formed reasons and skips what a jsonb column could hold but a screener never wrote", () => {
    const good = {
      code: "body_short",
      severity: "warning",
      field: "body",
      message: "The body is only 12 characters long (under 200).",
      params: { length: 12, min: 200 },
    };
    expect(
      storedReasons([
        good,
        null,
        "text",
        { code: "x" },
        { message: "no code" },
        { code: "spam", severity: "odd", field: 3, message: "Spam.", params: [1] },
      ]),
    ).toEqual([good, { code: "spam", severity: "warning", field: null, message: "Spam." }]);
    expect(storedReasons(null)).toEqual([]);
    expect(storedReasons({ code: "x" })).toEqual([]);
  });

  it("orders the rules' reasons before the model's", () => {
    const runs = [{ screener: "llm:m" }, { screener: "quire-rules/1.0" }];
    expect(runs.sort(byScreener).map((r) => r.screener)).toEqual(["quire-rules/1.0", "llm:m"]);
  });
});
