/**
 * @module The response cache of anonymous public reads: serialized bodies and their ETags
 * (and, as asked for, their br/gzip bytes), LRU-bounded in bytes, dropped whole on every
 * archive change any instance commits (docs/adr/0025). The bound counts everything an entry
 * keeps: its key, its headers and ETag, its bodies, and a fixed overhead (issue 28).
 */

export type Encoding = "br" | "gzip";

export interface CachedResponse {
  key: string;
  body: string | Uint8Array;
  /** Headers the handler set that describe the representation (content-type, vary, …). */
  headers: [string, string][];
  /** The strong ETag of `body` (as publicCache would compute it), or null for none. */
  etag: string | null;
  /** Compressed bodies, filled the first time a client asks for each encoding. */
  encoded: Map<Encoding, Uint8Array>;
  bytes: number;
  expires: number;
}

export interface ResponseCacheOptions {
  /** Bound on the bytes of every entry kept: keys, headers, bodies (compressed ones too). */
  maxBytes: number;
  /** Safety net: an entry older than this is not served (a missed notification ages out). */
  ttlMs?: number;
  /** Milliseconds since some epoch; tests may move it. */
  now?: () => number;
}

export interface ResponseCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  invalidations: number;
  /** Misses answered by a concurrent request's fill instead of a read of their own. */
  coalesced: number;
  /** What the last invalidation named (the changed table, from the notification), if anything. */
  lastChange: string | null;
}

/** Entries over this share of the bound are never kept, so one response cannot empty it. */
const MAX_ENTRY_SHARE = 8;
/**
 * Bookkeeping per entry beyond its strings and bytes (the entry object, its map slots, the
 * encodings map, array and string headers), counted against the bound too.
 */
export const ENTRY_OVERHEAD = 512;

/**
 * A Map kept in use order (a hit moves its entry to the end), so eviction drops the least
 * recently used first. Every fill names the generation it started in: a response read
 * before an invalidation is never stored after it (it may hold what the change replaced).
 */
export class ResponseCache {
  readonly maxBytes: number;
  readonly ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, CachedResponse>();
  /** Fills under way in this generation, by key: concurrent misses wait for them. */
  readonly #filling = new Map<string, Promise<CachedResponse | undefined>>();
  #bytes = 0;
  #generation = 0;
  #suspended = false;
  #hits = 0;
  #misses = 0;
  #invalidations = 0;
  #coalesced = 0;
  #lastChange: string | null = null;
  /** When expired entries are next swept out (see `#sweep`). */
  #nextSweep: number;

  constructor(options: ResponseCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.ttlMs = options.ttlMs ?? 30_000;
    this.#now = options.now ?? Date.now;
    this.#nextSweep = this.#now() + this.ttlMs;
  }

  /** Changes with every invalidation; a fill must present the one its read started in. */
  get generation(): number {
    return this.#generation;
  }

  get(key: string): CachedResponse | undefined {
    this.#sweep();
    const entry = this.#suspended ? undefined : this.#entries.get(key);
    if (!entry || entry.expires <= this.#now()) {
      if (entry) this.#delete(key, entry);
      this.#misses++;
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#hits++;
    return entry;
  }

  /** Keeps a response read in `generation`, unless the archive changed since or it is too big. */
  set(
    key: string,
    generation: number,
    response: Pick<CachedResponse, "body" | "headers" | "etag">,
  ): CachedResponse | undefined {
    if (this.#suspended || generation !== this.#generation) return undefined;
    this.#sweep();
    const bytes = entryBytes(key, response);
    if (bytes > this.maxBytes / MAX_ENTRY_SHARE) return undefined;
    const old = this.#entries.get(key);
    if (old) this.#delete(key, old);
    const entry: CachedResponse = {
      ...response,
      key,
      encoded: new Map(),
      bytes,
      expires: this.#now() + this.ttlMs,
    };
    this.#entries.set(key, entry);
    this.#bytes += bytes;
    this.#evict();
    return entry;
  }

  /**
   * The fill under way for `key` in this generation, if any: a miss that arrives while
   * another request reads the same thing waits for that read instead of running its own
   * (many clients asking for one paper at once cost one query). It resolves to what was kept,
   * or undefined when nothing was (the read was not cacheable, failed, or the archive
   * changed meanwhile); the waiter then reads for itself.
   */
  waitForFill(key: string): Promise<CachedResponse | undefined> | undefined {
    const pending = this.#filling.get(key);
    return pending?.then((entry) => {
      if (entry) this.#coalesced++;
      return entry;
    });
  }

  /**
   * Marks a fill of `key` as under way; the caller must call the returned function once, with
   * the entry `set` kept (or undefined), whatever happens to its read.
   */
  beginFill(key: string): (entry: CachedResponse | undefined) => void {
    let finish!: (entry: CachedResponse | undefined) => void;
    const pending = new Promise<CachedResponse | undefined>((resolve) => {
      finish = resolve;
    });
    this.#filling.set(key, pending);
    return (entry) => {
      if (this.#filling.get(key) === pending) this.#filling.delete(key);
      finish(entry);
    };
  }

  /** Adds an entry's compressed body, when the entry is still kept and the bound allows. */
  setEncoded(entry: CachedResponse, encoding: Encoding, body: Uint8Array): void {
    if (entry.encoded.has(encoding) || this.#entries.get(entry.key) !== entry) return;
    entry.encoded.set(encoding, body);
    entry.bytes += body.byteLength;
    this.#bytes += body.byteLength;
    this.#evict();
  }

  /** Drops every entry: the archive changed (`change` names what, when known) or may have, unseen. */
  invalidate(change: string | null = null): void {
    this.#lastChange = change;
    this.#entries.clear();
    // Fills begun before the change keep nothing (their generation is gone); requests from now
    // on must not wait for them.
    this.#filling.clear();
    this.#bytes = 0;
    this.#generation++;
    this.#invalidations++;
  }

  /**
   * While changes cannot be heard (the notification connection is down), nothing is served
   * or kept; `resume` starts again from empty, since changes may have been missed meanwhile.
   */
  suspend(): void {
    this.#suspended = true;
    this.invalidate();
  }

  resume(): void {
    this.invalidate();
    this.#suspended = false;
  }

  stats(): ResponseCacheStats {
    return {
      entries: this.#entries.size,
      bytes: this.#bytes,
      maxBytes: this.maxBytes,
      hits: this.#hits,
      misses: this.#misses,
      invalidations: this.#invalidations,
      coalesced: this.#coalesced,
      lastChange: this.#lastChange,
    };
  }

  #delete(key: string, entry: CachedResponse): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /**
   * Drops every expired entry, at most once per half TTL (amortised over the gets and sets
   * that call it): an entry nobody asks for again does not hold memory until it is evicted.
   */
  #sweep(): void {
    const now = this.#now();
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + Math.max(1, this.ttlMs / 2);
    for (const [key, entry] of this.#entries) {
      if (entry.expires <= now) this.#delete(key, entry);
    }
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) return;
      this.#delete(key, entry);
    }
  }
}

/** What an entry keeps, in bytes: its key, headers, ETag and body, and the fixed overhead. */
export function entryBytes(
  key: string,
  response: Pick<CachedResponse, "body" | "headers" | "etag">,
): number {
  let bytes = ENTRY_OVERHEAD + byteLength(key) + byteLength(response.body);
  for (const [name, value] of response.headers) bytes += byteLength(name) + byteLength(value);
  if (response.etag) bytes += byteLength(response.etag);
  return bytes;
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}
