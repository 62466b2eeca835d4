/**
 * @module Client ID Metadata Documents (MCP authorization 2025-11-25,
 * draft-ietf-oauth-client-id-metadata-document): a `client_id` that is an https URL is fetched,
 * safely, and its JSON validated as the client's registration.
 */
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { ServiceContext } from "../context.ts";
import { Unavailable } from "../errors.ts";
import type { OAuthClient } from "./clients.ts";
import { OAuthRefusal } from "./errors.ts";
import { isLoopbackAddress, isPublicAddress } from "./public-address.ts";
import { assertStorableClientMetadata } from "./schemas.ts";

/** The bounds on fetching a client's document: small, quick, cached, never redirected. */
export const CLIENT_METADATA_LIMITS = {
  /** The draft suggests 5 KB; a client's metadata is a few hundred bytes. */
  maxBytes: 5 * 1024,
  /** A deadline for the whole fetch, not an idle timeout: a trickled document is cut off. */
  timeoutMs: 5_000,
  maxUrlChars: 2_000,
  /** Cache-Control max-age is honoured within these bounds; without one, 5 minutes. */
  minCacheSeconds: 30,
  defaultCacheSeconds: 5 * 60,
  maxCacheSeconds: 24 * 60 * 60,
  /** A failed fetch is remembered this long, so a bad client_id cannot make Quire hammer a host. */
  failureCacheSeconds: 30,
  maxEntries: 1_000,
  /** Distinct documents fetched at once per instance; requests for one document share a fetch. */
  maxInFlight: 100,
} as const;

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface ClientMetadataPolicy {
  /**
   * Tests only: documents on loopback addresses, over http too, are fetched (a real loopback
   * server stands in for a client's site). Never set in production (no setting reaches it).
   */
  allowLoopback?: boolean;
  /** The whole-fetch deadline (connect, headers and body); `CLIENT_METADATA_LIMITS.timeoutMs`. */
  deadlineMs?: number;
  /** The resolver (DNS by default); every address it answers is checked before connecting. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

interface Cached {
  client?: OAuthClient;
  refusal?: string;
  until: number;
}

/** The fetcher with its per-instance cache; one per process (`ServiceContext.clientMetadata`). */
export interface ClientMetadataDocuments {
  readonly policy: ClientMetadataPolicy;
  readonly cache: Map<string, Cached>;
  /** Fetches under way, by client_id: concurrent requests for one document share one. */
  readonly inflight: Map<string, Promise<OAuthClient>>;
}

export function createClientMetadataDocuments(
  policy: ClientMetadataPolicy = {},
): ClientMetadataDocuments {
  return { policy, cache: new Map(), inflight: new Map() };
}

function allowedAddress(address: string, policy: ClientMetadataPolicy): boolean {
  if (isPublicAddress(address)) return true;
  return policy.allowLoopback === true && isLoopbackAddress(address);
}

/**
 * Whether a client_id is a metadata document URL this server fetches: https, a path beyond
 * `/`, no fragment, no user info, and already in canonical form (so no `.`/`..` segments).
 */
export function isClientMetadataUrl(clientId: string, policy: ClientMetadataPolicy = {}): boolean {
  if (clientId.length > CLIENT_METADATA_LIMITS.maxUrlChars) return false;
  if (!clientId.startsWith("https://") && !clientId.startsWith("http://")) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const loopbackHttp =
    url.protocol === "http:" && policy.allowLoopback === true && LOOPBACK_NAMES.has(url.hostname);
  return (
    (url.protocol === "https:" || loopbackHttp) &&
    url.href === clientId &&
    url.pathname !== "/" &&
    url.hash === "" &&
    url.username === "" &&
    url.password === ""
  );
}

class Refused extends Error {}

const resolveAll = (hostname: string) => dnsLookup(hostname, { all: true });

/**
 * GET the document without following redirects, resolving the host through a lookup that
 * refuses non-public addresses, so the check holds for the very address connected to (no
 * DNS-rebinding gap); an IP literal is checked before connecting. Size is capped, and the
 * whole fetch (lookup, connect, headers, body) has one deadline, so a trickled answer ends.
 */
function fetchDocument(
  url: URL,
  policy: ClientMetadataPolicy,
): Promise<{ text: string; maxAge: number | undefined }> {
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(literal) !== 0 && !allowedAddress(literal, policy)) {
    return Promise.reject(new Refused("its host is not a public address"));
  }
  const resolve = policy.resolve ?? resolveAll;
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter((a) => allowedAddress(a.address, policy));
        if (usable.length === 0 || usable.length !== addresses.length) {
          return callback(new Refused("its host does not resolve to public addresses only"), []);
        }
        if (options.all) return callback(null, usable);
        const first = usable[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, []),
    );
  };
  const deadlineMs = policy.deadlineMs ?? CLIENT_METADATA_LIMITS.timeoutMs;
  const late = new Refused(`it did not arrive within ${deadlineMs / 1000} seconds`);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: "GET", headers: { accept: "application/json" }, lookup, agent: false },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return reject(
            new Refused(`it answered HTTP ${status}, not 200 (redirects are not followed)`),
          );
        }
        const type = String(response.headers["content-type"] ?? "");
        if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(type)) {
          response.resume();
          return reject(new Refused("it is not served as application/json"));
        }
        const tooBig = new Refused(`it is over ${CLIENT_METADATA_LIMITS.maxBytes} bytes`);
        if (Number(response.headers["content-length"] ?? 0) > CLIENT_METADATA_LIMITS.maxBytes) {
          request.destroy();
          return reject(tooBig);
        }
        let size = 0;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > CLIENT_METADATA_LIMITS.maxBytes) {
            request.destroy();
            reject(tooBig);
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          if (size > CLIENT_METADATA_LIMITS.maxBytes) return;
          const match = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(
            String(response.headers["cache-control"] ?? ""),
          );
          resolve({
            text: Buffer.concat(chunks).toString("utf8"),
            maxAge: match ? Number(match[1]) : undefined,
          });
        });
        response.on("error", reject);
      },
    );
    const deadline = setTimeout(() => {
      reject(late);
      request.destroy(late);
    }, deadlineMs);
    const settle = () => clearTimeout(deadline);
    request.on("close", settle);
    request.on("error", (error) => {
      settle();
      reject(error);
    });
    request.end();
  });
}

/**
 * The document's rules: a JSON object whose `client_id` is exactly the URL it came from, with
 * valid redirect URIs (the MCP SDK's RFC 7591 schema, then Quire's: https or loopback, and
 * the bounds of `OAUTH_INPUT_LIMITS`, as for registration), and no client secret or secret-based
 * authentication method (the draft forbids shared secrets; Quire's clients are all public).
 */
async function validateClientMetadata(clientId: string, text: string): Promise<OAuthClient> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Refused("it is not valid JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new Refused("it is not a JSON object");
  }
  const members = document as Record<string, unknown>;
  if (members.client_id !== clientId) {
    throw new Refused("its client_id is not exactly the URL it was fetched from");
  }
  if ("client_secret" in members || "client_secret_expires_at" in members) {
    throw new Refused("it holds a client secret, which a metadata document must not");
  }
  const method = members.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw new Refused(
      `token_endpoint_auth_method is ${JSON.stringify(String(method).slice(0, 40))}; only "none" (a public client with PKCE) is supported`,
    );
  }
  // The SDK's schemas load with the first document, not at start-up.
  const { OAuthClientMetadataSchema } = await import("@modelcontextprotocol/sdk/shared/auth.js");
  const parsed = OAuthClientMetadataSchema.safeParse(document);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Refused(
      `its metadata is not valid (${first ? `${first.path.join(".")}: ${first.message}` : "schema"})`,
    );
  }
  if (parsed.data.redirect_uris.length === 0) throw new Refused("it lists no redirect_uris");
  const client = { ...parsed.data, client_id: clientId };
  try {
    assertStorableClientMetadata(client);
  } catch (error) {
    if (error instanceof OAuthRefusal) throw new Refused(error.message.replace(/\.$/, ""));
    throw error;
  }
  return client;
}

function remember(documents: ClientMetadataDocuments, clientId: string, entry: Cached): void {
  documents.cache.delete(clientId);
  documents.cache.set(clientId, entry);
  while (documents.cache.size > CLIENT_METADATA_LIMITS.maxEntries) {
    const oldest = documents.cache.keys().next().value;
    if (oldest === undefined) break;
    documents.cache.delete(oldest);
  }
}

/**
 * The client a metadata document URL names: from this instance's cache while fresh, else
 * fetched and validated, then handed to `store` (the client's row) before anyone uses it.
 * Concurrent requests for one document share one fetch (single-flight); the number of
 * distinct documents fetched at once is bounded, and past it the answer is Unavailable (503,
 * retry), never a queue. A document that cannot be fetched or is not valid refuses the client
 * (`invalid_client`, saying why); that answer is cached briefly too.
 */
export async function clientFromMetadataDocument(
  ctx: Pick<ServiceContext, "clock" | "logger">,
  documents: ClientMetadataDocuments,
  clientId: string,
  store?: (client: OAuthClient) => Promise<void>,
): Promise<{ client: OAuthClient; fetched: boolean }> {
  const cached = documents.cache.get(clientId);
  if (cached && cached.until > ctx.clock.now().getTime()) {
    if (cached.client) return { client: cached.client, fetched: false };
    throw new OAuthRefusal("invalid_client", cached.refusal ?? "The client is not valid.");
  }
  const pending = documents.inflight.get(clientId);
  if (pending) return { client: await pending, fetched: false };
  if (documents.inflight.size >= CLIENT_METADATA_LIMITS.maxInFlight) {
    throw new Unavailable(
      "Too many client metadata documents are being fetched; retry shortly.",
      5,
    );
  }
  const flight = fetchAndValidate(ctx, documents, clientId, store);
  documents.inflight.set(clientId, flight);
  try {
    return { client: await flight, fetched: true };
  } finally {
    documents.inflight.delete(clientId);
  }
}

async function fetchAndValidate(
  ctx: Pick<ServiceContext, "clock" | "logger">,
  documents: ClientMetadataDocuments,
  clientId: string,
  store: ((client: OAuthClient) => Promise<void>) | undefined,
): Promise<OAuthClient> {
  const limits = CLIENT_METADATA_LIMITS;
  const now = ctx.clock.now().getTime();
  let client: OAuthClient;
  let maxAge: number | undefined;
  try {
    const fetched = await fetchDocument(new URL(clientId), documents.policy);
    maxAge = fetched.maxAge;
    client = await validateClientMetadata(clientId, fetched.text);
  } catch (error) {
    const reason =
      error instanceof Refused
        ? error.message
        : "it could not be fetched (the host did not answer over HTTPS)";
    ctx.logger.warn(
      {
        client_id: clientId.slice(0, 200),
        reason,
        err: error instanceof Refused ? undefined : error,
      },
      "client metadata document refused",
    );
    const refusal = `The client's metadata document at ${clientId.slice(0, 200)} cannot be used: ${reason}.`;
    remember(documents, clientId, { refusal, until: now + limits.failureCacheSeconds * 1000 });
    throw new OAuthRefusal("invalid_client", refusal);
  }
  // A failure to store (the database) is not the document's fault: nothing is cached.
  await store?.(client);
  const seconds = Math.min(
    limits.maxCacheSeconds,
    Math.max(limits.minCacheSeconds, maxAge ?? limits.defaultCacheSeconds),
  );
  remember(documents, clientId, { client, until: now + seconds * 1000 });
  return client;
}
