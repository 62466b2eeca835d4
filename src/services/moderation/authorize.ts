/** @module Who may moderate, and how the moderation log names them. */
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";

export interface ModerationActor {
  /** The moderator's handle, or "operator" for the command line. */
  actor: string;
  actorOwnerId: string | null;
}

/**
 * Moderators (owners with role `moderator`, read from the database on every request, so a
 * demotion holds at once) and operators may moderate; everyone else is refused before any
 * input is read or any row is touched, so a refusal reveals and changes nothing.
 */
export function requireModerator(ctx: ServiceContext): ModerationActor {
  const caller = ctx.caller;
  if (caller.kind === "operator") return { actor: "operator", actorOwnerId: null };
  if (caller.kind === "owner" && caller.role === "moderator") {
    return { actor: caller.handle, actorOwnerId: caller.ownerId };
  }
  throw new Forbidden("Only moderators can do this.");
}

/** Whether the caller may moderate (pages use it to answer 404 instead of showing the tools). */
export function isModerator(ctx: ServiceContext): boolean {
  return (
    ctx.caller.kind === "operator" ||
    (ctx.caller.kind === "owner" && ctx.caller.role === "moderator")
  );
}
