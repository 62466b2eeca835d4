/**
 * @module Test support: a real streaming replica of the local PostgreSQL server, made with
 * `pg_basebackup -R` into a temporary directory and run with the server's own binaries on a
 * free port, which a test can pause, stop, start and throw away.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./scratch.ts";

export interface StreamingReplica {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>`: a database of the primary, read-only. */
  url(database: string): string;
  /** Stops applying WAL (the replica goes stale, deterministically) until `resumeReplay`. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has applied everything the primary had committed at the call. */
  catchUp(timeoutMs?: number): Promise<void>;
  /** Runs `sql` on the replica's database `database` and returns the rows. */
  query<R extends Record<string, unknown>>(
    database: string,
    sql: string,
    params?: unknown[],
  ): Promise<R[]>;
  /** Fast shutdown: sessions are cut, as when a replica goes down. The files stay. */
  stop(): Promise<void>;
  /** Starts the stopped replica again on the same port. */
  start(): Promise<void>;
  /** Stops it and deletes its directory. Idempotent. */
  destroy(): Promise<void>;
}

/** The rule `pg_basebackup` needs; added to the primary's pg_hba.conf when missing. */
const REPLICATION_RULE = "host replication postgres 127.0.0.1/32 trust";

/**
 * Clones the PostgreSQL server at `primaryUrl` (which must run on this machine, with
 * `wal_level` replica or logical and `max_wal_senders` > 0, as Debian's default does) into a
 * hot standby. The server must accept a replication connection from 127.0.0.1 for postgres:
 * if no pg_hba.conf rule allows it and the file is writable (as root), the rule
 * `host replication postgres 127.0.0.1/32 trust` is appended and the configuration reloaded;
 * otherwise this throws, naming the rule to add. Run as root, the standby runs as the
 * `postgres` OS user (PostgreSQL refuses root). No replication slot is made, so a standby
 * left behind by a crashed test holds no WAL on the primary.
 */
export async function startStreamingReplica(primaryUrl: string): Promise<StreamingReplica> {
  const primary = new URL(primaryUrl);
  const settings = await primarySettings(primaryUrl);
  if (
    !["replica", "logical"].includes(settings.wal_level ?? "") ||
    settings.max_wal_senders === "0"
  ) {
    throw new Error(
      `The PostgreSQL server at ${primary.host} cannot feed a streaming replica ` +
        `(wal_level=${settings.wal_level}, max_wal_senders=${settings.max_wal_senders}): set ` +
        "wal_level = replica and max_wal_senders > 0 and restart it.",
    );
  }
  await allowReplication(primaryUrl);
  const major = Math.floor(Number(settings.server_version_num) / 10_000);
  const bin = process.env.PG_BINDIR ?? `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(join(bin, "postgres"))) {
    throw new Error(`No PostgreSQL ${major} binaries in ${bin} (set PG_BINDIR).`);
  }
  const owner = serverOwner();
  const root = mkdtempSync(join(tmpdir(), "quire-replica-"));
  const dataDir = join(root, "data");
  if (owner) chownSync(root, owner.uid, owner.gid);
  const port = await freePort();
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};

  let child: ChildProcess | null = null;
  let log = "";
  const launch = async () => {
    log = "";
    const started = spawn(join(bin, "postgres"), ["-D", dataDir], {
      ...asOwner,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    started.stdout?.on("data", (c) => {
      log += String(c);
    });
    started.stderr?.on("data", (c) => {
      log += String(c);
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`the replica exited at start-up:\n${log}`);
      }
      try {
        const [row] = await run<{ recovering: boolean }>(
          url("postgres"),
          "select pg_is_in_recovery() as recovering",
        );
        if (!row?.recovering) throw new Error("the replica is not in recovery");
        return;
      } catch (error) {
        if (Date.now() > deadline) {
          throw new Error(`the replica did not accept connections: ${String(error)}\n${log}`);
        }
      }
      await sleep(200);
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running: ChildProcess | null = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill(signal);
    const timer = setTimeout(() => running.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(timer);
  };
  const onExit = () => {
    (child as ChildProcess | null)?.kill("SIGQUIT");
  };
  process.once("exit", onExit);

  function url(database: string): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  try {
    execFileSync(
      join(bin, "pg_basebackup"),
      [
        "-h",
        primary.hostname,
        "-p",
        primary.port || "5432",
        "-U",
        decodeURIComponent(primary.username || "postgres"),
        "-D",
        dataDir,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
        "--no-sync",
        "--no-manifest",
      ],
      { ...asOwner, stdio: ["ignore", "ignore", "pipe"] },
    );
    // Debian keeps postgresql.conf and pg_hba.conf in /etc, outside the copied directory;
    // a standby needs at least the primary's values of these settings.
    const conf = [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      "hot_standby = on",
      "fsync = off",
      "shared_buffers = 32MB",
      "logging_collector = off",
      ...[
        "max_connections",
        "max_worker_processes",
        "max_wal_senders",
        "max_prepared_transactions",
        "max_locks_per_transaction",
      ].map((name) => `${name} = ${settings[name]}`),
      settings.shared_preload_libraries
        ? `shared_preload_libraries = '${settings.shared_preload_libraries}'`
        : "",
    ];
    writeFileSync(join(dataDir, "postgresql.conf"), `${conf.join("\n")}\n`);
    writeFileSync(
      join(dataDir, "pg_hba.conf"),
      "local all all trust\nhost all all 127.0.0.1/32 trust\n",
    );
    writeFileSync(join(dataDir, "pg_ident.conf"), "");
    if (owner) {
      for (const file of ["postgresql.conf", "pg_hba.conf", "pg_ident.conf"]) {
        chownSync(join(dataDir, file), owner.uid, owner.gid);
      }
    }
    await launch();
  } catch (error) {
    await halt("SIGQUIT");
    process.off("exit", onExit);
    rmSync(root, { recursive: true, force: true });
    throw error;
  }

  let destroyed: Promise<void> | null = null;
  return {
    port,
    url,
    pauseReplay: async () => {
      await run(url("postgres"), "select pg_wal_replay_pause()");
      // PostgreSQL 14+: the request is taken at the next record; wait until it is.
      await until(async () => {
        const [row] = await run<{ state: string }>(
          url("postgres"),
          "select pg_get_wal_replay_pause_state() as state",
        );
        return row?.state === "paused";
      }, 30_000);
    },
    resumeReplay: async () => {
      await run(url("postgres"), "select pg_wal_replay_resume()");
    },
    catchUp: async (timeoutMs = 60_000) => {
      const [target] = await run<{ lsn: string }>(
        primaryUrl,
        "select pg_current_wal_flush_lsn()::text as lsn",
      );
      await until(async () => {
        const [row] = await run<{ done: boolean }>(
          url("postgres"),
          "select pg_last_wal_replay_lsn() >= $1::pg_lsn as done",
          [target?.lsn],
        );
        return row?.done === true;
      }, timeoutMs);
    },
    query: (database, sql, params) => run(url(database), sql, params),
    stop: () => halt("SIGINT"),
    start: () => launch(),
    destroy: () => {
      destroyed ??= (async () => {
        await halt("SIGINT");
        process.off("exit", onExit);
        rmSync(root, { recursive: true, force: true });
      })();
      return destroyed;
    },
  };
}

async function primarySettings(primaryUrl: string): Promise<Record<string, string>> {
  const names = [
    "server_version_num",
    "wal_level",
    "max_wal_senders",
    "max_connections",
    "max_worker_processes",
    "max_prepared_transactions",
    "max_locks_per_transaction",
    "shared_preload_libraries",
  ];
  const rows = await run<{ name: string; setting: string }>(
    primaryUrl,
    "select name, setting from pg_settings where name = any($1)",
    [names],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}

/** Makes sure postgres may open a replication connection from 127.0.0.1 (see above). */
async function allowReplication(primaryUrl: string): Promise<void> {
  const allowed = async () => {
    const rows = await run<{ n: number }>(
      primaryUrl,
      `select count(*)::int as n from pg_hba_file_rules
        where error is null and type = 'host'
          and 'replication' = any(database)
          and ('postgres' = any(user_name) or 'all' = any(user_name))
          and (address = '127.0.0.1' or address = 'all' or address = '0.0.0.0')`,
    );
    return (rows[0]?.n ?? 0) > 0;
  };
  if (await allowed()) return;
  const [row] = await run<{ hba_file: string }>(primaryUrl, "show hba_file");
  const file = row?.hba_file ?? "";
  try {
    writeFileSync(
      file,
      `\n# Added by Quire's tests (src/testing/replica.ts): pg_basebackup for a test replica.\n${REPLICATION_RULE}\n`,
      { flag: "a" },
    );
  } catch (error) {
    throw new Error(
      `PostgreSQL refuses replication connections from 127.0.0.1 and ${file} is not writable ` +
        `(${(error as Error).message}); add the line "${REPLICATION_RULE}" and reload the server.`,
    );
  }
  await run(primaryUrl, "select pg_reload_conf()");
  await until(allowed, 10_000);
}

/** The OS user that owns PostgreSQL's files, when this process is root; else this user. */
function serverOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

async function run<R extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end().catch(() => {});
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
