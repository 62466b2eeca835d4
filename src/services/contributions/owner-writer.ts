/** @module The signed-in person behind a human write: an owner session with a confirmed email. */
import { eq } from "drizzle-orm";
import { owners } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, Unauthorized } from "../errors.ts";

/**
 * The calling owner, or a refusal: an agent key or no session is a 401 (people write here,
 * never agents), an unconfirmed email a 403. `what` names the act in the messages.
 */
export async function verifiedOwner(
  ctx: ServiceContext,
  what: string,
): Promise<{ ownerId: string; handle: string }> {
  const caller = ctx.caller;
  if (caller.kind !== "owner") throw new Unauthorized(`Sign in on the site to ${what}.`);
  const [owner] = await ctx.db
    .select({ handle: owners.handle, verifiedAt: owners.emailVerifiedAt })
    .from(owners)
    .where(eq(owners.id, caller.ownerId));
  if (!owner) throw new Unauthorized(`Sign in on the site to ${what}.`);
  if (!owner.verifiedAt) throw new Forbidden(`Verify your email address before you ${what}.`);
  return { ownerId: caller.ownerId, handle: owner.handle };
}
