/** @module The dense channel's storage: vectors per model in chunk_embeddings, HNSW per dimension. */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf, withTransaction } from "../../db/sql.ts";
import { Unavailable } from "../errors.ts";

/** pgvector's HNSW limit for `vector`. */
export const MAX_INDEXED_DIMS = 2000;

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

/** The name of the partial HNSW index for one dimension. */
function hnswIndexName(dims: number): string {
  return `chunk_embeddings_hnsw_${dims}`;
}

/**
 * Creates the HNSW index for vectors of `dims` dimensions if it is missing. Vectors of every
 * model share one column with no fixed dimension, so each dimension gets its own partial
 * expression index (`embedding::vector(dims)` where `dims = …`), and queries repeat that
 * expression. Cosine distance, since OpenAI-style models return normalised vectors.
 */
export async function ensureHnswIndex(db: Db, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_INDEXED_DIMS) return;
  await db.execute(
    sql.raw(
      `create index if not exists ${hnswIndexName(dims)} on chunk_embeddings
       using hnsw ((embedding::vector(${dims})) vector_cosine_ops) where dims = ${dims}`,
    ),
  );
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
