/**
 * @module Latent semantic indexing fitted on the archive itself, as an evaluation probe (ADR
 * 0033): a truncated SVD of the searchable chunks' TF-IDF matrix, each chunk's projection
 * stored as its dense vector, and an in-process `Embedder` that projects a query the same way,
 * so the product's dense channel (HNSW candidates, z-score fusion) ranks with it unchanged.
 * Not product code: it measured whether such a channel earns a place (it did not, ADR 0033).
 *
 * Terms are PostgreSQL's own English lexemes (`chunks.tsv`, `to_tsvector('english', …)`), so
 * the probe runs on both engines with no tokenizer of its own. Weights: (1 + ln tf) · ln(N/df),
 * rows L2-normalised, terms in at least 2 papers. The SVD is randomized (Halko, Martinsson and
 * Tropp 2011: a Gaussian sketch of k + 20 columns, 3 power iterations with re-orthonormalisation,
 * then the small l × l eigenproblem by Jacobi) in Float64Arrays, seeded, so a rerun fits the
 * same model.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import { pgArray, rowsOf } from "../../src/db/sql.ts";
import { ensureHnswIndex } from "../../src/services/search/dense.ts";
import type { Embedder } from "../../src/services/search/embedder.ts";

export interface LsiOptions {
  /** Latent dimensions kept. */
  k: number;
  /** Extra sketch columns beyond k. */
  oversample?: number;
  /** Power iterations (each sharpens the spectrum the sketch sees). */
  power?: number;
  seed?: number;
}

export interface LsiModel {
  readonly name: string;
  readonly k: number;
  readonly vocab: Map<string, number>;
  readonly idf: Float64Array;
  /** k columns over the vocabulary: the top right singular vectors. */
  readonly basis: Float64Array[];
  readonly sigma: number[];
  /** Fitted on this many papers; the time the SVD took. */
  readonly papers: number;
  readonly seconds: number;
}

type Bag = Map<string, number>;

/** Sparse rows (compressed sparse row). */
export interface Csr {
  rows: number;
  cols: number;
  ptr: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

/** The searchable chunks' lexeme counts, per chunk. */
async function chunkBags(db: Db): Promise<Map<number, { paper: string; bag: Bag }>> {
  const rows = await rowsOf<{
    chunk_id: string | number;
    paper_id: string;
    lexeme: string;
    tf: number;
  }>(
    db,
    sql`select s.chunk_id::int8 as chunk_id, c.paper_id, t.lexeme,
               coalesce(cardinality(t.positions), 1)::int as tf
        from search_chunks s join chunks c on c.id = s.chunk_id, unnest(c.tsv) t`,
  );
  const out = new Map<number, { paper: string; bag: Bag }>();
  for (const r of rows) {
    const id = Number(r.chunk_id);
    let entry = out.get(id);
    if (!entry) {
      entry = { paper: r.paper_id, bag: new Map() };
      out.set(id, entry);
    }
    entry.bag.set(r.lexeme, (entry.bag.get(r.lexeme) ?? 0) + Number(r.tf));
  }
  return out;
}

function weighted(
  model: Pick<LsiModel, "vocab" | "idf">,
  bag: Bag,
): { idx: number[]; val: number[] } {
  const idx: number[] = [];
  const val: number[] = [];
  let norm = 0;
  for (const [lexeme, tf] of bag) {
    const i = model.vocab.get(lexeme);
    if (i === undefined) continue;
    const w = (1 + Math.log(tf)) * model.idf[i]!;
    idx.push(i);
    val.push(w);
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  return { idx, val: val.map((v) => v / norm) };
}

/** A bag of lexemes in latent space, unit length (a bag with no known term gets a fixed axis). */
export function projectBag(model: LsiModel, bag: Bag): number[] {
  const { idx, val } = weighted(model, bag);
  const out = model.basis.map((column) => {
    let dot = 0;
    for (let t = 0; t < idx.length; t++) dot += val[t]! * column[idx[t]!]!;
    return dot;
  });
  const norm = Math.sqrt(out.reduce((a, b) => a + b * b, 0));
  if (norm === 0) {
    out[0] = 1;
    return out;
  }
  return out.map((x) => x / norm);
}

/** Fits the model on the papers of the searchable chunks (a paper's chunks form one document). */
export async function fitLsi(db: Db, options: LsiOptions): Promise<LsiModel> {
  const chunks = await chunkBags(db);
  const papers = new Map<string, Bag>();
  for (const { paper, bag } of chunks.values()) {
    const into = papers.get(paper) ?? new Map<string, number>();
    for (const [w, n] of bag) into.set(w, (into.get(w) ?? 0) + n);
    papers.set(paper, into);
  }
  const docs = [...papers.values()];
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const vocab = new Map<string, number>();
  for (const [w, n] of df) if (n >= 2 && !/^\d+$/.test(w)) vocab.set(w, vocab.size);
  const idf = new Float64Array(vocab.size);
  for (const [w, i] of vocab) idf[i] = Math.log(docs.length / df.get(w)!);
  const ptr = new Int32Array(docs.length + 1);
  const idx: number[] = [];
  const val: number[] = [];
  for (const [r, d] of docs.entries()) {
    const row = weighted({ vocab, idf }, d);
    for (let t = 0; t < row.idx.length; t++) {
      idx.push(row.idx[t]!);
      val.push(row.val[t]!);
    }
    ptr[r + 1] = idx.length;
  }
  const matrix: Csr = {
    rows: docs.length,
    cols: vocab.size,
    ptr,
    idx: Int32Array.from(idx),
    val: Float64Array.from(val),
  };
  const k = Math.max(1, Math.min(options.k, docs.length - 1, vocab.size - 1));
  const started = performance.now();
  const { basis, sigma } = randomizedSvd(matrix, k, options);
  return {
    name: `lsi-k${k}-${docs.length}`,
    k,
    vocab,
    idf,
    basis,
    sigma,
    papers: docs.length,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Stores every searchable chunk's projection as its dense vector under the model's name (other
 * models' vectors are removed: the dense channel reads one model) and builds the HNSW index.
 */
export async function storeLsiVectors(db: Db, model: LsiModel): Promise<number> {
  const chunks = [...(await chunkBags(db)).entries()];
  await db.execute(sql`delete from chunk_embeddings`);
  for (let i = 0; i < chunks.length; i += 500) {
    const part = chunks.slice(i, i + 500);
    const ids = part.map(([id]) => id);
    const vectors = part.map(
      ([, { bag }]) =>
        `[${projectBag(model, bag)
          .map((x) => x.toFixed(6))
          .join(",")}]`,
    );
    await db.execute(
      sql`insert into chunk_embeddings (chunk_id, model, dims, embedding)
          select unnest(${pgArray(ids, "int8")}), ${model.name}, ${model.k},
                 unnest(${pgArray(vectors, "text")})::vector`,
    );
  }
  await ensureHnswIndex(db, model.k);
  await db.execute(sql`analyze chunk_embeddings`);
  return chunks.length;
}

/** Projects query text in process (its lexemes from the database's English analysis). */
export function lsiEmbedder(db: Db, model: LsiModel): Embedder {
  return {
    model: model.name,
    batchSize: 64,
    queryTimeoutMs: 5_000,
    async embed(texts) {
      const out: number[][] = [];
      for (const text of texts) {
        const lexemes = await rowsOf<{ lexeme: string; tf: number }>(
          db,
          sql`select t.lexeme, coalesce(cardinality(t.positions), 1)::int as tf
              from unnest(to_tsvector('english', ${text})) t`,
        );
        out.push(projectBag(model, new Map(lexemes.map((l) => [l.lexeme, Number(l.tf)]))));
      }
      return out;
    },
  };
}

/** Y = A · M, with M and Y as lists of columns. */
function times(a: Csr, m: Float64Array[]): Float64Array[] {
  const out = m.map(() => new Float64Array(a.rows));
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.ptr[r]!; p < a.ptr[r + 1]!; p++) {
      const c = a.idx[p]!;
      const v = a.val[p]!;
      for (let j = 0; j < m.length; j++) out[j]![r]! += v * m[j]![c]!;
    }
  }
  return out;
}

/** Y = Aᵀ · M. */
function timesTransposed(a: Csr, m: Float64Array[]): Float64Array[] {
  const out = m.map(() => new Float64Array(a.cols));
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.ptr[r]!; p < a.ptr[r + 1]!; p++) {
      const c = a.idx[p]!;
      const v = a.val[p]!;
      for (let j = 0; j < m.length; j++) out[j]![c]! += v * m[j]![r]!;
    }
  }
  return out;
}

/** Gram-Schmidt, twice over (numerically orthonormal columns), in place. */
function orthonormalise(q: Float64Array[]): Float64Array[] {
  for (let j = 0; j < q.length; j++) {
    const v = q[j]!;
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < j; i++) {
        const u = q[i]!;
        let dot = 0;
        for (let t = 0; t < v.length; t++) dot += u[t]! * v[t]!;
        for (let t = 0; t < v.length; t++) v[t]! -= dot * u[t]!;
      }
    }
    let norm = 0;
    for (let t = 0; t < v.length; t++) norm += v[t]! * v[t]!;
    norm = Math.sqrt(norm) || 1;
    for (let t = 0; t < v.length; t++) v[t]! /= norm;
  }
  return q;
}

/** Eigenvalues (descending) and eigenvectors of a symmetric matrix, by cyclic Jacobi. */
export function symmetricEigen(s: Float64Array[]): { values: number[]; vectors: Float64Array[] } {
  const n = s.length;
  const a = s.map((row) => Float64Array.from(row));
  const v = Array.from({ length: n }, (_, i) => {
    const row = new Float64Array(n);
    row[i] = 1;
    return row;
  });
  let scale = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) scale += a[i]![j]! ** 2;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p]![q]! ** 2;
    if (off <= 1e-24 * scale) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p]![q]!;
        if (apq === 0) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - sn * akq;
          a[k]![q] = sn * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - sn * aqk;
          a[q]![k] = sn * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - sn * vkq;
          v[k]![q] = sn * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y]![y]! - a[x]![x]!);
  return {
    values: order.map((i) => a[i]![i]!),
    vectors: order.map((i) => Float64Array.from(v, (row) => row[i]!)),
  };
}

/** A seeded standard normal generator (mulberry32 + Box-Muller). */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() || 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

/** The top-k right singular vectors (columns over A's columns) and singular values of A. */
export function randomizedSvd(
  a: Csr,
  k: number,
  options: Omit<LsiOptions, "k"> = {},
): { basis: Float64Array[]; sigma: number[] } {
  const l = Math.min(k + (options.oversample ?? 20), a.rows, a.cols);
  const gaussian = normals(options.seed ?? 1);
  const sketch = Array.from({ length: l }, () => Float64Array.from({ length: a.cols }, gaussian));
  let q = orthonormalise(times(a, sketch));
  for (let i = 0; i < (options.power ?? 3); i++) {
    q = orthonormalise(times(a, orthonormalise(timesTransposed(a, q))));
  }
  // B = Qᵀ A (l × cols), held as its transpose C; B Bᵀ = Cᵀ C = U Σ² Uᵀ, and V = C U Σ⁻¹.
  const c = timesTransposed(a, q);
  const gram = Array.from({ length: l }, () => new Float64Array(l));
  for (let i = 0; i < l; i++) {
    for (let j = i; j < l; j++) {
      let dot = 0;
      const ci = c[i]!;
      const cj = c[j]!;
      for (let t = 0; t < a.cols; t++) dot += ci[t]! * cj[t]!;
      gram[i]![j] = dot;
      gram[j]![i] = dot;
    }
  }
  const { values, vectors } = symmetricEigen(gram);
  const basis: Float64Array[] = [];
  const sigma: number[] = [];
  for (let j = 0; j < Math.min(k, l); j++) {
    const s = Math.sqrt(Math.max(values[j]!, 1e-30));
    const column = new Float64Array(a.cols);
    const u = vectors[j]!;
    for (let i = 0; i < l; i++) {
      const w = u[i]! / s;
      const ci = c[i]!;
      for (let t = 0; t < a.cols; t++) column[t]! += w * ci[t]!;
    }
    basis.push(column);
    sigma.push(s);
  }
  return { basis, sigma };
}
