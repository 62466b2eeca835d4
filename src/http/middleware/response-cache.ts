/** @module Serves anonymous public GETs of the API from the response cache, and fills it. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import type { CachedResponse, ResponseCache } from "../response-cache.ts";
import { canonicalQuery } from "../route-query.ts";
import {
  bodyEtag,
  keepEncodedBodies,
  keepSerializedJson,
  respondWithSerialized,
  serializedBody,
} from "../serialized.ts";

/** Headers that describe the representation; everything else is per request or per hop. */
const KEPT_HEADERS = [
  "content-type",
  "content-disposition",
  "content-language",
  "vary",
  "link",
  "last-modified",
];
/** Streamed exports are never kept (they are large and read once). */
const STREAMED = /ndjson|jsonl/;
/**
 * A key over this many bytes (a declared parameter at its longest, an odd `Accept`) is not
 * worth keeping: such a request is answered, not cached. Real clients' keys are far shorter.
 */
export const MAX_KEY_BYTES = 2048;

/**
 * Sits after the rate limiter (a hit still draws on the caller's quota) and inside the
 * validators and compression (a hit gets its ETag, 304 and encoding as a miss does, from the
 * stored string and the stored compressed bytes). The key is the path, the query parameters
 * the route declares (`queryNames`: sorted, so their order does not matter; any other
 * parameter is ignored by the route and so by the key, per docs/contract/DECISIONS.md) and
 * `Accept` (the `format` parameter is in the query, the encoding is chosen per entry). A
 * route whose parameters are unknown, and a key over MAX_KEY_BYTES, are not cached.
 *
 * A request that could be anyone's but anonymous — any `Authorization` (agent key, OAuth
 * token) or any `Cookie` (an owner session), valid or not — neither reads nor fills an
 * entry: its body may depend on who asks.
 */
export function responseCache(
  cache: ResponseCache | undefined,
  queryNames: (c: Context<AppEnv>) => ReadonlySet<string> | undefined,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (
      !cache ||
      c.req.method !== "GET" ||
      c.req.header("authorization") !== undefined ||
      c.req.header("cookie") !== undefined ||
      c.get("ctx")?.caller.kind !== "anonymous"
    ) {
      return next();
    }
    const names = queryNames(c);
    if (!names) return next();
    const url = new URL(c.req.url);
    const query = canonicalQuery(url.search, names);
    // No Accept means any type (RFC 9110 §12.5.1): one entry with `*/*`, which curl and fetch send.
    const key = `${url.pathname}${query ? `?${query}` : ""}\n${c.req.header("accept") || "*/*"}`;
    if (Buffer.byteLength(key) > MAX_KEY_BYTES) return next();
    // No await between the lookup and beginFill unless a fill is under way: a request that
    // yielded there would let others past the lookup too, each to begin its own read.
    const pending = cache.get(key) ?? cache.waitForFill(key);
    const hit = pending instanceof Promise ? await pending : pending;
    if (hit) return answer(c, cache, hit);
    const done = cache.beginFill(key);
    let entry: CachedResponse | undefined;
    try {
      entry = await fill(c, next, cache, key);
    } finally {
      done(entry);
    }
    if (entry) keepEncodedBodies(c, encodedStore(cache, entry));
    return undefined;
  };
}

/** Runs the handler and keeps its answer when it can be shared; returns what was kept. */
async function fill(
  c: Context<AppEnv>,
  next: () => Promise<void>,
  cache: ResponseCache,
  key: string,
): Promise<CachedResponse | undefined> {
  const generation = cache.generation;
  keepSerializedJson(c);
  await next();
  const res = c.res;
  const type = res.headers.get("content-type") ?? "";
  if (res.status !== 200 || STREAMED.test(type) || res.headers.has("set-cookie")) {
    return undefined;
  }
  let body: string | Uint8Array | undefined = serializedBody(c);
  if (body === undefined) {
    if (!res.body) return undefined;
    body = new Uint8Array(await res.clone().arrayBuffer());
  }
  const headers: [string, string][] = [];
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers.push([name, value]);
  }
  const etag = res.headers.get("etag") ?? bodyEtag(body);
  const entry = cache.set(key, generation, { body, headers, etag });
  if (entry && etag) res.headers.set("etag", etag);
  return entry;
}

function answer(c: Context<AppEnv>, cache: ResponseCache, entry: CachedResponse) {
  const response =
    typeof entry.body === "string"
      ? respondWithSerialized(c, entry.body, entry.headers)
      : c.body(entry.body.slice(), 200, Object.fromEntries(entry.headers));
  if (entry.etag) response.headers.set("etag", entry.etag);
  keepEncodedBodies(c, encodedStore(cache, entry));
  return response;
}

function encodedStore(cache: ResponseCache, entry: CachedResponse) {
  return {
    get: (encoding: "br" | "gzip") => entry.encoded.get(encoding),
    set: (encoding: "br" | "gzip", body: Uint8Array) => cache.setEncoded(entry, encoding, body),
  };
}
