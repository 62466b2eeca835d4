/** @module Codes, aliases, names, the picker's groups and filter values. */
import { describe, expect, it } from "vitest";
import { Invalid } from "../errors.ts";
import {
  canonicalSubject,
  isSubjectCode,
  isSubjectFilter,
  SUBJECT_ARCHIVES,
  SUBJECT_GROUPS,
  SUBJECTS,
  subjectByCode,
  subjectFilter,
  subjectGroupsOf,
  subjectName,
} from "./lookup.ts";

const refusal = (fn: () => unknown): Invalid => {
  try {
    fn();
  } catch (error) {
    if (error instanceof Invalid) return error;
    throw error;
  }
  throw new Error("expected Invalid");
};

describe("codes and aliases", () => {
  it("knows codes and aliases exactly as arXiv writes them, and nothing else", () => {
    for (const code of ["cs.CL", "hep-th", "cond-mat.mes-hall", "q-bio.GN", "math.IT"]) {
      expect(isSubjectCode(code), code).toBe(true);
    }
    for (const value of ["cs", "physics", "astro-ph", "cs.cl", "CS.CL", " cs.CL", "cs.XX", ""]) {
      expect(isSubjectCode(value), value).toBe(false);
    }
    for (const value of ["__proto__", "constructor", "toString", 3, null, undefined, ["cs.CL"]]) {
      expect(isSubjectCode(value)).toBe(false);
    }
    expect(isSubjectCode("cmp-lg")).toBe(false); // a defunct archive, subsumed by cs.CL
  });

  it("canonicalises arXiv's six aliases to the code arXiv keeps", () => {
    expect(canonicalSubject("math.IT")).toBe("cs.IT");
    expect(canonicalSubject("math.MP")).toBe("math-ph");
    expect(canonicalSubject("stat.TH")).toBe("math.ST");
    expect(canonicalSubject("q-fin.EC")).toBe("econ.GN");
    expect(canonicalSubject("cs.SY")).toBe("eess.SY");
    expect(canonicalSubject("cs.NA")).toBe("math.NA");
    expect(canonicalSubject("cs.CL")).toBe("cs.CL");
    expect(canonicalSubject("cs.XX")).toBeUndefined();
  });

  it("finds a subject by code or alias, with its archive, group and aliases", () => {
    expect(subjectByCode("cs.CL")).toEqual({
      code: "cs.CL",
      archive: "cs",
      group: "cs",
      name: { en: "Computation and Language", es: "Computación y lenguaje" },
      aliases: [],
    });
    expect(subjectByCode("math.IT")).toBe(subjectByCode("cs.IT"));
    expect(subjectByCode("cs.IT")?.aliases).toEqual(["math.IT"]);
    expect(subjectByCode("hep-th")).toMatchObject({ archive: "hep-th", group: "physics" });
    expect(subjectByCode("astro-ph.GA")).toMatchObject({ archive: "astro-ph", group: "physics" });
    expect(subjectByCode("nope")).toBeUndefined();
  });
});

describe("subjectName", () => {
  it("names codes in English and Spanish, an alias as its canonical category", () => {
    expect(subjectName("cs.CL", "en")).toBe("Computation and Language");
    expect(subjectName("cs.CL", "es")).toBe("Computación y lenguaje");
    expect(subjectName("cs.LG", "es")).toBe("Aprendizaje automático");
    expect(subjectName("cs.AI", "es")).toBe("Inteligencia artificial");
    expect(subjectName("q-fin.EC", "en")).toBe("General Economics");
  });

  it("names archives and groups too, the Physics group for physics", () => {
    expect(subjectName("astro-ph", "es")).toBe("Astrofísica");
    expect(subjectName("cs", "en")).toBe("Computer Science");
    expect(subjectName("physics", "es")).toBe("Física");
    expect(subjectName("q-bio", "es")).toBe("Biología cuantitativa");
  });

  it("gives an unknown value back as it is", () => {
    expect(subjectName("cs.XX", "es")).toBe("cs.XX");
  });
});

describe("the picker's groups", () => {
  it("are arXiv's eight groups, holding every canonical category once", () => {
    expect(SUBJECT_GROUPS.map((g) => g.code)).toEqual([
      "cs",
      "econ",
      "eess",
      "math",
      "physics",
      "q-bio",
      "q-fin",
      "stat",
    ]);
    const listed = SUBJECT_GROUPS.flatMap((g) => g.subjects.map((s) => s.code));
    expect(listed).toEqual(SUBJECTS.map((s) => s.code));
    expect(listed).toHaveLength(149);
    expect(listed).not.toContain("cs.SY");
    expect(SUBJECT_GROUPS.find((g) => g.code === "physics")?.name.es).toBe("Física");
  });

  it("count each group's categories as arXiv lists them, less the aliases", () => {
    const sizes = Object.fromEntries(SUBJECT_GROUPS.map((g) => [g.code, g.subjects.length]));
    expect(sizes).toEqual({
      cs: 38,
      econ: 3,
      eess: 4,
      math: 30,
      physics: 51,
      "q-bio": 10,
      "q-fin": 8,
      stat: 5,
    });
  });

  it("put the thirteen physics archives in the Physics group", () => {
    const physics = SUBJECT_ARCHIVES.filter((a) => a.group === "physics").map((a) => a.code);
    expect(physics.sort()).toEqual(
      [
        "astro-ph",
        "cond-mat",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math-ph",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "physics",
        "quant-ph",
      ].sort(),
    );
  });

  it("cannot be changed by a caller", () => {
    expect(Object.isFrozen(SUBJECT_GROUPS)).toBe(true);
    expect(Object.isFrozen(SUBJECT_GROUPS[0]?.subjects)).toBe(true);
    expect(Object.isFrozen(SUBJECTS[0]?.name)).toBe(true);
  });
});

describe("subjectFilter", () => {
  it("matches a group's categories: cs has cs.CL but not stat.ML", () => {
    const cs = subjectFilter("cs");
    expect(cs).toContain("cs.CL");
    expect(cs).toContain("cs.LG");
    expect(cs).not.toContain("stat.ML");
    expect(subjectFilter("stat")).toContain("stat.ML");
  });

  it("takes physics as arXiv's whole Physics group, not only physics.*", () => {
    const physics = subjectFilter("physics");
    for (const code of ["physics.optics", "hep-th", "gr-qc", "quant-ph", "astro-ph.CO"]) {
      expect(physics, code).toContain(code);
    }
    expect(physics).toContain("cond-mat.str-el");
    expect(physics).toContain("nlin.CD");
    expect(physics).not.toContain("math.AG");
    expect(physics).toHaveLength(51);
  });

  it("matches through aliases, as arXiv's listings do", () => {
    expect(subjectFilter("cs")).toEqual(expect.arrayContaining(["eess.SY", "math.NA"]));
    expect(subjectFilter("math")).toEqual(expect.arrayContaining(["cs.IT", "math-ph"]));
    expect(subjectFilter("stat")).toContain("math.ST");
    expect(subjectFilter("q-fin")).toContain("econ.GN");
    expect(subjectFilter("eess")).not.toContain("math.NA");
  });

  it("matches an archive's categories", () => {
    expect(subjectFilter("astro-ph")).toEqual([
      "astro-ph.CO",
      "astro-ph.EP",
      "astro-ph.GA",
      "astro-ph.HE",
      "astro-ph.IM",
      "astro-ph.SR",
    ]);
    expect(subjectFilter("cond-mat")).toHaveLength(9);
    expect(subjectFilter("hep-th")).toEqual(["hep-th"]);
  });

  it("matches a code as its canonical category alone", () => {
    expect(subjectFilter("cs.CL")).toEqual(["cs.CL"]);
    expect(subjectFilter("math.IT")).toEqual(["cs.IT"]);
    expect(subjectFilter("cs.SY")).toEqual(["eess.SY"]);
  });

  it("refuses an unknown value, naming it, rather than filtering on nothing", () => {
    for (const value of ["bio", "cs.cl", "", "__proto__", "cmp-lg"]) {
      expect(isSubjectFilter(value), value).toBe(false);
      const error = refusal(() => subjectFilter(value));
      expect(error.message).toContain(JSON.stringify(value));
      expect(error.issues).toEqual([
        { in: "query", name: "subject", message: expect.stringContaining(JSON.stringify(value)) },
      ]);
    }
    expect(refusal(() => subjectFilter("x", "body", "filter")).issues[0]).toMatchObject({
      in: "body",
      name: "filter",
    });
  });

  it("quotes a long or odd value cut short", () => {
    const error = refusal(() => subjectFilter(`${"a".repeat(500)}\n`));
    expect(error.message.length).toBeLessThan(100);
    expect(error.message).toContain("…");
  });
});

describe("subjectGroupsOf", () => {
  it("names a category's own group first, then groups that reach it through an alias", () => {
    expect(subjectGroupsOf("cs.CL")).toEqual(["cs"]);
    expect(subjectGroupsOf("hep-th")).toEqual(["physics"]);
    expect(subjectGroupsOf("eess.SY")).toEqual(["eess", "cs"]);
    expect(subjectGroupsOf("cs.SY")).toEqual(["eess", "cs"]);
    expect(subjectGroupsOf("cs.IT")).toEqual(["cs", "math"]);
    expect(subjectGroupsOf("cs.XX")).toEqual([]);
    expect(subjectGroupsOf("__proto__")).toEqual([]);
  });

  it("agrees with subjectFilter for every category and group", () => {
    for (const subject of SUBJECTS) {
      const groups = SUBJECT_GROUPS.filter((g) => subjectFilter(g.code).includes(subject.code));
      expect(new Set(subjectGroupsOf(subject.code)), subject.code).toEqual(
        new Set(groups.map((g) => g.code)),
      );
    }
  });
});
