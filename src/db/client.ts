/** @module Database client: embedded PGlite (with pgvector) or PostgreSQL, one Drizzle API. */
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type pg from "pg";
import { fromRoot } from "../paths.ts";
import { migrationState } from "./migrations-state.ts";
import { type ReplicaHealth, type ReplicaLogger, ReplicaPool } from "./read-replica.ts";
import * as schema from "./schema/index.ts";
import { rowsOf } from "./sql.ts";
import { copyTemplate, freshTemplate } from "./template.ts";

type Schema = typeof schema;
/** The Drizzle database both engines satisfy; services only ever see this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /**
   * Where public reads go: a read replica (DATABASE_READ_URL) that falls back to the primary
   * while it is down, or `db` itself when there is none. Never for writes, nor for reads a
   * write depends on (see docs/adr/0011-read-replicas.md).
   */
  readDb: Db;
  /** The replica's health, when there is one. */
  replica?: () => ReplicaHealth;
  kind: "pglite" | "postgres";
  /** Human-readable location for logs (directory or URL without password). */
  location: string;
  /**
   * Runs `work` while no other process holds this database's startup lock. On PostgreSQL,
   * where several instances may start at once on one database, this is a session advisory
   * lock on a connection of its own (so `work` may use the whole pool); instances that start
   * together migrate, prepare and seed one after another instead of racing. PGlite has one
   * process per data directory already, so it just runs `work`.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** PGlite only: the whole data directory as a tarball (`loadDataDir` opens it again). */
  dumpDataDir?(): Promise<Blob>;
  /** Connections for metrics: node-postgres's pool counts; PGlite is one connection. */
  stats?(): { max: number; total: number; idle?: number; waiting?: number };
  /**
   * PGlite with a data directory only: copies the directory, as it is between two
   * transactions, into the new directory `into` (see openPglite). Absent on PostgreSQL,
   * whose own tools (pg_dump) do this.
   */
  snapshot?(into: string): Promise<void>;
  /**
   * Calls `handlers.notify` with the payload of every NOTIFY on `channel` that any process
   * commits on this database. On PostgreSQL this is a connection of its own: when it is lost,
   * `lost` is called and it reconnects every second, calling `ready` once it listens again
   * (notifications in between are gone). Resolves, listening, with the way to stop.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface ListenHandlers {
  notify(payload: string): void;
  lost?(): void;
  ready?(): void;
}

/** The channel every archive change is announced on (migration 0008's triggers). */
export const ARCHIVE_CHANNEL = "quire_archive";

/** The advisory-lock key of startup work (an arbitrary constant, per database). */
export const STARTUP_LOCK_KEY = 0x71756972; // "quir"

const migrationsFolder = fromRoot("src/db/migrations");

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded engine is used. */
  databaseUrl?: string | undefined;
  /** Directory for the embedded engine; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /** Run migrations before returning (default true). */
  migrate?: boolean;
  /**
   * Embedded engine only: start from this dumped data directory (PGlite's `dumpDataDir`)
   * instead of an empty one. Tests start each in-memory database from a migrated template.
   */
  loadDataDir?: Blob;
  /**
   * Embedded engine only: where to find the pre-initialised data directory copied into an
   * empty `dataDir` (src/db/template.ts; default dist/pgdata, which `npm ci` builds), or false
   * never to use one. Only a template built from this code's migrations and PGlite
   * is used; without one, PostgreSQL's initdb and the migrations run as before.
   */
  template?: string | false;
  /**
   * Embedded engine only: its buffer pool (shared_buffers) in MB; when absent, sized to the
   * database (`bufferPoolFor`). Every process that opens the runtime takes
   * PGLITE_SHARED_BUFFERS_MB.
   */
  sharedBuffersMb?: number | undefined;
  /** postgres:// URL of a streaming replica for public reads (PostgreSQL only). */
  readUrl?: string | undefined;
  /** How long a failed replica is left alone before it is tried again (default 5 s). */
  replicaBackoffMs?: number;
  /** Where the replica's outages are reported (once per outage). */
  logger?: ReplicaLogger;
}

/** A read replica was configured for the embedded engine, which has none. */
export class ReplicaNeedsPostgres extends Error {}

/**
 * Opens the database and brings its schema up to date. Migrations run on both engines
 * with Drizzle's own migrator; PGlite is opened with the pgvector extension first,
 * because drizzle-kit's migrate cannot load extensions into PGlite.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.readUrl && !options.databaseUrl) {
    throw new ReplicaNeedsPostgres(
      "A read replica (DATABASE_READ_URL) needs PostgreSQL (DATABASE_URL); the embedded engine has no replicas.",
    );
  }
  if (!options.databaseUrl) copyTemplateFor(options);
  const database = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.poolSize ?? 10, options)
    : await openPglite(options.dataDir ?? "memory://", options);
  try {
    // Drizzle's journal is the schema's fingerprint: when it already lists every bundled
    // migration, the migrator (DDL under the startup lock) is skipped; a start with nothing
    // to migrate pays one catalog query (docs/adr/0026-start-up.md).
    if (options.migrate !== false && (await migrationState(database.db)).pending.length > 0) {
      await database.exclusive(() => runMigrations(database));
    }
    // PGlite runs no autovacuum, so it never gathers planner statistics by itself; without
    // them the planner scans instead of using indexes.
    if (database.kind === "pglite") await analyzeDrifted(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** PGlite's own buffer pool, the largest `bufferPoolFor` chooses. */
const MAX_AUTO_POOL_MB = 128;
const MIN_AUTO_POOL_MB = 32;

/**
 * The buffer pool (MB) for an embedded database directory: the smallest power of two that
 * holds its relations (the files under `base/`), between 32 and 128 MB (PGlite's default).
 * PostgreSQL zeroes the whole pool at start, which in WebAssembly costs about 90 ms of a
 * warm start at 128 MB; a pool larger than the database only costs that. An archive past
 * 64 MB gets PGlite's 128 MB, where a smaller pool made reads slower (docs/adr/0026-start-up.md).
 */
export function bufferPoolFor(dataDir: string): number {
  let bytes = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Past the largest pool the size no longer matters: stop reading, at every depth.
      if (bytes > MAX_AUTO_POOL_MB * 2 ** 20) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) bytes += statSync(path).size;
    }
  };
  try {
    walk(join(dataDir, "base"));
  } catch (error) {
    // No database yet (initdb is about to make one): the smallest. Unreadable: PGlite's own.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? MIN_AUTO_POOL_MB : MAX_AUTO_POOL_MB;
  }
  let pool = MIN_AUTO_POOL_MB;
  while (pool < MAX_AUTO_POOL_MB && pool * 2 ** 20 < bytes) pool *= 2;
  return pool;
}

/**
 * Copies the pre-initialised data directory into an embedded database's directory that holds
 * no database yet (no PG_VERSION) and is to be migrated, when a fresh one was built; PGlite
 * then opens it as an existing database.
 */
function copyTemplateFor(options: OpenOptions): void {
  const dataDir = options.dataDir ?? "memory://";
  if (options.template === false || options.migrate === false || options.loadDataDir) return;
  if (dataDir.startsWith("memory://") || existsSync(join(dataDir, "PG_VERSION"))) return;
  const template =
    options.template === undefined ? freshTemplate() : freshTemplate(options.template);
  if (template) copyTemplate(template, dataDir);
}

/**
 * ANALYZEs the tables whose planner statistics are missing or stale: never analyzed, or
 * whose size in pages moved by more than a tenth (and 8 pages) since the last ANALYZE
 * recorded it. PostgreSQL's autovacuum does this on its own; PGlite has none. A warm start
 * of an unchanged archive analyzes nothing. Returns the tables analyzed.
 */
async function analyzeDrifted(db: Db): Promise<string[]> {
  const drifted = await rowsOf<{ name: string }>(
    db,
    sql`select quote_ident(c.relname) as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'm')
          and (c.reltuples < 0
               or abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages)
                  > greatest(8, c.relpages / 10))
        order by 1`,
  );
  const names = drifted.map((r) => r.name);
  if (names.length > 0) await db.execute(sql.raw(`analyze ${names.join(", ")}`));
  return names;
}

/**
 * PGlite's WebAssembly when `bin/quire.js` started compiling it before the modules loaded
 * (docs/adr/0026-start-up.md); otherwise, or when that failed, PGlite compiles it itself.
 */
async function precompiledPglite(): Promise<{ pgliteWasmModule?: WebAssembly.Module }> {
  const compiling = (globalThis as Record<symbol, unknown>)[Symbol.for("quire.pglite.wasm")];
  if (!(compiling instanceof Promise)) return {};
  try {
    return { pgliteWasmModule: (await compiling) as WebAssembly.Module };
  } catch {
    return {};
  }
}

async function openPglite(
  dataDir: string,
  { loadDataDir, sharedBuffersMb }: Pick<OpenOptions, "loadDataDir" | "sharedBuffersMb">,
): Promise<Database> {
  const [{ PGlite }, { vector }, { drizzle }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
    import("drizzle-orm/pglite"),
  ]);
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  sharedBuffersMb ??= inMemory || loadDataDir ? undefined : bufferPoolFor(dataDir);
  const client = await PGlite.create(inMemory ? undefined : dataDir, {
    extensions: { vector },
    ...(await precompiledPglite()),
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(sharedBuffersMb === undefined
      ? {}
      : {
          startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`],
        }),
  });
  const db = drizzle(client, { schema });
  return {
    db,
    readDb: db,
    kind: "pglite",
    location: inMemory ? "memory" : dataDir,
    exclusive: (work) => work(),
    listen: async (channel, handlers) =>
      client.listen(channel, (payload) => handlers.notify(payload)),
    stats: () => ({ max: 1, total: 1 }),
    dumpDataDir: async () => (await client.dumpDataDir("none")) as Blob,
    ...(inMemory
      ? {}
      : {
          // A checkpoint first, so the data files hold nearly everything; then, inside a
          // read-only transaction (PGlite runs one transaction at a time, so every other
          // query and transaction waits), a synchronous file copy: nothing runs while it
          // copies and no transaction is half done in it. WAL before the checkpoint's redo
          // point and segments recycled for later use are left out (they are most of a busy
          // directory); the rest replays on the first open, as after a crash.
          snapshot: async (into: string) => {
            await client.exec("checkpoint");
            await client.transaction(async (tx) => {
              const { rows } = await tx.query<{ redo: string; current: string }>(
                `select pg_walfile_name(redo_lsn) as redo,
                        pg_walfile_name(pg_current_wal_insert_lsn()) as current
                 from pg_control_checkpoint()`,
              );
              const wal = rows[0] as { redo: string; current: string };
              copyDataDir(dataDir, into, wal);
            });
          },
        }),
    close: () => client.close(),
  };
}

/** Files of a data directory that belong to a running process, not to the database. */
const PROCESS_FILES = new Set(["postmaster.pid", "postmaster.opts", "quire.pid"]);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/** A copy of a stopped (or locked) PGlite directory keeping only the WAL from `redo` to `current`. */
function copyDataDir(from: string, into: string, wal: { redo: string; current: string }) {
  mkdirSync(into, { recursive: false, mode: 0o700 });
  cpSync(from, into, {
    recursive: true,
    filter: (source) => {
      const rel = relative(from, source);
      if (PROCESS_FILES.has(rel)) return false;
      const name = basename(source);
      if (dirname(rel) === "pg_wal" && WAL_SEGMENT.test(name)) {
        return name >= wal.redo && name <= wal.current;
      }
      return true;
    },
  });
}

async function openPostgres(
  url: string,
  poolSize: number,
  options: Pick<OpenOptions, "readUrl" | "replicaBackoffMs" | "logger">,
): Promise<Database> {
  const [{ default: pg }, { drizzle }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on("error", () => {
    // An idle client lost its connection; the pool replaces it on next checkout.
  });
  const db = drizzle(pool, { schema });
  let readDb = db;
  let replica: ReplicaPool | undefined;
  if (options.readUrl) {
    const replicaPool = new pg.Pool({
      connectionString: options.readUrl,
      max: poolSize,
      // A replica that drops packets must not hold a read for the OS's TCP timeout.
      connectionTimeoutMillis: 3_000,
    });
    replicaPool.on("error", () => {
      // As above; a replica that went away is noticed by the next query (see ReplicaPool).
    });
    replica = new ReplicaPool(replicaPool, pool, {
      ...(options.replicaBackoffMs === undefined ? {} : { backoffMs: options.replicaBackoffMs }),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    readDb = drizzle(replica as unknown as pg.Pool, { schema });
  }
  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    const holder = new pg.Client({ connectionString: url });
    holder.on("error", () => {
      // The lock dies with the connection; `work` goes on, and its own queries report errors.
    });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
      return await work();
    } finally {
      // Ending the session releases the lock too, whatever state the connection is in.
      await holder.end().catch(() => {});
    }
  };
  return {
    db,
    readDb,
    ...(replica ? { replica: () => (replica as ReplicaPool).health() } : {}),
    kind: "postgres",
    location: redactUrl(url),
    exclusive,
    listen: (channel, handlers) => listenPostgres(pg, url, channel, handlers),
    stats: () => ({
      max: poolSize,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: async () => {
      await replica?.end();
      await pool.end();
    },
  };
}

/** A LISTEN connection that reconnects every second until stopped (see Database.listen). */
async function listenPostgres(
  pg: typeof import("pg").default,
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) handlers.notify(message.payload ?? "");
    });
    next.on("error", () => {
      // Followed by "end", which reconnects.
    });
    next.on("end", () => {
      if (stopped || client !== next) return;
      client = undefined;
      handlers.lost?.();
      schedule();
    });
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
  };
  const schedule = () => {
    retry = setTimeout(() => {
      connect().then(
        () => {
          if (!stopped) handlers.ready?.();
        },
        () => {
          if (!stopped) schedule();
        },
      );
    }, 1_000);
    retry.unref();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** Brings the schema up to date with Drizzle's migrator (openDatabase does it by default). */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.db as never, { migrationsFolder });
  } else {
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    await migrate(database.db as never, { migrationsFolder });
  }
}

/** Strips the password from a connection URL so it can be logged. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
