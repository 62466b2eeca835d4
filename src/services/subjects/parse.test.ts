/** @module parseSubjects: a paper's primary and cross-lists, every problem at once. */
import { describe, expect, it } from "vitest";
import { Invalid } from "../errors.ts";
import { MAX_CROSS_LISTS, MAX_SUBJECTS, MIN_SUBJECTS, parseSubjects } from "./parse.ts";

const refusal = (
  list: readonly unknown[],
  where?: Parameters<typeof parseSubjects>[1],
  name?: string,
): Invalid => {
  try {
    parseSubjects(list, where, name);
  } catch (error) {
    if (error instanceof Invalid) return error;
    throw error;
  }
  throw new Error("expected Invalid");
};

describe("the bounds", () => {
  it("are a primary and up to four cross-lists", () => {
    expect([MIN_SUBJECTS, MAX_CROSS_LISTS, MAX_SUBJECTS]).toEqual([1, 4, 5]);
  });
});

describe("parseSubjects", () => {
  it("keeps the primary first and the order given", () => {
    expect(parseSubjects(["stat.ML", "cs.LG"])).toEqual(["stat.ML", "cs.LG"]);
    expect(parseSubjects(["cs.LG", "stat.ML"])).toEqual(["cs.LG", "stat.ML"]);
    expect(parseSubjects(["hep-th"])).toEqual(["hep-th"]);
    expect(parseSubjects(["cs.CL", "cs.AI", "cs.LG", "stat.ML", "q-bio.NC"])).toHaveLength(5);
  });

  it("stores aliases as their canonical codes, in place", () => {
    expect(parseSubjects(["math.IT", "cs.SY", "stat.TH"])).toEqual(["cs.IT", "eess.SY", "math.ST"]);
  });

  it("refuses unknown codes, naming every one in the message and one issue each", () => {
    const error = refusal(["cs.CL", "cs.XX", "foo", "CS.LG"]);
    expect(error.message).toBe('Unknown subject codes: "cs.XX", "foo", "CS.LG"; see errors.');
    expect(error.issues).toEqual([
      { in: "body", name: "subjects.1", message: expect.stringContaining('"cs.XX"') },
      { in: "body", name: "subjects.2", message: expect.stringContaining('"foo"') },
      { in: "body", name: "subjects.3", message: expect.stringContaining('"CS.LG"') },
    ]);
    expect(refusal(["nope"]).message).toBe('Unknown subject code: "nope"; see errors.');
  });

  it("refuses an empty list and more than five", () => {
    expect(refusal([]).issues).toEqual([
      { in: "body", name: "subjects", message: "must list at least 1 subject (the primary)" },
    ]);
    const six = ["cs.CL", "cs.AI", "cs.LG", "cs.IR", "cs.DL", "cs.CY"];
    const error = refusal(six);
    expect(error.message).toBe("The subjects are not valid; see errors.");
    expect(error.issues).toEqual([
      {
        in: "body",
        name: "subjects",
        message: "must list at most 5 subjects, a primary and up to 4 cross-lists (got 6)",
      },
    ]);
  });

  it("refuses repeats, an alias of a listed code included", () => {
    expect(refusal(["cs.CL", "cs.CL"]).issues).toEqual([
      { in: "body", name: "subjects.1", message: "repeats cs.CL, already at index 0" },
    ]);
    expect(refusal(["cs.IT", "cs.LG", "math.IT"]).issues).toEqual([
      {
        in: "body",
        name: "subjects.2",
        message: "repeats math.IT (another code for cs.IT), already at index 0",
      },
    ]);
    expect(refusal(["cs.SY", "eess.SY"]).issues[0]?.name).toBe("subjects.1");
  });

  it("lists every problem at once", () => {
    const error = refusal(["cs.CL", "x", "cs.CL", 7, "cs.LG", "y"]);
    expect(error.message).toBe('Unknown subject codes: "x", "y"; see errors.');
    expect(error.issues.map((i) => i.name)).toEqual([
      "subjects",
      "subjects.1",
      "subjects.2",
      "subjects.3",
      "subjects.5",
    ]);
  });

  it("names each unknown code once and quotes it safely", () => {
    const error = refusal(["x", "x", 'a"\n<b>', "z".repeat(300)]);
    expect(error.message).toBe(
      `Unknown subject codes: "x", "a\\"\\n<b>", "${"z".repeat(40)}…"; see errors.`,
    );
  });

  it("reports under the field and place the caller names", () => {
    expect(refusal(["nope"], "query", "subject").issues[0]).toMatchObject({
      in: "query",
      name: "subject.0",
    });
  });
});
