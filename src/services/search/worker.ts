/** @module The embedding worker: drains embedding_queue in batches, with leases and retries. */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { getMeta, pgArray, rowsOf, setMeta, withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { ensureHnswIndex, vectorLiteral } from "./dense.ts";
import { type Embedder, EmbedderError } from "./embedder.ts";
import { enqueueEmbeddings, indexedTextSql } from "./indexing.ts";

/** A claimed item is invisible to other workers this long; a crashed worker's claims expire. */
const LEASE_SECONDS = 300;

export interface BatchOutcome {
  claimed: number;
  embedded: number;
  /** Queue entries whose chunk is no longer searchable (a newer version, withdrawn). */
  dropped: number;
  failed: number;
  /** Claimed entries handed back unworked (the worker was stopping): due again at once. */
  released?: number;
  error?: string;
}

/**
 * Claims up to one batch of due queue entries, embeds their text and stores the vectors.
 * Claiming is a short committed UPDATE (a lease, `for update skip locked`), so no database
 * transaction stays open while the embedder works: on PGlite that would block every other
 * query, on PostgreSQL it would pin a connection. Success stores vectors and dequeues in one
 * transaction; failure records the error and schedules a retry with backoff. A vector is
 * never stored half-done: the whole batch's answer is validated first. When `signal` aborts
 * (the server is stopping), the backend call is abandoned and the claims are released, not
 * failed: the entries are due again at once with their attempt uncounted, so another
 * instance (or this one after a restart) takes them instead of waiting out the lease.
 */
export async function embedNextBatch(
  ctx: ServiceContext,
  embedder: Embedder,
  options: { signal?: AbortSignal } = {},
): Promise<BatchOutcome> {
  const claimed = await rowsOf<{ chunk_id: string | number; attempts: number }>(
    ctx.db,
    sql`update embedding_queue q
        set not_before = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = q.attempts + 1
        where q.chunk_id in (
          select chunk_id from embedding_queue where not_before <= now()
          order by not_before, chunk_id limit ${embedder.batchSize}
          for update skip locked)
        returning q.chunk_id::int8 as chunk_id, q.attempts`,
  );
  if (claimed.length === 0) return { claimed: 0, embedded: 0, dropped: 0, failed: 0 };
  const ids = claimed.map((c) => Number(c.chunk_id));
  const texts = await rowsOf<{
    chunk_id: string | number;
    field: string;
    content: string;
    title: string;
  }>(
    ctx.db,
    sql`select s.chunk_id::int8 as chunk_id, c.field, ${indexedTextSql()} as content, pv.title
        from search_chunks s
        join chunks c on c.id = s.chunk_id
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        where s.chunk_id = any(${pgArray(ids, "int8")})
        order by s.chunk_id`,
  );
  const live = new Set(texts.map((t) => Number(t.chunk_id)));
  const stale = ids.filter((id) => !live.has(id));
  if (stale.length > 0) {
    await ctx.db.execute(
      sql`delete from embedding_queue where chunk_id = any(${pgArray(stale, "int8")})`,
    );
  }
  if (texts.length === 0)
    return { claimed: ids.length, embedded: 0, dropped: stale.length, failed: 0 };

  let vectors: number[][];
  try {
    if (options.signal?.aborted) throw new EmbedderError("The worker is stopping.", false);
    vectors = await embedder.embed(
      texts.map(embeddingText),
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    if (options.signal?.aborted) {
      const live = texts.map((t) => Number(t.chunk_id));
      await releaseClaims(ctx.db, live);
      return {
        claimed: ids.length,
        embedded: 0,
        dropped: stale.length,
        failed: 0,
        released: live.length,
      };
    }
    const message = error instanceof EmbedderError ? error.message : "unexpected embedder failure";
    if (!(error instanceof EmbedderError)) ctx.logger.error({ err: error }, "embedding worker");
    const failedIds = texts.map((t) => Number(t.chunk_id));
    await ctx.db.execute(
      sql`update embedding_queue
          set not_before = now() + make_interval(secs => least(600, 5 * power(2, greatest(attempts - 1, 0)))),
              last_error = ${message}
          where chunk_id = any(${pgArray(failedIds, "int8")})`,
    );
    return {
      claimed: ids.length,
      embedded: 0,
      dropped: stale.length,
      failed: failedIds.length,
      error: message,
    };
  }
  const dims = vectors[0]?.length ?? 0;
  await withTransaction(ctx.db, async (db) => {
    const rows = texts.map(
      (t, i) =>
        sql`(${Number(t.chunk_id)}::int8, ${embedder.model}::text, ${dims}::int4, ${vectorLiteral(vectors[i]!)}::vector)`,
    );
    await db.execute(
      sql`insert into chunk_embeddings (chunk_id, model, dims, embedding)
          select x.chunk_id, x.model, x.dims, x.embedding
          from (values ${sql.join(rows, sql`, `)}) as x(chunk_id, model, dims, embedding)
          where exists (select 1 from search_chunks s where s.chunk_id = x.chunk_id)
          on conflict (chunk_id) do update
            set model = excluded.model, dims = excluded.dims, embedding = excluded.embedding,
                created_at = now()`,
    );
    await db.execute(
      sql`delete from embedding_queue where chunk_id = any(${pgArray(
        texts.map((t) => Number(t.chunk_id)),
        "int8",
      )})`,
    );
  });
  await rememberDims(ctx.db, embedder.model, dims);
  return { claimed: ids.length, embedded: texts.length, dropped: stale.length, failed: 0 };
}

/** Makes claimed entries due now, as if never claimed. */
async function releaseClaims(db: Db, ids: number[]): Promise<void> {
  await db.execute(
    sql`update embedding_queue set not_before = now(), attempts = greatest(attempts - 1, 0)
        where chunk_id = any(${pgArray(ids, "int8")})`,
  );
}

/**
 * A chunk is embedded with its paper's title for context, as BM25 sees it (a body chunk with
 * its captions blanked out: they are embedded as caption chunks).
 */
function embeddingText(t: { field: string; content: string; title: string }): string {
  return t.field === "title" ? t.content : `${t.title}\n\n${t.content}`;
}

const knownDims = new Map<string, number>();

/** Records the model's dimension once and makes sure its HNSW index exists. */
async function rememberDims(db: Db, model: string, dims: number): Promise<void> {
  if (knownDims.get(model) === dims) return;
  await ensureHnswIndex(db, dims);
  const meta = await getMeta<{ model: string; dims?: number }>(db, "embedding_model");
  if (meta?.model === model && meta.dims !== dims)
    await setMeta(db, "embedding_model", { model, dims });
  knownDims.set(model, dims);
}

export interface DrainOptions {
  onProgress?: (done: number, remaining: number) => void;
  /** Give up after this many consecutive failed batches (default 3). */
  maxFailures?: number;
}

/**
 * Embeds queued chunks until the queue is empty, for `quire reindex` and the evaluation.
 * Stops after consecutive failures so the command can report and exit; everything stored
 * so far stays, and a rerun continues where this one stopped.
 */
export async function drainEmbeddingQueue(
  ctx: ServiceContext,
  options: DrainOptions = {},
): Promise<number> {
  const embedder = ctx.embedder;
  if (!embedder) return 0;
  await ctx.db.execute(sql`update embedding_queue set not_before = now() where not_before > now()`);
  let done = 0;
  let failures = 0;
  for (;;) {
    const outcome = await embedNextBatch(ctx, embedder);
    if (outcome.claimed === 0) break;
    done += outcome.embedded;
    if (outcome.failed > 0) {
      failures++;
      if (failures >= (options.maxFailures ?? 3)) {
        throw new EmbedderError(outcome.error ?? "The embedding backend failed.", true);
      }
      await ctx.db.execute(
        sql`update embedding_queue set not_before = now() where not_before > now()`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000 * failures));
      continue;
    }
    failures = 0;
    options.onProgress?.(done, await queueLength(ctx.db));
  }
  return done;
}

/** Queues every searchable chunk lacking a vector from the configured model; returns the queue length. */
export async function queueMissingEmbeddings(ctx: ServiceContext): Promise<number> {
  if (ctx.embedder) await enqueueEmbeddings(ctx.db, { model: ctx.embedder.model });
  return queueLength(ctx.db);
}

/** Depth of the queue and how many entries wait for a retry after a failure (for metrics). */
export async function queueStats(db: Db): Promise<{ depth: number; retrying: number }> {
  const rows = await rowsOf<{ depth: number; retrying: number }>(
    db,
    sql`select count(*)::int as depth, count(*) filter (where last_error is not null)::int as retrying
        from embedding_queue`,
  );
  return { depth: Number(rows[0]?.depth ?? 0), retrying: Number(rows[0]?.retrying ?? 0) };
}

async function queueLength(db: Db): Promise<number> {
  const rows = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from embedding_queue`);
  return Number(rows[0]?.n ?? 0);
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * The in-process worker of a server: embeds batches while work is due, then polls every
 * `idleMs`. Failures are logged and retried by the queue's backoff; the worker itself never
 * throws. `stop()` abandons the backend call in progress and hands its claims back (see
 * `embedNextBatch`), so stopping takes one short query, not a backend timeout, and the work
 * is not stuck behind a lease for five minutes.
 */
export function startEmbeddingWorker(
  ctx: ServiceContext,
  options: { idleMs?: number; onBatch?: (outcome: BatchOutcome) => void } = {},
): RunningWorker {
  const embedder = ctx.embedder;
  if (!embedder) return { stop: async () => {} };
  const idleMs = options.idleMs ?? 2000;
  const abort = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        const outcome = await embedNextBatch(ctx, embedder, { signal: abort.signal });
        options.onBatch?.(outcome);
        busy = outcome.claimed > 0 && outcome.failed === 0;
        if (outcome.released) {
          ctx.logger.info(
            { released: outcome.released },
            "embedding worker handed back its claims",
          );
        }
        if (outcome.failed > 0) {
          ctx.logger.warn(
            { failed: outcome.failed, error: outcome.error },
            "embedding batch failed; will retry",
          );
        }
      } catch (error) {
        ctx.logger.error({ err: error }, "embedding worker");
      }
      if (busy || stopped) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, idleMs);
        timer.unref?.();
      });
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      abort.abort();
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
