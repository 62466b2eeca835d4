/**
 * @module Test support: every public API response of an archive (lists through all cursors,
 * each paper in every format and version, context, comments, reviews, searches, dataset,
 * feeds, OAI-PMH, llms.txt, `/me`), recorded as status, type, ETag and body, so two
 * deployments of the same data can be compared byte for byte.
 */

export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

export interface CollectOptions {
  queries: string[];
  /** Search modes to ask for each query (semantic needs an embedder). */
  modes?: string[];
  /** Ids that are not in the list (withdrawn papers), asked for directly. */
  extraIds?: string[];
  /** Agent keys to ask `/api/v1/me` with. */
  agentKeys?: string[];
  /** Ask for every paper's details (default), or every `sample`-th one. */
  sample?: number;
}

/** Path (plus a note for requests with headers) → `status\ncontent-type\netag\n\nbody`. */
export type ApiResponses = Map<string, string>;

export async function collectApiResponses(
  fetch: Fetcher,
  options: CollectOptions,
): Promise<ApiResponses> {
  const out: ApiResponses = new Map();
  const get = async (path: string, headers: Record<string, string> = {}, note = "") => {
    // The same request id on both sides: problem+json bodies carry it.
    const res = await fetch(path, { headers: { "x-request-id": "api-compare", ...headers } });
    const body = await res.text();
    out.set(
      `${path}${note}`,
      `${res.status}\n${res.headers.get("content-type") ?? ""}\n${res.headers.get("etag") ?? ""}\n\n${body}`,
    );
    return { status: res.status, body };
  };
  const pages = async (path: string) => {
    let next: string | null = path;
    const bodies: unknown[] = [];
    while (next) {
      const { status, body } = await get(next);
      if (status !== 200) break;
      const parsed = JSON.parse(body) as Record<string, unknown>;
      bodies.push(parsed);
      const cursor = parsed.next_cursor as string | null | undefined;
      next = cursor
        ? `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`
        : null;
    }
    return bodies;
  };

  const ids: string[] = [];
  for (const page of await pages("/api/v1/papers")) {
    for (const item of (page as { papers: { id: string }[] }).papers) ids.push(item.id);
  }
  await pages("/api/v1/papers?limit=100");
  const sample = options.sample ?? 1;
  const detailed = [...ids.filter((_, i) => i % sample === 0), ...(options.extraIds ?? [])];
  for (const id of detailed) {
    const { status, body } = await get(`/api/v1/papers/${id}`);
    for (const format of ["jsonld", "bibtex", "ris", "csl"]) {
      await get(`/api/v1/papers/${id}?format=${format}`);
    }
    await get(`/api/v1/papers/${id}/context`);
    await pages(`/api/v1/papers/${id}/comments`);
    await get(`/api/v1/papers/${id}/reviews`);
    await reviewPages(get, id);
    if (status === 200) {
      const versions = (JSON.parse(body) as { paper: { versions: { version: number }[] } }).paper
        .versions;
      for (const v of versions) {
        await get(`/api/v1/papers/${id}v${v.version}`);
        await get(`/api/v1/papers/${id}v${v.version}/context`);
      }
    }
  }
  for (const q of options.queries) {
    for (const mode of options.modes ?? ["lexical", "hybrid"]) {
      await get(`/api/v1/search/semantic?q=${encodeURIComponent(q)}&mode=${mode}&limit=20`);
    }
  }
  for (const path of [
    "/api/v1/dataset/croissant",
    "/api/v1/dataset/papers.jsonl",
    "/api/v1/dataset/chunks.jsonl",
    "/feed.atom",
    "/feed.atom?keyword=cs.CV",
    "/oai?verb=Identify",
    "/llms.txt",
    "/llms-full.txt",
  ]) {
    await get(path);
  }
  for (const verb of ["ListRecords", "ListIdentifiers"]) {
    let next: string | null = `/oai?verb=${verb}&metadataPrefix=oai_dc`;
    while (next) {
      const { body } = await get(next);
      const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
      next = token ? `/oai?verb=${verb}&resumptionToken=${encodeURIComponent(token)}` : null;
    }
  }
  for (const [i, key] of (options.agentKeys ?? []).entries()) {
    await get("/api/v1/me", { authorization: `Bearer ${key}` }, ` (agent key ${i})`);
  }
  return out;
}

/** Each review list page by page: `kind` selects the list and its cursor continues it. */
async function reviewPages(
  get: (path: string) => Promise<{ status: number; body: string }>,
  id: string,
) {
  for (const kind of ["human", "ai_advisory"]) {
    let next: string | null = `/api/v1/papers/${id}/reviews?kind=${kind}&limit=1`;
    while (next) {
      const { status, body } = await get(next);
      if (status !== 200) break;
      const list = (JSON.parse(body) as Record<string, { next_cursor: string | null } | undefined>)[
        kind
      ];
      next = list?.next_cursor
        ? `/api/v1/papers/${id}/reviews?kind=${kind}&limit=1&cursor=${encodeURIComponent(list.next_cursor)}`
        : null;
    }
  }
}

export interface Comparison {
  /** Paths whose responses are byte-for-byte equal. */
  identical: number;
  /**
   * Search paths equal in everything (status, type, results, their order, quotes, fields)
   * but scores that differ by less than `SCORE_TOLERANCE` (and so the ETag).
   */
  scoresOnly: string[];
  /** Paths that differ otherwise, or exist on one side only. */
  different: string[];
}

/**
 * Two builds of PostgreSQL (x86-64 with glibc's libm and SIMD; PGlite's wasm32 with
 * emscripten's) round the same floating-point expressions differently: BM25's `float8`
 * arithmetic in the last bit or two (~1e-16 relative), pgvector's `float4` cosine
 * distances from the 7th significant digit. Scores differ by that much, nothing else does.
 */
const SCORE_TOLERANCE = 1e-6;

/**
 * Search settings for comparing two databases. HNSW search is approximate and each
 * database has its own graph (the target builds its index anew, with random levels), so
 * with the default `ef_search` (100) the 100 dense candidates can differ by a few near
 * ties, which moves hybrid and semantic scores (by up to 7e-4 measured at 5,000 papers),
 * as any REINDEX would. At pgvector's maximum, 1000, both return the exact neighbours.
 */
export const EXACT_DENSE = { efSearch: 1000 } as const;

export function compareResponses(a: ApiResponses, b: ApiResponses): Comparison {
  const result: Comparison = { identical: 0, scoresOnly: [], different: [] };
  for (const [path, value] of a) {
    const other = b.get(path);
    if (other === value) result.identical++;
    else if (
      other !== undefined &&
      path.startsWith("/api/v1/search/") &&
      sameButScores(value, other)
    ) {
      result.scoresOnly.push(path);
    } else result.different.push(path);
  }
  for (const path of b.keys()) if (!a.has(path)) result.different.push(path);
  return result;
}

function sameButScores(a: string, b: string): boolean {
  const split = (v: string) => {
    const [head = "", body = ""] = v.split("\n\n", 2);
    const [status, type] = head.split("\n");
    return { status, type, json: JSON.parse(body) as { results?: { score: number }[] } };
  };
  const x = split(a);
  const y = split(b);
  if (x.status !== y.status || x.type !== y.type) return false;
  const xs = x.json.results ?? [];
  const ys = y.json.results ?? [];
  if (xs.length !== ys.length) return false;
  for (let i = 0; i < xs.length; i++) {
    const p = xs[i] as { score: number };
    const q = ys[i] as { score: number };
    if (Math.abs(p.score - q.score) > SCORE_TOLERANCE) return false;
    if (JSON.stringify({ ...p, score: 0 }) !== JSON.stringify({ ...q, score: 0 })) return false;
  }
  return JSON.stringify({ ...x.json, results: [] }) === JSON.stringify({ ...y.json, results: [] });
}
