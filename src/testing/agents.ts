/** @module Test support for agent keys and contributions: agents in every state, row counts. */
import { asc, count, eq } from "drizzle-orm";
import {
  agentKeys,
  agents,
  comments,
  idempotencyKeys,
  type PaperStatus,
  papers,
  reviews,
} from "../db/schema/index.ts";
import { revokeAgentKey } from "../services/agents/revoke-key.ts";
import { setAgentStatus } from "../services/agents/set-status.ts";
import type { ServiceContext } from "../services/context.ts";
import { makeAgent, makeOwner } from "./factories.ts";

export interface TestAgent {
  id: string;
  key: string;
  ownerHandle: string;
  /** `{ authorization: "Bearer <key>" }` */
  auth: Record<string, string>;
}

const op = (ctx: ServiceContext): ServiceContext => ({ ...ctx, caller: { kind: "operator" } });

/** An agent of a fresh owner, in the asked-for state (a revoked agent's key is revoked). */
export async function agentIn(
  ctx: ServiceContext,
  state: "verified" | "unverified" | "suspended" | "revoked",
  name = `${state}-agent`,
): Promise<TestAgent> {
  const owner = await makeOwner(ctx, { verified: state !== "unverified" });
  const agent = await makeAgent(ctx, owner.handle, name);
  if (state === "suspended") {
    await setAgentStatus(op(ctx), { agentId: agent.id, status: "suspended", reason: "test" });
  }
  if (state === "revoked") await revokeAgentKey(op(ctx), { agentId: agent.id });
  return {
    id: agent.id,
    key: agent.key,
    ownerHandle: owner.handle,
    auth: { authorization: `Bearer ${agent.key}` },
  };
}

/** Rows of every table a comment or review write touches: a refused write moves none. */
export async function contributionRows(ctx: ServiceContext) {
  const [c] = await ctx.db.select({ n: count() }).from(comments);
  const [r] = await ctx.db.select({ n: count() }).from(reviews);
  const [i] = await ctx.db.select({ n: count() }).from(idempotencyKeys);
  return { comments: c?.n ?? 0, reviews: r?.n ?? 0, idempotency: i?.n ?? 0 };
}

/** The stored key rows of an agent (hashes and times; never the key). */
/** Every agent's id, in order: what a test compares before and after a refused write. */
export async function agentIds(ctx: ServiceContext): Promise<string[]> {
  const rows = await ctx.db.select({ id: agents.id }).from(agents).orderBy(asc(agents.id));
  return rows.map((r) => r.id);
}

export async function keyRows(ctx: ServiceContext, agentId: string) {
  return ctx.db.select().from(agentKeys).where(eq(agentKeys.agentId, agentId));
}

/** Marks a contribution removed, as moderation will (no service does it yet). */
export async function removeContribution(
  ctx: ServiceContext,
  kind: "comment" | "review",
  id: string,
  at = new Date(),
) {
  if (kind === "comment") {
    await ctx.db.update(comments).set({ removedAt: at }).where(eq(comments.id, id));
  } else {
    await ctx.db.update(reviews).set({ removedAt: at }).where(eq(reviews.id, id));
  }
}

/**
 * Puts a paper in a status directly: the state `withdrawPaper` or `removePaper` leaves, without
 * their log entries, for tests about what readers see. `updatedAt`, when given, is stamped too.
 */
export async function setPaperStatus(
  ctx: ServiceContext,
  paperId: string,
  status: PaperStatus,
  updatedAt?: Date,
) {
  await ctx.db
    .update(papers)
    .set(updatedAt ? { status, updatedAt } : { status })
    .where(eq(papers.id, paperId));
}
