/**
 * @module The bearer domain's public surface: an Authorization header to the agent caller,
 * by agent key or OAuth access token (above both agents and oauth, so neither needs the other
 * to authenticate).
 */
export { authenticateAgent } from "./authenticate.ts";
export { getAgentIdentity } from "./me.ts";
