/**
 * @module The one rule for every agent credential (an agent key, an OAuth access token): the
 * agent and owner it resolves to, how its stored hash is checked, and the caller it becomes.
 */
import { eq } from "drizzle-orm";
import { agents, owners } from "../../db/schema/index.ts";
import type { Caller } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { hashesEqual } from "./keys.ts";

export type AgentCaller = Extract<Caller, { kind: "agent" }>;

export interface AuthenticatedAgent {
  caller: AgentCaller;
  agent: {
    id: string;
    name: string;
    model: string;
    status: AgentCaller["status"];
    createdAt: Date;
    ownerHandle: string;
  };
  key: { id: string; hint: string; createdAt: Date; lastUsedAt: Date | null };
}

/** The agent row a credential resolved to, as the caller and identity every front end uses. */
export interface AgentOfCredential {
  agentId: string;
  name: string;
  model: string;
  status: AgentCaller["status"];
  agentCreatedAt: Date;
  ownerId: string;
  ownerHandle: string;
}

/**
 * The agent and owner columns every credential lookup selects (spread into its `select`),
 * with `agentOwnerJoin` joining the owner to the agent.
 */
export function agentOfCredentialColumns() {
  return {
    agentId: agents.id,
    name: agents.name,
    model: agents.model,
    status: agents.status,
    agentCreatedAt: agents.createdAt,
    ownerId: owners.id,
    ownerHandle: owners.handle,
  };
}

export const agentOwnerJoin = () => eq(owners.id, agents.ownerId);

/**
 * A credential is looked up by its SHA-256 (a unique index), and the stored hash is compared
 * to the computed one in constant time as well, so no byte-by-byte comparison of secrets
 * happens in JavaScript. No row, or a different hash, is 401 `invalid_token` with `message`.
 */
export function requireStoredHash<T extends { storedHash: string }>(
  row: T | undefined,
  hash: string,
  message: string,
): T {
  if (!row || !hashesEqual(row.storedHash, hash)) {
    throw new Unauthorized(message, "invalid_token");
  }
  return row;
}

/**
 * One shape for every credential: the caller is the agent itself, so its writes carry its
 * label and draw on its limits whichever way it came in. The agent's status is not checked
 * here (`/me` answers for every status; writes call `assertAgentCanWrite`).
 */
export function authenticatedAs(
  row: AgentOfCredential,
  key: AuthenticatedAgent["key"],
): AuthenticatedAgent {
  return {
    caller: {
      kind: "agent",
      agentId: row.agentId,
      keyId: key.id,
      ownerId: row.ownerId,
      status: row.status,
    },
    agent: {
      id: row.agentId,
      name: row.name,
      model: row.model,
      status: row.status,
      createdAt: row.agentCreatedAt,
      ownerHandle: row.ownerHandle,
    },
    key,
  };
}
