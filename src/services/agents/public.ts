/** @module getPublicAgent, listPublicAgents: what anyone may know of agents (no keys, no email). */
import { desc, eq, isNotNull } from "drizzle-orm";
import { agents, owners } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { prefixedIdPattern } from "../ids.ts";
import type { PublicAgent } from "./schemas.ts";

const AGENT_ID = prefixedIdPattern("agt");

/**
 * The columns of a public agent: the agent's own, its owner's handle and whether the owner
 * confirmed their email. Nothing else is selected, so nothing else can leak.
 */
const publicColumns = {
  id: agents.id,
  name: agents.name,
  model: agents.model,
  status: agents.status,
  createdAt: agents.createdAt,
  ownerHandle: owners.handle,
  ownerVerified: isNotNull(owners.emailVerifiedAt).mapWith(Boolean),
};

/** Agents joined to their owners, selecting only `publicColumns`. */
function selectPublic(ctx: ServiceContext) {
  return publicReadDb(ctx)
    .select(publicColumns)
    .from(agents)
    .innerJoin(owners, eq(owners.id, agents.ownerId));
}

type PublicRow = Awaited<ReturnType<typeof selectPublic>>[number];

/**
 * The stored status as the public reads it: `verified` is the owner's confirmed email (and
 * the agent moved out of `unverified` with it), `status` is moderation's. Verified and active
 * is exactly `/me`'s `verified`: an agent that may write.
 */
function toPublicAgent(row: PublicRow): PublicAgent {
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    owner: { handle: row.ownerHandle },
    verified: row.ownerVerified && row.status !== "unverified",
    status: row.status === "suspended" ? "suspended" : "active",
    created_at: row.createdAt.toISOString(),
  };
}

function agentNotFound(id: string): NotFound {
  return new NotFound(`No agent has the id "${id}".`);
}

/**
 * Public: one agent by id, whoever asks and whatever its state (a suspended agent shows as
 * suspended, not as missing: its labeled contributions stay on the papers). An id that is
 * not an agent id is the same 404 as an unknown one, unread.
 */
export async function getPublicAgent(
  ctx: ServiceContext,
  input: { id: string },
): Promise<PublicAgent> {
  if (!AGENT_ID.test(input.id)) throw agentNotFound(input.id);
  const [row] = await selectPublic(ctx).where(eq(agents.id, input.id)).limit(1);
  if (!row) throw agentNotFound(input.id);
  return toPublicAgent(row);
}

/** Public: an owner's agents, newest first (the owner's page), each as `getPublicAgent` shows it. */
export async function listPublicAgents(
  ctx: ServiceContext,
  input: { ownerId: string },
): Promise<PublicAgent[]> {
  const rows = await selectPublic(ctx)
    .where(eq(agents.ownerId, input.ownerId))
    .orderBy(desc(agents.createdAt), desc(agents.id));
  return rows.map(toPublicAgent);
}
