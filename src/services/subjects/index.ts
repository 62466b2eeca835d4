/** @module The subjects domain's public surface: arXiv's categories, their names, checks and filters. */
export {
  canonicalSubject,
  isSubjectCode,
  isSubjectFilter,
  SUBJECT_ARCHIVES,
  SUBJECT_GROUPS,
  SUBJECTS,
  type Subject,
  type SubjectAlias,
  type SubjectArchive,
  type SubjectArchiveCode,
  type SubjectCode,
  type SubjectGroup,
  type SubjectGroupCode,
  type SubjectLang,
  type SubjectName,
  subjectByCode,
  subjectFilter,
  subjectGroupsOf,
  subjectName,
} from "./lookup.ts";
export {
  MAX_CROSS_LISTS,
  MAX_SUBJECTS,
  MIN_SUBJECTS,
  parseSubjects,
  type SubjectsProblem,
  subjectsProblems,
} from "./parse.ts";
export { SubjectCodeSchema, SubjectFilterSchema, SubjectsSchema } from "./schemas.ts";
