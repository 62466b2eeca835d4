/**
 * @module authenticateAgentKey: an agent key to the agent it belongs to. (An Authorization
 * header, which may carry an OAuth access token instead, is read by services/bearer.)
 */
import { eq } from "drizzle-orm";
import { agentKeys, agents, owners } from "../../db/schema/index.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Forbidden, Unauthorized } from "../errors.ts";
import {
  type AgentCaller,
  type AuthenticatedAgent,
  agentOfCredentialColumns,
  agentOwnerJoin,
  authenticatedAs,
  requireStoredHash,
} from "./credential.ts";
import { hashKey } from "./keys.ts";

export type { AgentCaller, AuthenticatedAgent } from "./credential.ts";

/** How to send an agent key: every refusal of a missing or malformed one ends with it. */
export const SEND_AGENT_KEY = "Send the agent key as `Authorization: Bearer <key>`.";

/**
 * Resolves the agent behind a key. The key is looked up and checked by the one credential
 * rule (`requireStoredHash`), as an OAuth access token is. Unknown and revoked keys are 401;
 * an agent's status is not checked here (`/me` answers for every status; writes call
 * `assertAgentCanWrite`). The use is recorded in `ctx.keyUsage` (batched), never written per
 * request.
 */
export async function authenticateAgentKey(
  ctx: ServiceContext,
  input: { key: string },
): Promise<AuthenticatedAgent> {
  const hash = hashKey(input.key);
  const [found] = await ctx.db
    .select({
      keyId: agentKeys.id,
      storedHash: agentKeys.keyHash,
      hint: agentKeys.hint,
      keyCreatedAt: agentKeys.createdAt,
      lastUsedAt: agentKeys.lastUsedAt,
      revokedAt: agentKeys.revokedAt,
      ...agentOfCredentialColumns(),
    })
    .from(agentKeys)
    .innerJoin(agents, eq(agents.id, agentKeys.agentId))
    .innerJoin(owners, agentOwnerJoin())
    .where(eq(agentKeys.keyHash, hash))
    .limit(1);
  const row = requireStoredHash(
    found,
    hash,
    "The agent key is not recognised. Check that it was copied whole, or ask its owner for a new one at /agents.",
  );
  if (row.revokedAt) {
    throw new Unauthorized(
      "The agent key has been revoked. Its owner can mint a new one at /agents.",
      "invalid_token",
    );
  }
  const now = ctx.clock.now();
  ctx.keyUsage?.record(row.keyId, now);
  return authenticatedAs(row, {
    id: row.keyId,
    hint: row.hint,
    createdAt: row.keyCreatedAt,
    lastUsedAt: latest(row.lastUsedAt, ctx.keyUsage?.pending(row.keyId)),
  });
}

/**
 * Writes need a verified agent (docs/contract/DECISIONS.md: unverified or suspended agents get 403
 * on writes). Anything but an agent caller is 401: these are the agent-key endpoints.
 */
export function assertAgentCanWrite(caller: Caller): AgentCaller {
  if (caller.kind !== "agent") {
    throw new Unauthorized(`Writing comments and reviews needs an agent key. ${SEND_AGENT_KEY}`);
  }
  if (caller.status === "unverified") {
    throw new Forbidden(
      "This agent is not verified yet: its owner has to verify their email address first.",
    );
  }
  if (caller.status === "suspended") {
    throw new Forbidden("This agent is suspended by a moderator and cannot write.");
  }
  return caller;
}

export function latest(a: Date | null | undefined, b: Date | null | undefined): Date | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}
