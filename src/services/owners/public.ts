/** @module findPublicOwner: an owner as anyone may know them, by handle (their handle, no more). */
import { sql } from "drizzle-orm";
import { owners } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { HandleSchema } from "./create.ts";

function ownerNotFound(handle: string): NotFound {
  return new NotFound(`No owner has the handle "${handle}".`);
}

/**
 * Public: the owner with this handle (case-insensitive, as handles are unique), as their id —
 * for the services that list what is theirs, never shown — and the handle as they chose it.
 * Nothing else is read: no email, no role. Text that cannot be a handle is the same 404 as an
 * unknown handle, unread.
 */
export async function findPublicOwner(
  ctx: ServiceContext,
  input: { handle: string },
): Promise<{ id: string; handle: string }> {
  const parsed = HandleSchema.safeParse(input.handle);
  if (!parsed.success || parsed.data !== input.handle) throw ownerNotFound(input.handle);
  const [row] = await publicReadDb(ctx)
    .select({ id: owners.id, handle: owners.handle })
    .from(owners)
    .where(sql`lower(${owners.handle}) = lower(${input.handle})`)
    .limit(1);
  if (!row) throw ownerNotFound(input.handle);
  return row;
}
