/** @module A server's life as the app sees it: serving or draining, and requests in flight. */

/** Work a server does after it listens (search index, sample papers): where it stands. */
type StartupState = "starting" | "ok" | "failing";

export interface Lifecycle {
  /** True once shutdown began: /readyz answers 503 and responses close their connection. */
  readonly draining: boolean;
  /** "starting" while start-up work after listen runs: /readyz answers 503 until "ok". */
  readonly startup: StartupState;
  /** Start-up work finished (`ok`) or failed. */
  startupDone(ok: boolean): void;
  /** Requests whose handler has not returned yet. */
  readonly inFlight: number;
  startDrain(): void;
  requestStarted(): void;
  requestFinished(): void;
  /** Resolves when no handler is running (at once if none is). */
  idle(): Promise<void>;
}

/** A server's lifecycle; `starting` when it has start-up work to finish after listening. */
export function createLifecycle(options: { starting?: boolean } = {}): Lifecycle {
  let startup: StartupState = options.starting ? "starting" : "ok";
  let draining = false;
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight;
    },
    get startup() {
      return startup;
    },
    startupDone(ok) {
      startup = ok ? "ok" : "failing";
    },
    startDrain() {
      draining = true;
    },
    requestStarted() {
      inFlight++;
    },
    requestFinished() {
      inFlight--;
      if (inFlight === 0) {
        const done = waiters;
        waiters = [];
        for (const resolve of done) resolve();
      }
    },
    idle() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
