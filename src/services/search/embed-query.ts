/** @module Embedding a search query: a short budget, and a 503 when the backend fails. */
import { backendUnavailable, type Embedder, EmbedderError } from "./embedder.ts";

/**
 * Embeds one query. Readers are waiting, so the budget is short (one retry, the embedder's
 * query timeout per try, 5 s by default);
 * any failure becomes `Unavailable` (503), never a 500, and is logged by the caller's
 * front end only as a domain error, since the cause is the backend, not us.
 */
export async function embedQuery(embedder: Embedder, query: string): Promise<number[]> {
  try {
    const [vector] = await embedder.embed([query], {
      retries: 1,
      timeoutMs: embedder.queryTimeoutMs,
    });
    if (!vector) throw backendUnavailable();
    return vector;
  } catch (error) {
    if (error instanceof EmbedderError) throw backendUnavailable();
    throw error;
  }
}
