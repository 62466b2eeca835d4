/** @module The subjects domain's public surface: arXiv's categories, their names, checks and filters. */
export {
  canonicalSubject,
  isSubjectCode,
  isSubjectFilter,
  SUBJECT_ARCHIVES,
  SUBJECT_GROUPS,
  SUBJECTS,
  type SubjectCode,
  subjectByCode,
  subjectFilter,
  subjectGroupsOf,
  subjectName,
} from "./lookup.ts";
export {
  MAX_CROSS_LISTS,
  MAX_SUBJECTS,
  parseSubjects,
  subjectsProblems,
} from "./parse.ts";
export { SubjectFilterSchema } from "./schemas.ts";
