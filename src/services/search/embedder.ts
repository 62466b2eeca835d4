/** @module The dense embedding backend: an OpenAI-compatible `/embeddings` client. */
import { Unavailable } from "../errors.ts";
import type { EmbedderHealth } from "./embedder-health.ts";

/** What search and indexing need from an embedding model. */
export interface Embedder {
  /** The model id, stored beside every vector so a change of model is noticed. */
  readonly model: string;
  /** Texts per request when embedding many. */
  readonly batchSize: number;
  /** Per-attempt timeout for a search query's embedding (someone is waiting). */
  readonly queryTimeoutMs: number;
  /**
   * One vector per input text, in order. Throws `EmbedderError` when the backend cannot be
   * reached, times out or answers something that is not a list of equal-length vectors.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
  /** Recent outcomes, when the embedder is watched (see embedder-health.ts). */
  health?(): EmbedderHealth;
}

interface EmbedOptions {
  /** Attempts after the first; defaults to the embedder's own setting. */
  retries?: number;
  /** Per-attempt timeout in milliseconds; defaults to the embedder's own setting. */
  timeoutMs?: number;
  /** Gives up at once (a stopping worker): the call rejects with an `EmbedderError`. */
  signal?: AbortSignal;
}

/** The backend failed; `retryable` is false for answers that retrying cannot fix (401, 400). */
export class EmbedderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "EmbedderError";
  }
}

export interface HttpEmbedderOptions {
  /** Base URL (`https://api.openai.com/v1`, `http://localhost:11434/v1`); `/embeddings` is appended. */
  url: string;
  model: string;
  apiKey?: string | undefined;
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  /** Per-attempt timeout for query embeddings (default: the smaller of timeoutMs and 5 s). */
  queryTimeoutMs?: number;
  /** Attempts after the first for retryable failures (default 3). */
  retries?: number;
  /** First backoff delay; doubles per attempt, with jitter (default 250 ms). */
  backoffMs?: number;
  batchSize?: number;
  fetch?: typeof fetch;
}

/**
 * An embedder for any server that speaks OpenAI's embeddings API (OpenAI, Ollama,
 * llama.cpp server, TEI, vLLM). Requests time out, retryable failures (network errors,
 * timeouts, 408/429/5xx) are retried with exponential backoff and jitter, `Retry-After` is
 * honoured up to the backoff cap, and answers are validated before use: a garbage answer
 * never reaches the database.
 */
export function createHttpEmbedder(options: HttpEmbedderOptions): Embedder {
  const endpoint = embeddingsEndpoint(options.url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 250;
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function attempt(
    texts: string[],
    timeout: number,
    stop: AbortSignal | undefined,
  ): Promise<number[][]> {
    let res: Response;
    const timer = AbortSignal.timeout(timeout);
    try {
      res = await doFetch(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: options.model, input: texts, encoding_format: "float" }),
        signal: stop ? AbortSignal.any([timer, stop]) : timer,
      });
    } catch (error) {
      if (stop?.aborted) throw new EmbedderError("The embedding call was abandoned.", false);
      const name = (error as Error).name;
      const what =
        name === "TimeoutError" || name === "AbortError"
          ? `timed out after ${timeout} ms`
          : "could not be reached";
      throw new EmbedderError(`The embedding backend ${what}.`, true);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
      const error = new EmbedderError(
        `The embedding backend answered HTTP ${res.status}.`,
        retryable,
      );
      (error as EmbedderError & { retryAfterMs?: number }).retryAfterMs = retryAfter(res);
      throw error;
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new EmbedderError("The embedding backend answered something that is not JSON.", true);
    }
    return parseEmbeddings(body, texts.length);
  }

  return {
    model: options.model,
    batchSize: options.batchSize ?? 64,
    queryTimeoutMs: options.queryTimeoutMs ?? Math.min(timeoutMs, 5_000),
    async embed(texts, opts = {}) {
      if (texts.length === 0) return [];
      const tries = 1 + (opts.retries ?? retries);
      let last: EmbedderError | undefined;
      for (let i = 0; i < tries; i++) {
        if (opts.signal?.aborted)
          throw new EmbedderError("The embedding call was abandoned.", false);
        try {
          return await attempt(texts, opts.timeoutMs ?? timeoutMs, opts.signal);
        } catch (error) {
          if (!(error instanceof EmbedderError)) throw error;
          last = error;
          if (!error.retryable || i === tries - 1) break;
          const cap = backoffMs * 2 ** i;
          const hinted = (error as EmbedderError & { retryAfterMs?: number }).retryAfterMs;
          const wait = Math.min(hinted ?? cap, cap * 4) * (0.5 + Math.random() / 2);
          await sleep(wait, opts.signal);
        }
      }
      throw last ?? new EmbedderError("The embedding backend failed.", true);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** `…/v1` → `…/v1/embeddings`; a URL already naming `/embeddings` is kept. */
export function embeddingsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return /\/embeddings$/.test(trimmed) ? trimmed : `${trimmed}/embeddings`;
}

function retryAfter(res: Response): number | undefined {
  const value = res.headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * Validates an OpenAI-style answer: `data` holds one entry per input, each with an `index`
 * and an `embedding` of finite numbers, all of one non-zero length. Ordered by `index`.
 */
export function parseEmbeddings(body: unknown, expected: number): number[][] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new EmbedderError(
      `The embedding backend answered ${Array.isArray(data) ? data.length : "no"} vectors for ${expected} texts.`,
      true,
    );
  }
  const out: number[][] = new Array(expected);
  let dims = -1;
  for (const [position, item] of data.entries()) {
    const entry = item as { index?: unknown; embedding?: unknown } | null;
    const index = typeof entry?.index === "number" ? entry.index : position;
    const vector = entry?.embedding;
    const valid =
      Number.isInteger(index) &&
      index >= 0 &&
      index < expected &&
      out[index] === undefined &&
      Array.isArray(vector) &&
      vector.length > 0 &&
      vector.every((x) => typeof x === "number" && Number.isFinite(x));
    if (!valid) throw new EmbedderError("The embedding backend answered a malformed vector.", true);
    const numbers = vector as number[];
    if (dims === -1) dims = numbers.length;
    if (numbers.length !== dims) {
      throw new EmbedderError("The embedding backend answered vectors of different lengths.", true);
    }
    out[index] = numbers;
  }
  return out;
}

/** The 503 a search answers when the configured backend fails a query embedding. */
export function backendUnavailable(): Unavailable {
  return new Unavailable(
    "The embedding backend is unavailable, so this search cannot run; retry later, or use mode=lexical meanwhile.",
    30,
  );
}
