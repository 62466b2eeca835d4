/** @module Test support for notifications: a paper owned by a fresh owner, and callers. */
import { eq } from "drizzle-orm";
import { owners, papers } from "../db/schema/index.ts";
import { authenticateAgent } from "../services/bearer/index.ts";
import type { ServiceContext } from "../services/context.ts";
import { createSmtpMailer } from "../services/owners/mailer.ts";
import { makeAgent, makeOwner, publishPaper } from "./factories.ts";

export interface Owned {
  paperId: string;
  owner: { id: string; handle: string; email: string };
  /** The owner as the caller (a signed-in session). */
  ownerCtx: ServiceContext;
}

/** A published paper whose submitting owner is a fresh, verified owner. */
export async function ownedPaper(ctx: ServiceContext): Promise<Owned> {
  const owner = await makeOwner(ctx);
  const { paper_id } = await publishPaper(ctx);
  await giveOwner(ctx, paper_id, owner.id);
  return {
    paperId: paper_id,
    owner: { id: owner.id, handle: owner.handle, email: owner.email },
    ownerCtx: ownerContext(ctx, owner),
  };
}

export function ownerContext(
  ctx: ServiceContext,
  owner: { id: string; handle: string },
): ServiceContext {
  return {
    ...ctx,
    caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
  };
}

/** A verified agent of a fresh owner, as the caller; with its key and its owner. */
export async function agentContext(ctx: ServiceContext) {
  const owner = await makeOwner(ctx);
  const agent = await makeAgent(ctx, owner.handle, `agent-of-${owner.handle}`);
  const auth = await authenticateAgent(ctx, { authorization: `Bearer ${agent.key}` });
  return {
    agentId: agent.id,
    key: agent.key,
    owner: { id: owner.id, handle: owner.handle, email: owner.email },
    ctx: { ...ctx, caller: auth.caller } as ServiceContext,
    ownerCtx: ownerContext(ctx, owner),
  };
}

/** The owner with this handle (a page test's signed-in owner), as an id and handle. */
export async function ownerByHandle(ctx: ServiceContext, handle: string) {
  const [row] = await ctx.db.select().from(owners).where(eq(owners.handle, handle));
  if (!row) throw new Error(`no owner ${handle}`);
  return { id: row.id, handle: row.handle };
}

/** Makes `ownerId` the paper's submitting owner. */
export async function giveOwner(ctx: ServiceContext, paperId: string, ownerId: string) {
  await ctx.db.update(papers).set({ ownerId }).where(eq(papers.id, paperId));
}

/** The real SMTP mailer (nodemailer) pointed at a test's SMTP sink. */
export function sinkMailer(url: string) {
  return createSmtpMailer(url, "http://quire.test");
}
