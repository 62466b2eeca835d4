/** @module The server's periodic prune: a timer that runs pruneStores, logs, never throws. */
import { type ServiceContext, withCaller } from "../context.ts";
import { type PruneReport, pruneStores } from "./prune.ts";

/** Past this share of its bound, a size-bounded store is logged as a warning at each prune. */
const NEAR_BOUND = 0.9;

/** The first run comes this long after start (or after one interval, if that is shorter). */
const FIRST_PRUNE_DELAY_MS = 60_000;

/** The timer functions the schedule uses; tests pass their own to run it step by step. */
export interface PruneTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const nodeTimers: PruneTimers = {
  set: (run, ms) => {
    const handle = setTimeout(run, ms);
    // The prune never keeps the process alive on its own.
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface PeriodicPrune {
  /** Runs a prune now (the timer's own runs call this), resolving with what it did. */
  runNow(): Promise<PruneReport | undefined>;
  /** No more runs; a run in progress stops after its current batch. Resolves once it has. */
  stop(): Promise<void>;
}

/**
 * Prunes every `intervalMs` (PRUNE_INTERVAL_SECONDS), the first time soon after start. Each
 * instance runs its own timer; the prune's advisory lock lets one of them work at a time, so
 * the others' runs are skipped, not doubled. A failed run is logged and the next one comes
 * as usual: pruning never takes the server down.
 */
export function startPeriodicPrune(
  ctx: ServiceContext,
  options: { intervalMs: number; firstDelayMs?: number; timers?: PruneTimers },
): PeriodicPrune {
  const timers = options.timers ?? nodeTimers;
  const operatorCtx = withCaller(ctx, { kind: "operator" });
  const abort = new AbortController();
  let handle: unknown;
  let running: Promise<PruneReport | undefined> | undefined;

  const schedule = (ms: number) => {
    if (abort.signal.aborted) return;
    handle = timers.set(() => {
      handle = undefined;
      void runNow().finally(() => schedule(options.intervalMs));
    }, ms);
  };

  const runNow = (): Promise<PruneReport | undefined> => {
    running ??= once().finally(() => {
      running = undefined;
    });
    return running;
  };

  const once = async (): Promise<PruneReport | undefined> => {
    const started = performance.now();
    try {
      const report = await pruneStores(operatorCtx, { signal: abort.signal });
      const ms = Math.round(performance.now() - started);
      if (report.outcome === "skipped") {
        ctx.logger.debug({ reason: report.reason }, "prune skipped");
      } else {
        const removed = Object.fromEntries(
          report.stores.filter((s) => s.rows > 0).map((s) => [s.store, s.rows]),
        );
        const failed = report.stores.filter((s) => s.error !== undefined).map((s) => s.store);
        const level = failed.length > 0 ? "warn" : report.rows > 0 ? "info" : "debug";
        ctx.logger[level](
          { removed, rows: report.rows, ms, ...(failed.length > 0 ? { failed } : {}) },
          "pruned the stores past retention",
        );
        for (const store of report.usage) {
          if (store.bytes >= NEAR_BOUND * store.maxBytes) {
            ctx.logger.warn(
              {
                store: store.store,
                rows: store.rows,
                bytes: store.bytes,
                max_bytes: store.maxBytes,
              },
              "a store is near its bound (FILES_MAX_MB for files)",
            );
          }
        }
      }
      return report;
    } catch (error) {
      ctx.logger.error({ err: error }, "prune failed; the next one runs as scheduled");
      return undefined;
    }
  };

  schedule(Math.min(options.firstDelayMs ?? FIRST_PRUNE_DELAY_MS, options.intervalMs));
  return {
    runNow,
    async stop() {
      abort.abort();
      if (handle !== undefined) timers.clear(handle);
      handle = undefined;
      await running;
    },
  };
}
