/** @module The dense channel's storage: vectors per model in chunk_embeddings, HNSW per dimension. */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf, withTransaction } from "../../db/sql.ts";
import { Unavailable } from "../errors.ts";

/** pgvector's HNSW limit for `vector`. */
const MAX_INDEXED_DIMS = 2000;

export interface DenseHit {
  chunkId: number;
  similarity: number;
}

/** `[x,y,…]`, the text form pgvector parses; rejects vectors that are not finite numbers. */
export function vectorLiteral(vector: readonly number[]): string {
  for (const x of vector) {
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw new Unavailable("The embedding backend returned a vector with non-numeric values.", 30);
    }
  }
  return `[${vector.join(",")}]`;
}

/**
 * HNSW build parameters. pgvector's defaults (m 16, ef_construction 64) gave recall@8 0.80 at
 * ef_search 100 and 0.93 at 400 on bench:search's distinct texts (28k chunks); m 24 with
 * ef_construction 200 gives 0.96 at ef_search 300 (ADR 0030).
 */
const HNSW_M = 24;
const HNSW_EF_CONSTRUCTION = 200;

/** The name of the partial HNSW index for one dimension (the suffix names its build). */
function hnswIndexName(dims: number): string {
  return `chunk_embeddings_hnsw_${dims}_m${HNSW_M}`;
}

/**
 * Creates the HNSW index for vectors of `dims` dimensions if it is missing, and drops the
 * one an earlier build (pgvector's default parameters, unsuffixed name) left. Vectors of
 * every model share one column with no fixed dimension, so each dimension gets its own
 * partial expression index (`embedding::vector(dims)` where `dims = …`), and queries repeat
 * that expression. Cosine distance, since OpenAI-style models return normalised vectors.
 */
export async function ensureHnswIndex(db: Db, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_INDEXED_DIMS) return;
  await db.execute(
    sql.raw(
      `create index if not exists ${hnswIndexName(dims)} on chunk_embeddings
       using hnsw ((embedding::vector(${dims})) vector_cosine_ops)
       with (m = ${HNSW_M}, ef_construction = ${HNSW_EF_CONSTRUCTION}) where dims = ${dims}`,
    ),
  );
  await db.execute(sql.raw(`drop index if exists chunk_embeddings_hnsw_${dims}`));
}

/**
 * Nearest chunks to `vector` by cosine similarity among the searchable chunks' embeddings
 * from `model`, through the HNSW index. `ef_search` is set for this transaction only.
 */
export async function denseCandidates(
  db: Db,
  model: string,
  vector: readonly number[],
  k: number,
  efSearch: number,
): Promise<DenseHit[]> {
  const dims = vector.length;
  const literal = vectorLiteral(vector);
  const cast = sql.raw(`::vector(${dims})`);
  return withTransaction(db, async (t) => {
    await t.execute(sql`select set_config('hnsw.ef_search', ${String(efSearch)}, true)`);
    const rows = await rowsOf<{ chunk_id: string | number; distance: number }>(
      t,
      sql`select chunk_id::int8 as chunk_id,
                 (embedding${cast} <=> ${literal}${cast}) as distance
          from chunk_embeddings
          where dims = ${dims} and model = ${model}
          order by embedding${cast} <=> ${literal}${cast}
          limit ${k}`,
    );
    return rows.map((r) => ({ chunkId: Number(r.chunk_id), similarity: 1 - Number(r.distance) }));
  });
}
