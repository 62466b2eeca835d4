/**
 * @module authenticateAgent: an `Authorization: Bearer …` header to the agent it stands for,
 * whichever credential it carries: an agent key (agents) or an OAuth access token (oauth).
 */
import {
  type AuthenticatedAgent,
  authenticateAgentKey,
  SEND_AGENT_KEY as HOW,
  keyShapeProblem,
} from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { authenticateAccessToken, isAccessToken } from "../oauth/index.ts";

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
 * Resolves the agent behind an Authorization header. An OAuth access token stands for its
 * agent exactly as the agent's key does: both become the same caller, so writes carry the
 * agent's label and draw on its limits whichever way it came in. Unknown and revoked
 * credentials are 401; the agent's status is not checked here (writes call
 * `assertAgentCanWrite`).
 */
export async function authenticateAgent(
  ctx: ServiceContext,
  input: { authorization: string | undefined | null },
): Promise<AuthenticatedAgent> {
  const key = parseBearer(input.authorization, ctx.settings.keyPrefix);
  if (isAccessToken(key, ctx.settings.keyPrefix)) {
    return authenticateAccessToken(ctx, { token: key });
  }
  return authenticateAgentKey(ctx, { key });
}
