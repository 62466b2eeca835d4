import { describe, expect, it } from "vitest";
import { formatPaperId, newId, paperIdMonth, parsePaperRef, prefixedIdPattern } from "./ids.ts";

describe("paper ids", () => {
  it("parses ids and versioned ids", () => {
    expect(parsePaperRef("2611.00042")).toEqual({ id: "2611.00042", version: null });
    expect(parsePaperRef("2611.00042v2")).toEqual({ id: "2611.00042", version: 2 });
  });

  it.each([
    "2611.0042",
    "2613.00001",
    "2600.00001",
    "2611.00042v0",
    "2611.00042v",
    "x2611.00042",
    "../etc",
    "",
  ])("rejects %j", (value) => {
    expect(parsePaperRef(value)).toBeNull();
  });

  it("formats YYMM from the UTC month and pads the sequence", () => {
    expect(paperIdMonth(new Date("2026-11-30T23:59:59Z"))).toBe("2611");
    expect(paperIdMonth(new Date("2027-01-01T00:00:00Z"))).toBe("2701");
    expect(formatPaperId("2611", 42)).toBe("2611.00042");
  });
});

describe("newId", () => {
  it("is prefixed, fixed-width base62, unique and time-ordered", () => {
    const a = newId("cmt", new Date("2026-01-01T00:00:00Z"));
    const b = newId("cmt", new Date("2026-01-01T00:00:01Z"));
    expect(a).toMatch(/^cmt_[0-9A-Za-z]{22}$/);
    expect(a < b).toBe(true);
    const many = new Set(Array.from({ length: 1000 }, () => newId("agt")));
    expect(many.size).toBe(1000);
  });
});

describe("prefixedIdPattern", () => {
  it("matches what newId makes with its prefixes, and nothing else", () => {
    const agent = prefixedIdPattern("agt");
    expect(agent.test(newId("agt"))).toBe(true);
    for (const other of [newId("cmt"), `${newId("agt")}x`, "agt_short", ` ${newId("agt")}`, ""]) {
      expect(agent.test(other), other).toBe(false);
    }
    const contribution = prefixedIdPattern("cmt", "rev");
    expect(contribution.test(newId("cmt")) && contribution.test(newId("rev"))).toBe(true);
    expect(contribution.test(newId("agt"))).toBe(false);
  });
});
