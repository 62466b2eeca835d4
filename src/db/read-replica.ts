/** @module A PostgreSQL read replica behind a pool that falls back to the primary while it is down. */
import type pg from "pg";

/** What the outage log lines need: pino's `warn` and `info` (any logger with them). */
export interface ReplicaLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export interface ReplicaPoolOptions {
  /** How long the replica is left alone after it failed (default 5 s). */
  backoffMs?: number;
  logger?: ReplicaLogger;
  /** Milliseconds since some epoch; tests may move it. */
  now?: () => number;
}

/** What /readyz or a metric may report about the replica. */
export interface ReplicaHealth {
  /** False from a failure until the next query that reaches the replica again. */
  healthy: boolean;
  /** Queries answered by the primary because the replica could not be used. */
  fallbacks: number;
}

/**
 * SQLSTATEs that mean "this server cannot answer now", not "this query is wrong": the whole
 * class 08 (connection exception), the server shutting down or starting up (57P01–57P03), and
 * a standby cancelling a query that conflicts with replay (40001 on a read-only standby is
 * only ever that; the primary has no such conflict).
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03"]);
/** Socket-level failures, from Node or from pg's own connection handling. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed/i;

/** True when `error` says the replica could not answer, so the primary should be asked. */
export function isReplicaUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code.startsWith("08") || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_CODES.has(code)) {
      return true;
    }
  }
  if (error instanceof AggregateError) return error.errors.some(isReplicaUnavailable);
  return UNAVAILABLE_MESSAGES.test(error.message);
}

/** A standby cancelled the query because replay needed its rows: the primary can answer it. */
function isRecoveryConflict(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "40001";
}

type QueryArgs = Parameters<pg.Pool["query"]>;

/**
 * Quacks like `pg.Pool` for Drizzle (`query`, `connect`, `end`; the class name contains
 * "Pool", which is how Drizzle's node-postgres session recognises a pool for transactions).
 * Every query goes to the replica while it is healthy. A query that fails because the replica
 * is unreachable, shutting down or starting up is sent to the primary instead, and the replica
 * is left alone for `backoffMs`: reads are idempotent, so asking again elsewhere is safe. The
 * log says so once when an outage starts and once when the replica answers again, never per
 * query. A transaction (`connect`) that cannot get a replica connection gets a primary one; a
 * transaction that loses its connection midway fails as it would on one server.
 */
export class ReplicaPool {
  readonly #replica: pg.Pool;
  readonly #primary: pg.Pool;
  readonly #backoffMs: number;
  readonly #logger: ReplicaLogger | undefined;
  readonly #now: () => number;
  #downUntil = 0;
  #down = false;
  #fallbacks = 0;

  constructor(replica: pg.Pool, primary: pg.Pool, options: ReplicaPoolOptions = {}) {
    this.#replica = replica;
    this.#primary = primary;
    this.#backoffMs = options.backoffMs ?? 5_000;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
  }

  health(): ReplicaHealth {
    return { healthy: !this.#down, fallbacks: this.#fallbacks };
  }

  query(...args: QueryArgs): Promise<pg.QueryResult> {
    return this.#route(
      () => (this.#replica.query as (...a: QueryArgs) => Promise<pg.QueryResult>)(...args),
      () => (this.#primary.query as (...a: QueryArgs) => Promise<pg.QueryResult>)(...args),
    );
  }

  connect(): Promise<pg.PoolClient> {
    return this.#route(
      () => this.#replica.connect(),
      () => this.#primary.connect(),
    );
  }

  /** Ends the replica's connections only: the primary's pool belongs to its own Database. */
  end(): Promise<void> {
    return this.#replica.end();
  }

  async #route<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    if (this.#now() < this.#downUntil) {
      this.#fallbacks++;
      return onPrimary();
    }
    let result: T;
    try {
      result = await onReplica();
    } catch (error) {
      if (isRecoveryConflict(error)) {
        this.#fallbacks++;
        return onPrimary();
      }
      if (!isReplicaUnavailable(error)) throw error;
      this.#markDown(error);
      this.#fallbacks++;
      return onPrimary();
    }
    if (this.#down) {
      this.#down = false;
      this.#logger?.info(
        { fallbacks: this.#fallbacks },
        "read replica answers again; public reads use it",
      );
    }
    return result;
  }

  #markDown(error: unknown): void {
    this.#downUntil = this.#now() + this.#backoffMs;
    if (this.#down) return;
    this.#down = true;
    const { code, message } = error as { code?: unknown; message?: unknown };
    this.#logger?.warn(
      { err: { code, message }, backoff_ms: this.#backoffMs },
      "read replica unavailable; reading from the primary until it answers again",
    );
  }
}
