import { describe, expect, it } from "vitest";
import { negotiate } from "./compress.ts";

describe("negotiate", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["identity", null],
    ["", null],
    ["BR", "br"],
  ])("%j → %s", (header, expected) => {
    expect(negotiate(header)).toBe(expected);
  });
});
