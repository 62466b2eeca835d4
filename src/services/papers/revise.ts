/** @module revisePaper: an owner publishes a new version of their paper, with a changelog. */
import type { ServiceContext } from "../context.ts";
import { checkAddresses } from "./addresses.ts";
import { publishVersion } from "./publish.ts";
import { checkSubmission } from "./submission.ts";
import {
  authorizeOwner,
  type SubmissionResult,
  type SubmitPaperInput,
  submissionFields,
  withSource,
} from "./submit.ts";

export interface RevisePaperInput extends SubmitPaperInput {
  /** `YYMM.NNNNN` (a `vN` suffix is ignored: a new version always follows the current one). */
  paperId: string;
  /** What changed since the previous version; required, 1–2000 characters. */
  changelog: string;
  /** Ids of reviews of earlier versions that this version addresses (may be empty). */
  addresses?: readonly string[];
}

/**
 * Only the paper's owner revises it, and only while it is published (a withdrawn or
 * removed paper stays as it was). The new version is screened like a new paper, except
 * that its own earlier versions do not count as duplicates, and it is never held: when the
 * LLM screener gives no verdict, nothing is stored and the owner is asked to retry
 * (`Unavailable`), so a published paper never disappears behind a pending version.
 * `addresses` is checked before screening (a 400 costs no screening) and again when the
 * version is stored: each must be a visible review of an earlier version of this paper.
 * With a source bundle the version has the bundle's files; without one it keeps the
 * figures and supplementary files of the version it follows (its text still shows them),
 * though not a LaTeX source it no longer comes from.
 */
export async function revisePaper(
  ctx: ServiceContext,
  input: RevisePaperInput,
): Promise<SubmissionResult> {
  const paperId = input.paperId.replace(/v\d+$/, "");
  await authorizeOwner(ctx, paperId);
  const { fields, files } = await withSource(ctx, input);
  checkSubmission(fields, { changelogRequired: true });
  const addresses = input.addresses?.length
    ? await checkAddresses(ctx.db, paperId, input.addresses, null)
    : [];
  return (await publishVersion(ctx, {
    ...submissionFields(fields),
    ...(files ? { files } : { keepFiles: true }),
    paperId,
    changelog: input.changelog,
    addresses,
  })) as SubmissionResult;
}
