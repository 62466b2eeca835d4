/** @module Column types shared by the tables: timestamptz, tsvector, dimension-free vectors. */
import { customType, timestamp } from "drizzle-orm/pg-core";

/** `timestamp with time zone`, read and written as a JS Date. */
export function timestamptz(name: string) {
  return timestamp(name, { withTimezone: true, mode: "date" });
}

/** A PostgreSQL tsvector; written only by generated columns, read only inside SQL. */
export const tsvector = customType<{ data: string }>({
  dataType: () => "tsvector",
});

/**
 * A pgvector `vector` without a fixed dimension: the model (and so the dimension) is
 * recorded per row, and HNSW indexes are built per dimension on an expression cast.
 */
export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => "vector",
  toDriver: (value) => `[${value.join(",")}]`,
  fromDriver: (value) => JSON.parse(value) as number[],
});
