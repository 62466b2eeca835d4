/** @module The taxonomy's data: every code unique and well-formed, named in both languages. */
import { describe, expect, it } from "vitest";
import { ALIASES, ARCHIVES, CATEGORIES, GROUPS } from "./taxonomy.ts";

const CODE = /^[a-z]+(?:-[a-z]+)?(?:\.(?:[A-Z]{2}|[a-z]+(?:-[a-z]+)?))?$/;
const codes = CATEGORIES.map(([code]) => code as string);
const aliases = Object.keys(ALIASES);

describe("the categories", () => {
  it("are arXiv's 149 canonical categories and 6 aliases: 155 codes", () => {
    expect(codes).toHaveLength(149);
    expect(aliases).toHaveLength(6);
  });

  it("have unique, well-formed codes, aliases included, even ignoring case", () => {
    const all = [...codes, ...aliases];
    for (const code of all) expect(code).toMatch(CODE);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all.map((c) => c.toLowerCase())).size).toBe(all.length);
    for (const code of [...Object.keys(ARCHIVES), ...Object.keys(GROUPS)]) {
      expect(code).toMatch(CODE);
    }
  });

  it("have an archive each, and every archive has a category", () => {
    const archiveOf = (c: string) => c.split(".")[0] as string;
    for (const code of [...codes, ...aliases])
      expect(Object.keys(ARCHIVES)).toContain(archiveOf(code));
    for (const archive of Object.keys(ARCHIVES)) expect(codes.map(archiveOf)).toContain(archive);
  });

  it("have a trimmed English and Spanish name each", () => {
    const named = [
      ...CATEGORIES.map(([code, en, es]) => [code, en, es] as const),
      ...Object.entries(ARCHIVES).map(([code, a]) => [code, a.en, a.es] as const),
      ...Object.entries(GROUPS).map(([code, g]) => [code, g.en, g.es] as const),
    ];
    for (const [code, en, es] of named) {
      expect(en.trim(), code).toBe(en);
      expect(es.trim(), code).toBe(es);
      expect(en.length, code).toBeGreaterThan(0);
      expect(es.length, code).toBeGreaterThan(0);
    }
  });

  it("are translated: Spanish differs from English but for words both languages share", () => {
    const same = CATEGORIES.filter(([, en, es]) => en === es).map(([code]) => code);
    expect(same).toEqual(["cs.MM"]);
    const sameNames = Object.values(ARCHIVES).filter((a) => (a.en as string) === a.es);
    expect(sameNames).toEqual([]);
  });

  it("write Spanish names in sentence case, as Spanish titles are", () => {
    const proper = /\b(?:Internet|K)\b/g;
    for (const [code, , es] of CATEGORIES) {
      const rest = es.slice(1).replace(proper, "");
      expect(rest, code).toBe(rest.toLowerCase());
    }
  });

  it("name an archive of one category as that category", () => {
    for (const [code, en, es] of CATEGORIES) {
      const archive = ARCHIVES[code as keyof typeof ARCHIVES];
      if (archive) expect({ en: archive.en, es: archive.es }, code).toEqual({ en, es });
    }
  });
});

describe("the aliases", () => {
  it("point at canonical categories in another archive, never at another alias", () => {
    for (const [alias, canonical] of Object.entries(ALIASES)) {
      expect(codes).toContain(canonical);
      expect(codes).not.toContain(alias);
      expect(alias.split(".")[0]).not.toBe(canonical.split(".")[0]);
    }
  });
});
