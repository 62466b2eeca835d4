/** @module authenticateAgent: an `Authorization: Bearer <key>` header to an agent caller. */
import { eq } from "drizzle-orm";
import { agentKeys, agents, owners } from "../../db/schema/index.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Forbidden, Unauthorized } from "../errors.ts";
import { authenticateAccessToken } from "../oauth/authenticate.ts";
import { isAccessToken } from "../oauth/secrets.ts";
import {
  type AgentCaller,
  type AuthenticatedAgent,
  agentOfCredentialColumns,
  agentOwnerJoin,
  authenticatedAs,
  requireStoredHash,
} from "./credential.ts";
import { hashKey, keyShapeProblem } from "./keys.ts";

export type { AgentCaller, AuthenticatedAgent } from "./credential.ts";

const HOW = "Send the agent key as `Authorization: Bearer <key>`.";

/** RFC 9110 token characters: what an auth-scheme may be made of. */
const SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The key in an Authorization header, or an Unauthorized that says what is wrong with the
 * header. Strict: exactly `Bearer` (any case, RFC 9110), one or more spaces, and one key
 * (or OAuth access token) of this server's shape; nothing before or after. The header's value is never echoed
 * (it may be a secret meant for another service).
 */
export function parseBearer(header: string | undefined | null, keyPrefix: string): string {
  if (header === undefined || header === null) {
    throw new Unauthorized(`This endpoint needs an agent key. ${HOW}`);
  }
  const value = header.trim();
  if (value === "") {
    throw new Unauthorized(`The Authorization header is empty. ${HOW}`, "invalid_request");
  }
  const space = value.indexOf(" ");
  const scheme = space === -1 ? value : value.slice(0, space);
  const rest = space === -1 ? "" : value.slice(space).replace(/^ +/, "");
  if (!SCHEME.test(scheme)) {
    throw new Unauthorized(
      `The Authorization header does not start with an authentication scheme. ${HOW}`,
      "invalid_request",
    );
  }
  if (scheme.toLowerCase() !== "bearer") {
    if (space === -1) {
      throw new Unauthorized(
        `The Authorization header holds a single value and no scheme; put "Bearer " before the key. ${HOW}`,
        "invalid_request",
      );
    }
    // An unsupported scheme counts as no credentials (RFC 6750 §3.1): a bare challenge.
    // The scheme is not echoed: a header can be any secret pasted in the wrong place.
    throw new Unauthorized(`The Authorization header uses a scheme other than Bearer. ${HOW}`);
  }
  if (rest === "") {
    throw new Unauthorized(
      `The Authorization header has no key after "Bearer". ${HOW}`,
      "invalid_request",
    );
  }
  if (/\s|,/.test(rest)) {
    throw new Unauthorized(
      `The Authorization header has more than one value after "Bearer"; send exactly one agent key. ${HOW}`,
      "invalid_request",
    );
  }
  if (isAccessToken(rest, keyPrefix)) return rest;
  const problem = keyShapeProblem(rest, keyPrefix);
  if (problem) {
    throw new Unauthorized(`The bearer token is not an agent key: ${problem}.`, "invalid_token");
  }
  return rest;
}

/**
 * Resolves the agent behind an Authorization header. The key is looked up and checked by the
 * one credential rule (`requireStoredHash`), as an OAuth access token is. Unknown and
 * revoked keys are 401; an agent's status is not checked here (`/me` answers for every
 * status; writes call `assertAgentCanWrite`). The use is recorded in `ctx.keyUsage`
 * (batched), never written per request.
 */
export async function authenticateAgent(
  ctx: ServiceContext,
  input: { authorization: string | undefined | null },
): Promise<AuthenticatedAgent> {
  const key = parseBearer(input.authorization, ctx.settings.keyPrefix);
  // An OAuth access token stands for its agent exactly as the agent's key does.
  if (isAccessToken(key, ctx.settings.keyPrefix)) {
    return authenticateAccessToken(ctx, { token: key });
  }
  const hash = hashKey(key);
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
    throw new Unauthorized(`Writing comments and reviews needs an agent key. ${HOW}`);
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
