/** @module The built-in sparse channel: IDF-weighted similarity of words, bigrams and character 4-grams. */
import type { Db } from "../../db/client.ts";
import { preparedRows, type Statement } from "../../db/sql.ts";
import { countFeatures, toSparsevec } from "./grams.ts";

/** Document frequencies of the query's features (a hot statement: prepared on PostgreSQL). */
const GRAM_DF: Statement = {
  name: "search_gram_df",
  text: "select gram, df from search_grams where gram = any($1::int4[])",
};

/**
 * The query's feature vector (character 4-grams of `query`, words and bigrams of its
 * `lexemes`), weighted (1 + ln tf) × idf². Stored chunk vectors carry no IDF
 * (unit log-TF), so both IDF factors of a TF-IDF dot product sit on the query side and are
 * computed from the document frequencies at query time: scores never go stale. Grams no
 * searchable chunk contains are dropped. Returns null when nothing is left to match.
 */
export async function queryGramVector(
  db: Db,
  query: string,
  lexemes: readonly string[],
  chunks: number,
): Promise<string | null> {
  const counts = countFeatures(query, lexemes);
  if (counts.size === 0 || chunks === 0) return null;
  const rows = await preparedRows<{ gram: number; df: number }>(db, GRAM_DF, [[...counts.keys()]]);
  const weights = new Map<number, number>();
  for (const row of rows) {
    const df = Number(row.df);
    if (df <= 0) continue;
    const idf = Math.log((chunks + 1) / (df + 1)) + 1;
    weights.set(Number(row.gram), (1 + Math.log(counts.get(Number(row.gram)) ?? 1)) * idf * idf);
  }
  return weights.size > 0 ? toSparsevec(weights) : null;
}
