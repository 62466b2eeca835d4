/**
 * @module OAI-PMH sets: one per subject group (`cs`, `math`, `physics`, …) and one per category
 * beneath its group (`cs:cs.CL`, `physics:hep-th`), named in English as arXiv names them.
 *
 * A group's set holds what the site's subject filter of that group holds (services/subjects):
 * every category in it and any category with an alias in it, so `cs` also holds `eess.SY`
 * (alias `cs.SY`) though `cs:eess.SY` is not a set. A category's set sits under its own group.
 */
import {
  SUBJECT_GROUPS,
  SUBJECTS,
  subjectByCode,
  subjectFilter,
  subjectGroupsOf,
} from "../subjects/index.ts";

export interface OaiSet {
  spec: string;
  name: string;
  /** The canonical subject codes a record needs one of to be in the set. */
  codes: readonly string[];
}

/** Groups first, then every category under its group, in arXiv's order. */
export const OAI_SETS: readonly OaiSet[] = Object.freeze([
  ...SUBJECT_GROUPS.map((g) => ({ spec: g.code, name: g.name.en, codes: subjectFilter(g.code) })),
  ...SUBJECTS.map((s) => ({ spec: `${s.group}:${s.code}`, name: s.name.en, codes: [s.code] })),
]);

const BY_SPEC = new Map(OAI_SETS.map((set) => [set.spec, set]));

/** The set a setSpec names, or undefined for one this repository does not define. */
export function oaiSet(spec: string): OaiSet | undefined {
  return BY_SPEC.get(spec);
}

/**
 * The setSpecs of a record with these subjects: for each subject its category's set, and every
 * group set that holds it; each once, groups of the primary first.
 */
export function setSpecsOf(subjects: readonly string[]): string[] {
  const specs = new Set<string>();
  for (const code of subjects) {
    const subject = subjectByCode(code);
    if (!subject) continue;
    for (const group of subjectGroupsOf(code)) specs.add(group);
    specs.add(`${subject.group}:${subject.code}`);
  }
  return [...specs];
}
