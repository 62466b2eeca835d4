/**
 * @module Database plumbing every service domain shares: a typed transaction, raw-query rows
 * and array parameters that behave the same on PGlite and node-postgres, the `search_meta`
 * key/value store, and unique-violation detection.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/**
 * Runs `work` in one transaction; `tx` is the same `Db` type services use everywhere, so a
 * helper written for `ctx.db` runs inside the transaction unchanged. A throw rolls it back.
 */
export function withTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx));
}

/** Rows of a raw query on either engine (PGlite and node-postgres both return `rows`). */
export async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

type ArrayType = "text" | "int4" | "int8";

/** A typed array parameter that works the same through node-postgres and PGlite. */
export function pgArray(values: readonly (string | number)[], type: ArrayType) {
  return sql`${sql.param(values)}::${sql.raw(type)}[]`;
}

/**
 * SQL: the pair of columns `(a, b)` is one of the given pairs (`as[i]`, `bs[i]`), sent as two
 * array parameters unnested side by side, so the statement is the same for any number of pairs
 * (a paper version's `(paper_id, version)`, a stream's `(agent_id, session_id)`).
 */
export function pairIn(
  [a, b]: readonly [SQLWrapper, SQLWrapper],
  [as, aType]: readonly [readonly (string | number)[], ArrayType],
  [bs, bType]: readonly [readonly (string | number)[], ArrayType],
): SQL {
  return sql`(${a}, ${b}) in (select * from unnest(${pgArray(as, aType)}, ${pgArray(bs, bType)}))`;
}

/**
 * Statements a list-shaped read of one request is split into on a PostgreSQL pool, each on a
 * connection (and so a core) of its own: the machine this was measured on has two (ADR 0037).
 */
const READ_PARTS = 2;

/**
 * `read` over `values` cut into contiguous parts, run at once on a node-postgres pool (each
 * part a statement of its own), as one statement on PGlite (one connection: parts would only
 * queue) and inside a transaction (no pool); the parts' rows concatenated in part order.
 */
export async function readInParts<T, R>(
  db: Db,
  values: readonly T[],
  read: (part: T[]) => Promise<R[]>,
): Promise<R[]> {
  const parts = driverOf(db)?.kind === "postgres" ? READ_PARTS : 1;
  return (await Promise.all(slices(values, parts).map(read))).flat();
}

/** `values` cut into at most `parts` contiguous slices of near-equal length (none empty). */
export function slices<T>(values: readonly T[], parts: number): T[][] {
  const n = Math.max(1, Math.min(parts, values.length));
  const out: T[][] = [];
  for (let k = 0; k < n; k++) {
    out.push(
      values.slice(Math.floor((k * values.length) / n), Math.floor(((k + 1) * values.length) / n)),
    );
  }
  return out;
}

/** A value of the `search_meta` key/value table, or undefined when the key is not set. */
export async function getMeta<T>(db: Db, key: string): Promise<T | undefined> {
  const rows = await rowsOf<{ value: T }>(
    db,
    sql`select value from search_meta where key = ${key}`,
  );
  return rows[0]?.value;
}

/** Sets (inserts or replaces) a `search_meta` value. */
export async function setMeta(db: Db, key: string, value: unknown): Promise<void> {
  await db.execute(
    sql`insert into search_meta (key, value, updated_at) values (${key}, ${JSON.stringify(value)}::jsonb, now())
        on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`,
  );
}

/** An error and its causes, outermost first: drivers and drizzle wrap PostgreSQL's error. */
function* causesOf(error: unknown): Generator<{ code?: unknown; constraint?: unknown }> {
  const seen = new Set<unknown>();
  let e: unknown = error;
  while (e && typeof e === "object" && !seen.has(e)) {
    seen.add(e);
    yield e as { code?: unknown; constraint?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** PostgreSQL unique_violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (const e of causesOf(error)) if (e.code === "23505") return true;
  return false;
}

/** The constraint a failed statement names (e.g. which unique index), when the driver says. */
export function violatedConstraint(error: unknown): string | undefined {
  for (const e of causesOf(error)) if (typeof e.constraint === "string") return e.constraint;
  return undefined;
}

/** A statement written in SQL with `$n` parameters, prepared by name on PostgreSQL. */
export interface Statement {
  /** Unique per text: PostgreSQL keeps one plan per name and connection. */
  name: string;
  text: string;
}

interface PgLikeClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface PgliteLikeClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
  dumpDataDir: unknown;
}

/**
 * The driver client under `db`: PGlite's (it can dump its data directory) or a node-postgres
 * pool; null inside a transaction, which has no client of its own.
 */
function driverOf(
  db: Db,
):
  | { kind: "pglite"; client: PgliteLikeClient }
  | { kind: "postgres"; client: PgLikeClient }
  | null {
  const client = (db as unknown as { $client?: PgLikeClient | PgliteLikeClient }).$client;
  if (!client) return null;
  return "dumpDataDir" in client
    ? { kind: "pglite", client }
    : { kind: "postgres", client: client as PgLikeClient };
}

/**
 * Rows of a hot read, with no query building per call: on PostgreSQL a named prepared
 * statement (node-postgres parses it once per connection, then only binds and executes), on
 * PGlite the same text through its own extended protocol. A transaction (which has no driver
 * client of its own) runs the same text through Drizzle, parameters bound as usual.
 * Values arrive as the driver parses them; hot reads cast timestamps to text, so both
 * engines hand back the very strings Drizzle's timestamp columns turn into Dates.
 */
export async function preparedRows<T>(
  db: Db,
  statement: Statement,
  values: unknown[],
): Promise<T[]> {
  const driver = driverOf(db);
  if (driver?.kind === "pglite") {
    return (await driver.client.query(statement.text, values)).rows as T[];
  }
  if (driver) {
    const { name, text } = statement;
    return (await driver.client.query({ name, text, values })).rows as T[];
  }
  const parts = statement.text.split(/\$(\d+)/);
  const query = sql.join(
    parts.map((part, i) => (i % 2 === 1 ? sql`${values[Number(part) - 1]}` : sql.raw(part))),
  );
  return rowsOf<T>(db, query);
}

interface PgPoolLike {
  connect(): Promise<{
    query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
    release(destroy?: boolean): void;
  }>;
}

/** Locks this process holds, per driver client: one process never runs two holders at once. */
const heldHere = new WeakMap<object, Set<number>>();

/**
 * Runs `work` only if no one else holds the advisory lock `key`, and answers whether it ran.
 * On PostgreSQL the lock is a session lock (`pg_try_advisory_lock`) on a pool connection set
 * aside for the whole of `work`, so `work` may commit as often as it likes on the rest of the
 * pool while other instances on the same database find the lock taken and skip; a lost
 * connection releases it. PGlite has one process per data directory (its pid file), so there
 * the lock is this process's own. Never inside a transaction (which has no client to hold it).
 */
export async function withTryAdvisoryLock<T>(
  db: Db,
  key: number,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const driver = driverOf(db);
  if (!driver) throw new Error("withTryAdvisoryLock needs the database, not a transaction");
  const held = heldHere.get(driver.client) ?? new Set<number>();
  heldHere.set(driver.client, held);
  if (held.has(key)) return { ran: false };
  held.add(key);
  try {
    if (driver.kind === "pglite") return { ran: true, value: await work() };
    const session = await (driver.client as unknown as PgPoolLike).connect();
    // A connection that failed a lock statement is closed, not reused: closing it ends its
    // session, and with it any lock it holds.
    let broken = false;
    try {
      const { rows } = await session
        .query("select pg_try_advisory_lock($1) as ok", [key])
        .catch((error: unknown) => {
          broken = true;
          throw error;
        });
      if ((rows[0] as { ok?: boolean } | undefined)?.ok !== true) return { ran: false };
      try {
        return { ran: true, value: await work() };
      } finally {
        await session.query("select pg_advisory_unlock($1)", [key]).catch(() => {
          broken = true;
        });
      }
    } finally {
      session.release(broken);
    }
  } finally {
    held.delete(key);
  }
}
