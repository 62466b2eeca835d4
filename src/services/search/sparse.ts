/** @module The built-in sparse channel: IDF-weighted similarity of words, bigrams and character 4-grams. */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pgArray, rowsOf } from "../../db/sql.ts";
import {
  countGrams,
  countLexemes,
  countWantedGrams,
  GramSet,
  storedWeight,
  toSparsevec,
} from "./grams.ts";

/**
 * A query's weighted features: words and bigrams as a sparse vector the database multiplies
 * with the chunks' stored ones, character 4-grams as strings counted in the candidates' text.
 */
export interface QueryFeatures {
  /** pgvector text form of the word and bigram weights, or null when none is left. */
  words: string | null;
  /** Character 4-gram id → weight, and the same ids as a set to scan texts with. */
  grams: Map<number, number>;
  gramSet: GramSet;
}

/**
 * The query's features (character 4-grams of `query`, words and bigrams of its `lexemes`),
 * weighted (1 + ln tf) × idf². Stored chunk vectors carry no IDF (unit log-TF), so both
 * IDF factors of a TF-IDF dot product sit on the query side and are computed from the
 * document frequencies at query time: scores never go stale. Features no searchable chunk
 * contains are dropped. Returns null when nothing is left to match.
 */
export async function queryFeatures(
  db: Db,
  query: string,
  lexemes: readonly string[],
  chunks: number,
): Promise<QueryFeatures | null> {
  const words = countLexemes(lexemes);
  const gramCounts = countGrams(query);
  const ids = [...new Set([...words.keys(), ...gramCounts.keys()])];
  if (ids.length === 0 || chunks === 0) return null;
  const rows = await rowsOf<{ gram: number; df: number }>(
    db,
    sql`select gram, df from search_grams where gram = any(${pgArray(ids, "int4")})`,
  );
  const idf = new Map<number, number>();
  for (const row of rows) {
    const df = Number(row.df);
    if (df > 0) idf.set(Number(row.gram), Math.log((chunks + 1) / (df + 1)) + 1);
  }
  const weigh = (tf: number, id: number) => (1 + Math.log(tf)) * idf.get(id)! ** 2;
  const wordWeights = new Map<number, number>();
  for (const [id, tf] of words) if (idf.has(id)) wordWeights.set(id, weigh(tf, id));
  const grams = new Map<number, number>();
  for (const [id, tf] of gramCounts) if (idf.has(id)) grams.set(id, weigh(tf, id));
  if (wordWeights.size === 0 && grams.size === 0) return null;
  return {
    words: wordWeights.size > 0 ? toSparsevec(wordWeights) : null,
    grams,
    gramSet: new GramSet(grams.keys()),
  };
}

/**
 * The character-gram part of each candidate's sparse score: the query's grams counted in the
 * chunk's text and its paper's title (as indexing counts them), weighted as the stored
 * vector would weigh them (`storedWeight` with the chunk's stored norm).
 */
export function gramScore(
  { grams, gramSet }: Pick<QueryFeatures, "grams" | "gramSet">,
  text: { content: string; title: string; norm: number },
): number {
  if (grams.size === 0) return 0;
  const counts = countWantedGrams(
    text.title,
    gramSet,
    countWantedGrams(text.content, gramSet, new Map()),
  );
  let score = 0;
  for (const [id, tf] of counts) score += grams.get(id)! * storedWeight(tf, text.norm);
  return score;
}
