/**
 * @module The bounds on what an OAuth client may have Quire store: registration metadata (RFC
 * 7591 and Client ID Metadata Documents alike), its redirect URIs, and the authorization
 * request's `state` and PKCE challenge. Every front end and every verb takes them from here.
 */
import { z } from "zod";
import { OAuthRefusal } from "./errors.ts";

/** The bounds (docs/oauth.md): a client's metadata is a few hundred bytes. */
export const OAUTH_INPUT_LIMITS = {
  /** A registration request's body; past it, 413. */
  registrationBodyBytes: 16 * 1024,
  /** The stored metadata of one client, as JSON. */
  metadataJsonBytes: 8 * 1024,
  redirectUris: 10,
  /** Each redirect URI and every other URI member (client_uri, logo_uri, tos_uri, …). */
  uriChars: 2_000,
  clientNameChars: 200,
  /** scope, software_id, software_version and each contact. */
  textChars: 200,
  contacts: 5,
  softwareStatementChars: 4_000,
  /** The authorization request's `state`, kept until the owner decides and sent back. */
  stateChars: 1_024,
} as const;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why a redirect URI cannot be registered, or null when it can: https, or http on a loopback
 * host (MCP authorization; RFC 8252 §7.3 for native apps), absolute, without a fragment
 * (RFC 6749 §3.1.2) or user info, and at most `uriChars` long. Codes never travel over plain
 * http to another host, nor to a `file:`, `ftp:` or custom scheme.
 */
function redirectUriProblem(uri: string): string | null {
  if (uri.length > OAUTH_INPUT_LIMITS.uriChars) {
    return `a redirect URI is over ${OAUTH_INPUT_LIMITS.uriChars} characters`;
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${JSON.stringify(uri.slice(0, 100))} is not an absolute URL`;
  }
  const shown = JSON.stringify(uri.slice(0, 100));
  const loopbackHttp = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !loopbackHttp) {
    return `${shown} is neither https nor http on a loopback host (localhost, 127.0.0.1, [::1])`;
  }
  if (url.hash !== "" || uri.includes("#")) return `${shown} has a fragment`;
  if (url.username !== "" || url.password !== "") return `${shown} carries user info`;
  return null;
}

const text = (max: number) => z.string().max(max, `is over ${max} characters`);
const uri = text(OAUTH_INPUT_LIMITS.uriChars);

/**
 * What a client's metadata may hold beyond what the MCP SDK's RFC 7591 schema checks: bounded
 * lengths and counts, and no key material (every client is public, with PKCE as its proof, so
 * `jwks` has no use here and is refused rather than stored).
 */
const ClientMetadataBoundsSchema = z.object({
  redirect_uris: z
    .array(z.string())
    .min(1, "lists no redirect URI")
    .max(OAUTH_INPUT_LIMITS.redirectUris, `lists over ${OAUTH_INPUT_LIMITS.redirectUris} URIs`),
  client_name: text(OAUTH_INPUT_LIMITS.clientNameChars).optional(),
  client_uri: uri.optional(),
  logo_uri: uri.optional(),
  tos_uri: uri.optional(),
  policy_uri: uri.optional(),
  jwks_uri: uri.optional(),
  jwks: z.undefined({ error: "is not accepted: clients are public and need no keys" }).optional(),
  scope: text(OAUTH_INPUT_LIMITS.textChars).optional(),
  contacts: z
    .array(text(OAUTH_INPUT_LIMITS.textChars))
    .max(OAUTH_INPUT_LIMITS.contacts, `lists over ${OAUTH_INPUT_LIMITS.contacts} contacts`)
    .optional(),
  software_id: text(OAUTH_INPUT_LIMITS.textChars).optional(),
  software_version: text(OAUTH_INPUT_LIMITS.textChars).optional(),
  software_statement: text(OAUTH_INPUT_LIMITS.softwareStatementChars).optional(),
});

/**
 * Refuses client metadata Quire will not store, naming every problem: `invalid_redirect_uri`
 * when a redirect URI breaks the rule, else `invalid_client_metadata` (RFC 7591 §3.2.2). Used for registration and for metadata documents alike.
 */
export function assertStorableClientMetadata(metadata: Record<string, unknown>): void {
  const redirects = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [];
  const uriProblems = redirects
    .slice(0, OAUTH_INPUT_LIMITS.redirectUris)
    .map((u) => (typeof u === "string" ? redirectUriProblem(u) : "a redirect URI is not a string"))
    .filter((p): p is string => p !== null);
  const parsed = ClientMetadataBoundsSchema.safeParse(metadata);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join(".") || "metadata"} ${i.message}`);
  const size = Buffer.byteLength(JSON.stringify(metadata));
  if (size > OAUTH_INPUT_LIMITS.metadataJsonBytes) {
    problems.push(`the metadata is over ${OAUTH_INPUT_LIMITS.metadataJsonBytes} bytes as JSON`);
  }
  const all = [...uriProblems, ...problems];
  if (all.length === 0) return;
  const code = uriProblems.length > 0 ? "invalid_redirect_uri" : "invalid_client_metadata";
  throw new OAuthRefusal(code, `${all.join("; ")}.`);
}

/** An S256 challenge is the base64url SHA-256 of the verifier: exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The parts of an authorization request that are stored until the owner decides: `state`
 * (echoed back, so bounded) and the PKCE challenge (an S256 digest, so exactly its shape).
 * Refused as `invalid_request`, before anything is stored.
 */
export function assertStorableAuthorization(input: {
  state?: string | undefined;
  codeChallenge?: string | undefined;
}): void {
  const problems: string[] = [];
  if (input.state !== undefined && input.state.length > OAUTH_INPUT_LIMITS.stateChars) {
    problems.push(`state is over ${OAUTH_INPUT_LIMITS.stateChars} characters`);
  }
  if (input.codeChallenge !== undefined && !S256_CHALLENGE.test(input.codeChallenge)) {
    problems.push("code_challenge is not an S256 challenge (43 base64url characters)");
  }
  if (problems.length > 0) throw new OAuthRefusal("invalid_request", `${problems.join("; ")}.`);
}
