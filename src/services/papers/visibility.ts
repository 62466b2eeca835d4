/** @module Who may see a paper: everyone when published; its owner and moderators otherwise. */
import type { PaperStatus } from "../../db/schema/index.ts";
import type { Caller } from "../context.ts";

/**
 * The one visibility rule. Invisible papers answer exactly like unknown ones (404), so
 * probing ids reveals nothing about withdrawn or removed papers.
 */
export function canSeePaper(
  caller: Caller,
  paper: { status: PaperStatus; ownerId: string | null },
): boolean {
  if (paper.status === "published") return true;
  if (caller.kind === "operator") return true;
  if (caller.kind !== "owner") return false;
  return caller.role === "moderator" || caller.ownerId === paper.ownerId;
}
