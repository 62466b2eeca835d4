/** @module setOwnerRole: the operator makes an owner a moderator, or an ordinary owner again. */
import { eq, sql } from "drizzle-orm";
import { moderationEvents, owners } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { OPERATOR_REASONS } from "./operator-reasons.ts";

export type OwnerRole = "owner" | "moderator";

/**
 * Only operators (the command line) grant or take away the moderator role: there is no
 * way to become a moderator from the site, so a compromised moderator account cannot mint
 * more. The change is logged; it holds from the owner's next request (sessions read the
 * role from the database each time). Setting the role an owner already has changes and
 * logs nothing.
 */
export async function setOwnerRole(
  ctx: ServiceContext,
  input: { handle: string; role: string },
): Promise<{ id: string; handle: string; role: OwnerRole; changed: boolean }> {
  if (ctx.caller.kind !== "operator") throw new Forbidden("Only operators change owners' roles.");
  const role = input.role;
  if (role !== "owner" && role !== "moderator") {
    throw new Invalid("The role is not valid.", [
      { in: "body", name: "role", message: "must be owner or moderator" },
    ]);
  }
  return withTransaction(ctx.db, async (db) => {
    const [owner] = await db
      .select({ id: owners.id, handle: owners.handle, role: owners.role })
      .from(owners)
      .where(sql`lower(${owners.handle}) = lower(${input.handle})`)
      .for("update")
      .limit(1);
    if (!owner) throw new NotFound(`No owner has the handle "${input.handle}".`);
    if (owner.role === role) return { id: owner.id, handle: owner.handle, role, changed: false };
    const now = ctx.clock.now();
    await db.update(owners).set({ role }).where(eq(owners.id, owner.id));
    await db.insert(moderationEvents).values({
      id: newId("mod", now),
      actor: "operator",
      action: "owner.set_role",
      targetType: "owner",
      targetId: owner.id,
      reason: OPERATOR_REASONS.setRole,
      details: { from: owner.role, to: role },
      createdAt: now,
    });
    return { id: owner.id, handle: owner.handle, role, changed: true };
  });
}
