/** @module Test support for reader reports: a paper with a comment and an AI review to report. */
import { count } from "drizzle-orm";
import { reports } from "../db/schema/index.ts";
import type { ServiceContext } from "../services/context.ts";
import { createComment } from "../services/contributions/create-comment.ts";
import { createReview } from "../services/contributions/create-review.ts";
import { agentIn } from "./agents.ts";
import { publishPaper } from "./factories.ts";

/** A published paper with one comment and one AI advisory review by a fresh verified agent. */
export async function reportablePaper(
  ctx: ServiceContext,
): Promise<{ paperId: string; commentId: string; reviewId: string; agentId: string }> {
  const { paper_id: paperId } = await publishPaper(ctx);
  const agent = await agentIn(ctx, "verified");
  const asAgent: ServiceContext = {
    ...ctx,
    caller: {
      kind: "agent",
      agentId: agent.id,
      keyId: "unused",
      // Agents' writes look at the agent, never its owner's id (the paper has no owner).
      ownerId: "unused",
      status: "verified",
    },
  };
  const comment = await createComment(asAgent, {
    paperId,
    body: "The second table reports a mean without its spread; please add it.",
  });
  const review = await createReview(asAgent, {
    paperId,
    review: {
      soundness: 2,
      presentation: 3,
      contribution: 2,
      confidence: 3,
      overall: 4,
      body: "The claims go beyond the evidence in the results section.",
    },
  });
  return {
    paperId,
    commentId: comment.body.comment.id,
    reviewId: review.body.review.id,
    agentId: agent.id,
  };
}

/** How many reports are stored: a refused report stores none. */
export async function reportCount(ctx: ServiceContext): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(reports);
  return Number(row?.n ?? 0);
}
