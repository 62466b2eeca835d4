/** @module The papers domain's public surface: what the front ends call. */

export {
  PAPER_SORTS,
  PaperListQuerySchema,
  type PaperSort,
} from "../filters/index.ts";
export { listOwnerPublishedPapers } from "./by-owner.ts";
export { citationMetaTags, toBibtex, toCslJson, toRis } from "./citations.ts";
export { isCurrentVersion } from "./current-version.ts";
export { type DiffPart, diffPaperVersions, type FieldDiff, type VersionDiff } from "./diff.ts";
export { getPaper, paperNotFound } from "./get.ts";
export { importPapers } from "./import.ts";
export { discussionJsonLd, paperLinks, paperWebPage, toScholarlyArticle } from "./jsonld.ts";
export {
  type BrowseItem,
  type BrowsePage,
  browsePapers,
  type ListPapersInput,
  listPapers,
} from "./list.ts";
export { getOwnPaper, listOwnPapers, type OwnPaper } from "./own.ts";
export { type PublishInput, publishVersion } from "./publish.ts";
export { relatedPapers } from "./related.ts";
export { reviewSummaries, type ScoreMeans } from "./review-summary.ts";
export { revisePaper } from "./revise.ts";
export {
  AI_LABEL,
  KeywordFilterSchema,
  type PaperDetail,
  PaperDetailSchema,
  type PaperList,
  type PaperListItem,
  PaperListSchema,
  PaperRefSchema,
  type PaperSpans,
  PaperSpansSchema,
  RELATED_LIMIT,
  RelatedInputSchema,
  type RelatedPapers,
  RelatedPapersSchema,
  ScoreMeansSchema,
} from "./schemas.ts";
export { seedSamplePapers } from "./seed.ts";
export type { SourceUpload } from "./source.ts";
export { getPaperSpans } from "./spans.ts";
export {
  type SubjectCount,
  type SubjectCounts,
  subjectCounts,
} from "./subject-counts.ts";
export {
  type SubjectIndex,
  SubjectIndexQuerySchema,
  SubjectIndexSchema,
  subjectIndex,
  toSubjectIndex,
} from "./subject-index.ts";
export { SUBMISSION_LIMITS, SUGGESTED_LICENSES, splitKeywords } from "./submission.ts";
export { type SubmissionResult, submitPaper } from "./submit.ts";
export { subjectSuggestion } from "./suggest-subject.ts";
export {
  getScreeningWarnings,
  listPaperVersions,
  type PaperVersions,
  type ScreeningWarning,
} from "./versions.ts";
export { canSeePaper } from "./visibility.ts";
export { WITHDRAW_REASON_MAX, withdrawPaper } from "./withdraw.ts";
