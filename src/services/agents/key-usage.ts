/** @module Agent keys' last use, batched in memory and written at most every few seconds. */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../../db/client.ts";
import { agentKeys } from "../../db/schema/index.ts";

const KEY_USAGE_FLUSH_SECONDS = 30;

export interface KeyUsage {
  /** Notes a use; never touches the database. */
  record(keyId: string, at: Date): void;
  /** The latest use recorded here and not yet written, if any. */
  pending(keyId: string): Date | undefined;
  /** Writes every pending use now, in one statement. */
  flush(): Promise<void>;
  /** Stops the timer and flushes (process shutdown). */
  close(): Promise<void>;
}

/**
 * `last_used_at` without a write per request: uses collect in a map (one entry per key,
 * the latest time) and a single UPDATE writes them all, at most every `flushSeconds`, and
 * on close. The UPDATE never moves a time backwards, so instances flushing in any order
 * leave the latest use. A failed flush keeps its entries for the next one. At most
 * `flushSeconds` of uses are lost if the process dies without closing: it is a hint for
 * owners, not an audit log.
 */
export function createKeyUsage(options: {
  db: Db;
  logger: Logger;
  flushSeconds?: number;
}): KeyUsage {
  const intervalMs = (options.flushSeconds ?? KEY_USAGE_FLUSH_SECONDS) * 1000;
  let waiting = new Map<string, Date>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const merge = (keyId: string, at: Date) => {
    const seen = waiting.get(keyId);
    if (!seen || seen < at) waiting.set(keyId, at);
  };

  const write = async (batch: Map<string, Date>) => {
    if (batch.size === 0) return;
    const ids = [...batch.keys()];
    const times = ids.map((id) => (batch.get(id) as Date).toISOString());
    try {
      await options.db.execute(sql`
        update ${agentKeys} as k
        set last_used_at = greatest(coalesce(k.last_used_at, u.at), u.at)
        from unnest(${sql.param(ids)}::text[], ${sql.param(times)}::timestamptz[]) as u(id, at)
        where k.id = u.id`);
    } catch (error) {
      for (const [id, at] of batch) merge(id, at);
      options.logger.warn({ err: error, keys: ids.length }, "could not record agent key use");
    }
  };

  /** Takes the batch now (so uses after this call wait for the next flush) and writes it. */
  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const batch = waiting;
    waiting = new Map();
    running = running.then(() => write(batch));
    return running;
  };

  return {
    record(keyId, at) {
      merge(keyId, at);
      if (!timer && !closed) {
        timer = setTimeout(() => void flush(), intervalMs);
        timer.unref();
      }
    },
    pending: (keyId) => waiting.get(keyId),
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
