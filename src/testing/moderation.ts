/** @module Test support for moderation: moderators, flagged papers and papers held for review. */
import { eq } from "drizzle-orm";
import { moderationEvents, papers } from "../db/schema/index.ts";
import type { ServiceContext } from "../services/context.ts";
import { setOwnerRole } from "../services/owners/set-role.ts";
import type { PublishInput } from "../services/papers/publish.ts";
import { unindexPaper } from "../services/search/indexing.ts";
import { makeOwner, paperInput, publishPaper } from "./factories.ts";

/** A body under the rule screener's 200 characters: published with a `body_short` warning. */
export const SHORT_BODY = "## Note\n\nThis body is deliberately short, so the screener warns.";

/** A fresh verified owner made a moderator by the operator, and a context acting as them. */
export async function moderatorContext(
  ctx: ServiceContext,
): Promise<{ ctx: ServiceContext; ownerId: string; handle: string }> {
  const owner = await makeOwner(ctx);
  await setOwnerRole(
    { ...ctx, caller: { kind: "operator" } },
    { handle: owner.handle, role: "moderator" },
  );
  return {
    ctx: {
      ...ctx,
      caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "moderator" },
    },
    ownerId: owner.id,
    handle: owner.handle,
  };
}

const PROSE =
  "The results of this study show that the method is useful in practice, and it is clear that there is more work to do on the problem. We think that this is an important step for the field, and we hope that others will build on it with their own data.";

/** A published paper that passed screening without warnings (never in the queue). */
export async function publishCleanPaper(
  ctx: ServiceContext,
  overrides: Partial<PublishInput> = {},
): Promise<string> {
  const base = paperInput(overrides);
  const result = await publishPaper(ctx, {
    ...base,
    abstract: `${base.abstract} ${PROSE}`,
    body: `${base.body}\n## Discussion\n\n${PROSE}\n`,
  });
  if (result.screening.status !== "passed") {
    throw new Error(`expected a clean screening, got ${JSON.stringify(result.screening.reasons)}`);
  }
  return result.paper_id;
}

/** A published paper whose current version carries screening warnings (flagged). */
export async function publishFlaggedPaper(
  ctx: ServiceContext,
  overrides: Partial<PublishInput> = {},
): Promise<string> {
  const result = await publishPaper(ctx, { body: SHORT_BODY, ...overrides });
  if (result.screening.status !== "warnings") {
    throw new Error(`expected screening warnings, got ${result.screening.status}`);
  }
  return result.paper_id;
}

/**
 * A paper held for review, as the submit flow stores one when the LLM screener is
 * unavailable: status `submitted`, a `held:` reason, its version screened with warnings,
 * nothing of it in the search index.
 */
export async function holdPaper(
  ctx: ServiceContext,
  overrides: Partial<PublishInput> = {},
  reason = "held: the LLM screener could not be reached",
): Promise<string> {
  const paperId = await publishFlaggedPaper(ctx, overrides);
  await ctx.db
    .update(papers)
    .set({ status: "submitted", statusReason: reason })
    .where(eq(papers.id, paperId));
  await unindexPaper(ctx, paperId);
  return paperId;
}

/** The stored paper row (status, reason, times). */
export async function paperRow(ctx: ServiceContext, paperId: string) {
  const [row] = await ctx.db.select().from(papers).where(eq(papers.id, paperId));
  if (!row) throw new Error(`no paper ${paperId}`);
  return row;
}

/** Every log entry about a target, oldest first. */
export async function eventsFor(ctx: ServiceContext, targetId: string) {
  const rows = await ctx.db
    .select()
    .from(moderationEvents)
    .where(eq(moderationEvents.targetId, targetId));
  return rows.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
}
