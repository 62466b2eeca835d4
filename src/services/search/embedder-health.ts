/** @module The embedding backend's recent outcomes, for readiness and metrics, at no extra cost. */
import { type Embedder, EmbedderError } from "./embedder.ts";

export interface EmbedderHealth {
  /** `unknown` until the first call; then `ok` or `failing` by the latest call's outcome. */
  status: "unknown" | "ok" | "failing";
  consecutive_failures: number;
  last_success_at?: string;
  last_failure_at?: string;
  /** The latest failure's message (the embedder's own wording; never a key or a URL). */
  last_error?: string;
}

export interface WatchOptions {
  /** Told about every finished call: its duration and whether it succeeded. */
  onCall?: (seconds: number, ok: boolean) => void;
  now?: () => Date;
}

/**
 * The same embedder, remembering how its calls went. Readiness reads this instead of calling
 * the backend on every probe (a probe every few seconds would cost tokens and load a backend
 * that may be the very thing in trouble). A call abandoned by its caller (a stopping worker)
 * is not an outcome. The latest outcome decides, and one call already includes the
 * embedder's retries, so `failing` means the backend failed repeatedly just now.
 */
export function watchEmbedder(embedder: Embedder, options: WatchOptions = {}): Embedder {
  const now = options.now ?? (() => new Date());
  const health: EmbedderHealth = { status: "unknown", consecutive_failures: 0 };
  return {
    model: embedder.model,
    batchSize: embedder.batchSize,
    queryTimeoutMs: embedder.queryTimeoutMs,
    async embed(texts, opts) {
      const started = performance.now();
      try {
        const vectors = await embedder.embed(texts, opts);
        health.status = "ok";
        health.consecutive_failures = 0;
        health.last_success_at = now().toISOString();
        options.onCall?.((performance.now() - started) / 1000, true);
        return vectors;
      } catch (error) {
        if (!opts?.signal?.aborted) {
          health.status = "failing";
          health.consecutive_failures++;
          health.last_failure_at = now().toISOString();
          health.last_error =
            error instanceof EmbedderError ? error.message : "unexpected embedder failure";
          options.onCall?.((performance.now() - started) / 1000, false);
        }
        throw error;
      }
    },
    health: () => ({ ...health }),
  };
}
