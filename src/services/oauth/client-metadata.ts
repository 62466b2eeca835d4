/**
 * @module Client ID Metadata Documents (MCP authorization 2025-11-25,
 * draft-ietf-oauth-client-id-metadata-document): a `client_id` that is an https URL is fetched,
 * safely, and its JSON validated as the client's registration.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";
import type { ServiceContext } from "../context.ts";
import type { OAuthClient } from "./clients.ts";
import { OAuthRefusal } from "./errors.ts";

/** The bounds on fetching a client's document: small, quick, cached, never redirected. */
export const CLIENT_METADATA_LIMITS = {
  /** The draft suggests 5 KB; a client's metadata is a few hundred bytes. */
  maxBytes: 5 * 1024,
  timeoutMs: 5_000,
  maxUrlChars: 2_000,
  /** Cache-Control max-age is honoured within these bounds; without one, 5 minutes. */
  minCacheSeconds: 30,
  defaultCacheSeconds: 5 * 60,
  maxCacheSeconds: 24 * 60 * 60,
  /** A failed fetch is remembered this long, so a bad client_id cannot make Quire hammer a host. */
  failureCacheSeconds: 30,
  maxEntries: 1_000,
} as const;

/**
 * Addresses a client's document may never be fetched from (SSRF): unspecified, loopback,
 * private (RFC 1918, ULA), carrier-grade NAT, link-local, documentation, benchmarking,
 * multicast and reserved ranges, and IPv6 forms that embed an IPv4 address.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 127],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, "ipv6");
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface ClientMetadataPolicy {
  /**
   * Tests only: documents on loopback addresses, over http too, are fetched (a real loopback
   * server stands in for a client's site). Never set in production (no setting reaches it).
   */
  allowLoopback?: boolean;
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
}

export function createClientMetadataDocuments(
  policy: ClientMetadataPolicy = {},
): ClientMetadataDocuments {
  return { policy, cache: new Map() };
}

function allowedAddress(address: string, family: number, policy: ClientMetadataPolicy): boolean {
  const type = family === 6 ? "ipv6" : "ipv4";
  if (!NOT_PUBLIC.check(address, type)) return true;
  return policy.allowLoopback === true && LOOPBACK.check(address, type);
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

/**
 * GET the document without following redirects, resolving the host through a lookup that
 * refuses non-public addresses, so the check holds for the very address connected to (no
 * DNS-rebinding gap); an IP literal is checked before connecting. Size and time are capped.
 */
function fetchDocument(
  url: URL,
  policy: ClientMetadataPolicy,
): Promise<{ text: string; maxAge: number | undefined }> {
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  const family = isIP(literal);
  if (family !== 0 && !allowedAddress(literal, family, policy)) {
    return Promise.reject(new Refused("its host is not a public address"));
  }
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const usable = addresses.filter((a) => allowedAddress(a.address, a.family, policy));
      if (usable.length === 0 || usable.length !== addresses.length) {
        return callback(new Refused("its host does not resolve to public addresses only"), []);
      }
      if (options.all) return callback(null, usable);
      const first = usable[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
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
    request.setTimeout(CLIENT_METADATA_LIMITS.timeoutMs, () =>
      request.destroy(
        new Refused(`it did not arrive within ${CLIENT_METADATA_LIMITS.timeoutMs / 1000} seconds`),
      ),
    );
    request.on("error", reject);
    request.end();
  });
}

/**
 * The document's rules: a JSON object whose `client_id` is exactly the URL it came from, with
 * valid redirect URIs (the MCP SDK's RFC 7591 schema), and no client secret or secret-based
 * authentication method (the draft forbids shared secrets; Quire's clients are all public).
 */
export async function validateClientMetadata(clientId: string, text: string): Promise<OAuthClient> {
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
  return { ...parsed.data, client_id: clientId };
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
 * fetched and validated. A document that cannot be fetched or is not valid refuses the
 * client (`invalid_client`, saying why); that answer is cached briefly too.
 */
export async function clientFromMetadataDocument(
  ctx: Pick<ServiceContext, "clock" | "logger">,
  documents: ClientMetadataDocuments,
  clientId: string,
): Promise<{ client: OAuthClient; fetched: boolean }> {
  const now = ctx.clock.now().getTime();
  const cached = documents.cache.get(clientId);
  if (cached && cached.until > now) {
    if (cached.client) return { client: cached.client, fetched: false };
    throw new OAuthRefusal("invalid_client", cached.refusal ?? "The client is not valid.");
  }
  const limits = CLIENT_METADATA_LIMITS;
  try {
    const { text, maxAge } = await fetchDocument(new URL(clientId), documents.policy);
    const client = await validateClientMetadata(clientId, text);
    const seconds = Math.min(
      limits.maxCacheSeconds,
      Math.max(limits.minCacheSeconds, maxAge ?? limits.defaultCacheSeconds),
    );
    remember(documents, clientId, { client, until: now + seconds * 1000 });
    return { client, fetched: true };
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
}
