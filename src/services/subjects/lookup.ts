/**
 * @module Looking subjects up: codes and aliases to canonical categories, names in English and
 * Spanish, the groups for a picker, and what a filter value matches.
 *
 * A filter value is a category code or alias (`cs.CL`, `math.IT`), an archive (`astro-ph`,
 * `cond-mat`, `nlin`) or a group (`cs`, `math`, `physics`, `q-bio`, …):
 * - a code matches its canonical category only;
 * - an archive or a group matches every category in it, and also every category with an
 *   alias in it, as arXiv's own listings do: `cs` includes `eess.SY` (alias `cs.SY`) and
 *   `math.NA` (alias `cs.NA`); `math` includes `cs.IT` and `math-ph`; `stat` includes
 *   `math.ST`; `q-fin` includes `econ.GN`;
 * - `physics` is the Physics **group** — `physics.*` and also `astro-ph.*`, `cond-mat.*`,
 *   `gr-qc`, `hep-*`, `math-ph`, `nlin.*`, `nucl-*` and `quant-ph` — not the narrower
 *   `physics` archive. The group is what a reader filtering on "physics" means, and arXiv's
 *   own Physics group holds them all; `physics.*` alone is reached one category at a time.
 *
 * The tables are maps, not objects, so no input (`__proto__`, `constructor`) can reach a
 * prototype.
 */
import { type FieldIssue, Invalid } from "../errors.ts";
import { ALIASES, ARCHIVES, CATEGORIES, GROUPS } from "./taxonomy.ts";

export type SubjectLang = "en" | "es";
/** A canonical category code: what is stored. */
export type SubjectCode = (typeof CATEGORIES)[number][0];
/** Another code arXiv gives a category; accepted on input, stored as its canonical code. */
export type SubjectAlias = keyof typeof ALIASES;
type SubjectArchiveCode = keyof typeof ARCHIVES;
export type SubjectGroupCode = keyof typeof GROUPS;

interface SubjectName {
  en: string;
  es: string;
}

export interface Subject {
  code: SubjectCode;
  archive: SubjectArchiveCode;
  group: SubjectGroupCode;
  name: SubjectName;
  aliases: readonly SubjectAlias[];
}

export interface SubjectArchive {
  code: SubjectArchiveCode;
  group: SubjectGroupCode;
  name: SubjectName;
}

export interface SubjectGroup {
  code: SubjectGroupCode;
  name: SubjectName;
  /** Its canonical categories, in arXiv's order; aliases are on each subject. */
  subjects: readonly Subject[];
}

const archiveOf = (code: string): SubjectArchiveCode =>
  (code.includes(".") ? code.slice(0, code.indexOf(".")) : code) as SubjectArchiveCode;

const ALIAS_ENTRIES = Object.entries(ALIASES) as [SubjectAlias, SubjectCode][];

/** Every canonical category, in arXiv's order. */
export const SUBJECTS: readonly Subject[] = Object.freeze(
  CATEGORIES.map(([code, en, es]) => {
    const archive = archiveOf(code);
    return Object.freeze({
      code,
      archive,
      group: ARCHIVES[archive].group,
      name: Object.freeze({ en, es }),
      aliases: Object.freeze(ALIAS_ENTRIES.filter(([, to]) => to === code).map(([from]) => from)),
    });
  }),
);

export const SUBJECT_ARCHIVES: readonly SubjectArchive[] = Object.freeze(
  (Object.keys(ARCHIVES) as SubjectArchiveCode[]).map((code) =>
    Object.freeze({
      code,
      group: ARCHIVES[code].group,
      name: Object.freeze({ en: ARCHIVES[code].en, es: ARCHIVES[code].es }),
    }),
  ),
);

/** The groups with their categories, for a picker. */
export const SUBJECT_GROUPS: readonly SubjectGroup[] = Object.freeze(
  (Object.keys(GROUPS) as SubjectGroupCode[]).map((code) =>
    Object.freeze({
      code,
      name: Object.freeze({ en: GROUPS[code].en, es: GROUPS[code].es }),
      subjects: Object.freeze(SUBJECTS.filter((s) => s.group === code)),
    }),
  ),
);

/** Code or alias → canonical subject. */
const BY_CODE = new Map<string, Subject>();
for (const subject of SUBJECTS) {
  BY_CODE.set(subject.code, subject);
  for (const alias of subject.aliases) BY_CODE.set(alias, subject);
}

/** Filter value → the canonical codes it matches, in arXiv's order; groups last, so they win. */
const FILTERS = new Map<string, readonly SubjectCode[]>();
const NAMES = new Map<string, SubjectName>();
for (const [code, subject] of BY_CODE) {
  FILTERS.set(code, Object.freeze([subject.code]));
  NAMES.set(code, subject.name);
}
const archivesOf = (s: Subject) => [s.archive, ...s.aliases.map(archiveOf)];
for (const archive of SUBJECT_ARCHIVES) {
  const codes = SUBJECTS.filter((s) => archivesOf(s).includes(archive.code)).map((s) => s.code);
  FILTERS.set(archive.code, Object.freeze(codes));
  if (!BY_CODE.has(archive.code)) NAMES.set(archive.code, archive.name);
}
for (const group of SUBJECT_GROUPS) {
  const codes = SUBJECTS.filter((s) =>
    archivesOf(s).some((a) => ARCHIVES[a].group === group.code),
  ).map((s) => s.code);
  FILTERS.set(group.code, Object.freeze(codes));
  NAMES.set(group.code, group.name);
}

/** Canonical code → the groups whose filter matches it, its own group first. */
const GROUPS_OF = new Map<string, readonly SubjectGroupCode[]>();
for (const subject of SUBJECTS) {
  const others = SUBJECT_GROUPS.filter(
    (g) => g.code !== subject.group && FILTERS.get(g.code)?.includes(subject.code),
  ).map((g) => g.code);
  GROUPS_OF.set(subject.code, Object.freeze([subject.group, ...others]));
}

/**
 * The groups a category is listed under: its own, then any other whose filter reaches it
 * through an alias (`eess.SY` is in `eess` and, as `cs.SY`, in `cs`). A code or alias; empty
 * for an unknown code.
 */
export function subjectGroupsOf(code: string): readonly SubjectGroupCode[] {
  const canonical = BY_CODE.get(code)?.code;
  return (canonical && GROUPS_OF.get(canonical)) || [];
}

/** A category code or alias arXiv defines (exactly as arXiv writes it: `cs.CL`, not `CS.cl`). */
export function isSubjectCode(value: unknown): value is SubjectCode | SubjectAlias {
  return typeof value === "string" && BY_CODE.has(value);
}

/** The category a code or alias names, or undefined for an unknown code. */
export function subjectByCode(code: string): Subject | undefined {
  return BY_CODE.get(code);
}

/** The canonical code of a code or alias (`math.IT` → `cs.IT`), or undefined for an unknown code. */
export function canonicalSubject(code: string): SubjectCode | undefined {
  return BY_CODE.get(code)?.code;
}

/** A value `subjectFilter` accepts: a code, an alias, an archive or a group. */
export function isSubjectFilter(value: unknown): value is string {
  return typeof value === "string" && FILTERS.has(value);
}

/**
 * The canonical codes a filter value matches (see the module doc for codes, archives and
 * groups), for a query on stored subjects. An unknown value is refused, never read as "no
 * filter": a mistyped subject must not silently list everything.
 */
export function subjectFilter(
  value: string,
  where: FieldIssue["in"] = "query",
  name = "subject",
): readonly SubjectCode[] {
  const codes = FILTERS.get(value);
  if (codes) return codes;
  throw new Invalid(`Unknown subject ${quoteCode(value)}; see errors.`, [
    { in: where, name, message: unknownFilterMessage(value) },
  ]);
}

/**
 * The name of anything `subjectFilter` accepts, in English or Spanish; an alias is named as
 * its canonical category. An unknown value is returned as it is, so a stored code that a later
 * taxonomy drops still shows as its code.
 */
export function subjectName(value: string, lang: SubjectLang): string {
  return NAMES.get(value)?.[lang] ?? value;
}

/** The wording for an unknown code, shared by `parseSubjects` and the schemas. */
export function unknownSubjectMessage(code: string): string {
  return `${quoteCode(code)} is not a known subject code (an arXiv category such as cs.CL)`;
}

/** The wording for an unknown filter value, shared by `subjectFilter` and the schema. */
export function unknownFilterMessage(value: string): string {
  return `${quoteCode(value)} is not a subject code, archive or group (such as cs.CL, astro-ph or physics)`;
}

const QUOTED_MAX = 40;

/** A code from input, safe to put in a message: JSON-quoted, cut to 40 characters. */
export function quoteCode(value: string): string {
  const chars = [...value];
  return JSON.stringify(
    chars.length > QUOTED_MAX ? `${chars.slice(0, QUOTED_MAX).join("")}…` : value,
  );
}
