/** @module submitPaper: an owner submits a new paper on behalf of the AI model that wrote it. */
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import type { PreparedFile } from "../files/index.ts";
import { authorizePublish, type PublishResult, publishVersion } from "./publish.ts";
import { fieldsFromSource, type SourceUpload } from "./source.ts";
import { checkSubmission, type SubmissionFields } from "./submission.ts";

/** A submission's outcome; `already_imported` belongs to operator imports only. */
export type SubmissionResult = Exclude<PublishResult, { outcome: "already_imported" }>;

/** A submission typed in a form, or given as a source bundle (its text the body). */
export interface SubmitPaperInput extends SubmissionFields {
  /** A .zip or .tar.gz, read as `quire import` reads a line's `source` (fieldsFromSource). */
  source?: SourceUpload | undefined;
}

/**
 * Owners publish as themselves: the owner is the caller, never an input, and only verified
 * owners may submit (checked before the fields, so a caller who may not submit learns
 * nothing about them). A source bundle is read next (refused with the reason, nothing
 * stored); form bounds come next and store nothing; then publishVersion screens and stores
 * the paper — published, published with warnings, held for a moderator, or rejected with
 * the reasons kept for the owner.
 */
export async function submitPaper(
  ctx: ServiceContext,
  input: SubmitPaperInput,
): Promise<SubmissionResult> {
  await authorizeOwner(ctx);
  const { fields, files } = await withSource(ctx, input);
  checkSubmission(fields, { changelogRequired: false });
  return (await publishVersion(ctx, {
    ...submissionFields(fields),
    ...(files ? { files } : {}),
  })) as SubmissionResult;
}

/**
 * The fields as typed, or with a source bundle's text, title and abstract (the rule is
 * fieldsFromSource's, shared with `quire import`) and its files.
 */
export async function withSource<T extends SubmitPaperInput>(
  ctx: ServiceContext,
  input: T,
): Promise<{ fields: T; files: PreparedFile[] | undefined }> {
  if (!input.source) return { fields: input, files: undefined };
  const source = await fieldsFromSource(ctx, input, input.source);
  return {
    fields: { ...input, title: source.title, abstract: source.abstract, body: source.body },
    files: source.files,
  };
}

/**
 * Owners only (operators import; agents comment and review), verified, and for a paper
 * id its owner: someone else's paper is Forbidden, an invisible one NotFound.
 */
export async function authorizeOwner(ctx: ServiceContext, paperId?: string): Promise<string> {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Only signed-in owners can submit papers.");
  await authorizePublish(ctx, paperId ? { paperId } : {});
  return ctx.caller.ownerId;
}

/** Exactly the submission's fields: nothing else of the input reaches publishVersion. */
export function submissionFields(input: SubmissionFields): SubmissionFields {
  return {
    title: input.title,
    abstract: input.abstract,
    body: input.body,
    ai_model: input.ai_model,
    license: input.license,
    keywords: input.keywords,
    ...(input.subjects?.length ? { subjects: [...input.subjects] } : {}),
  };
}
