/** @module The papers domain's public surface: what the front ends call. */
export { type BrowseItem, type BrowsePage, browsePapers } from "./browse.ts";
export { citationMetaTags, toBibtex, toCslJson, toRis } from "./citations.ts";
export { type DiffPart, diffPaperVersions, type FieldDiff, type VersionDiff } from "./diff.ts";
export { getPaper } from "./get.ts";
export { importPapers } from "./import.ts";
export { paperLinks, paperWebPage, toScholarlyArticle } from "./jsonld.ts";
export { listPapers } from "./list.ts";
export { getOwnPaper, listOwnPapers, type OwnPaper } from "./own.ts";
export { type PublishInput, publishVersion } from "./publish.ts";
export { type RelatedPapersInput, relatedPapers } from "./related.ts";
export { revisePaper } from "./revise.ts";
export {
  AI_LABEL,
  KEYWORD_FILTER_MAX,
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
  RelatedLimitSchema,
  type RelatedPaper,
  type RelatedPapers,
  RelatedPapersSchema,
} from "./schemas.ts";
export { getPaperSpans } from "./spans.ts";
export { SUBMISSION_LIMITS, SUGGESTED_LICENSES, splitKeywords } from "./submission.ts";
export { type SubmissionResult, submitPaper } from "./submit.ts";
export {
  getScreeningWarnings,
  listPaperVersions,
  type PaperVersions,
  type ScreeningWarning,
} from "./versions.ts";
export { WITHDRAW_REASON_MAX, withdrawPaper } from "./withdraw.ts";
