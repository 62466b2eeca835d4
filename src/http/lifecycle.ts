/** @module A server's life as the app sees it: serving or draining, and requests in flight. */

export interface Lifecycle {
  /** True once shutdown began: /readyz answers 503 and responses close their connection. */
  readonly draining: boolean;
  /** Requests whose handler has not returned yet. */
  readonly inFlight: number;
  startDrain(): void;
  requestStarted(): void;
  requestFinished(): void;
  /** Resolves when no handler is running (at once if none is). */
  idle(): Promise<void>;
}

export function createLifecycle(): Lifecycle {
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
