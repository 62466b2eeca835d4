/** @module getOwnerProfile: an owner's public page: handle, agents and published papers. */
import { listPublicAgents } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { findPublicOwner } from "../owners/index.ts";
import { listOwnerPublishedPapers } from "../papers/index.ts";
import type { OwnerProfile } from "./schemas.ts";

interface GetOwnerProfileInput {
  handle: string;
  /** Papers per page. */
  limit?: number;
  /** A `next_cursor` of an earlier page of this owner's papers. */
  cursor?: string;
}

/**
 * Public: what an owner has put before readers, the same whoever asks (their private side is
 * /agents and /my/papers). Unknown handles, and text that cannot be one, are a 404.
 */
export async function getOwnerProfile(
  ctx: ServiceContext,
  input: GetOwnerProfileInput,
): Promise<OwnerProfile> {
  const owner = await findPublicOwner(ctx, { handle: input.handle });
  const [agents, papers] = await Promise.all([
    listPublicAgents(ctx, { ownerId: owner.id }),
    listOwnerPublishedPapers(ctx, {
      ownerId: owner.id,
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
    }),
  ]);
  return {
    owner: { handle: owner.handle },
    agents,
    papers: papers.papers,
    next_cursor: papers.next_cursor,
  };
}
