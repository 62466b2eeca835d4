/** @module The serving process's operator socket beside the embedded data directory, through which `quire backup` asks a running server for a snapshot. */
import { chmodSync, lstatSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { resolve } from "node:path";
import type { Logger } from "pino";
import { BackupFailed, stagingDir } from "./backup.ts";

/** Linux's limit for a socket path (sun_path, 108 bytes with the terminating zero). */
const MAX_SOCKET_PATH = 107;
const MAX_REQUEST = 1024;

/**
 * `<DATA_DIR>.admin.sock`: beside the data directory, never inside it (PGlite reads every
 * file of its directory when it dumps it, and a socket there makes the dump fail).
 */
export function adminSocketPath(dataDir: string): string {
  return `${resolve(dataDir)}.admin.sock`;
}

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * Listens on the operator socket. Its only request is `{"op":"backup"}`: the server copies
 * its data directory (`snapshot`) into a new directory beside it and answers one JSON line,
 * `{"ok":true,"dir":…,"ms":…}`; the client archives that directory and deletes it.
 *
 * Security: the socket file is mode 0600 (connections arriving before the chmod are
 * dropped), so only the server's own user and root can connect: exactly who can read the
 * data directory's files anyway. It accepts no other request, carries no secret in either
 * direction, and is never reachable over the network. One snapshot at a time.
 */
export async function startAdminSocket(options: {
  dataDir: string;
  snapshot: (into: string) => Promise<void>;
  logger: Logger;
}): Promise<AdminSocket | null> {
  const path = adminSocketPath(options.dataDir);
  const log = options.logger;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    log.warn({ path }, "online backups are off: the operator socket's path is too long");
    return null;
  }
  try {
    // A socket left by a server that was killed: ours to replace, since we hold the data
    // directory's lock. Anything else at that path is not ours to delete.
    if (!lstatSync(path).isSocket()) {
      log.warn({ path }, "online backups are off: a file that is not a socket is in the way");
      return null;
    }
    rmSync(path, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  let ready = false;
  let busy = false;
  const server: Server = createServer((socket) => {
    if (!ready) {
      socket.destroy();
      return;
    }
    socket.on("error", () => {});
    void readRequest(socket).then(async (request) => {
      if (request?.op !== "backup") {
        socket.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
        return;
      }
      if (busy) {
        socket.end(`${JSON.stringify({ ok: false, error: "a backup is already running" })}\n`);
        return;
      }
      busy = true;
      const started = performance.now();
      const dir = stagingDir(options.dataDir, "backup");
      try {
        await options.snapshot(dir);
        const ms = Math.round(performance.now() - started);
        if (socket.destroyed) {
          rmSync(dir, { recursive: true, force: true });
          return;
        }
        log.info({ dir, ms }, "snapshot taken for `quire backup`");
        socket.end(`${JSON.stringify({ ok: true, dir, ms, pid: process.pid })}\n`);
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        log.error({ err: error }, "snapshot for `quire backup` failed");
        socket.end(
          `${JSON.stringify({ ok: false, error: "the snapshot failed; see the server's log" })}\n`,
        );
      } finally {
        busy = false;
      }
    });
  });
  try {
    await new Promise<void>((done, fail) => {
      server.once("error", fail);
      server.listen(path, () => {
        server.off("error", fail);
        done();
      });
    });
    chmodSync(path, 0o600);
  } catch (error) {
    server.close();
    log.warn({ path, err: error }, "online backups are off: cannot listen on the operator socket");
    return null;
  }
  ready = true;
  return {
    path,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        rmSync(path, { force: true });
      }),
  };
}

/** The first line a client sends, parsed; null for anything else. The socket stays open. */
function readRequest(socket: Socket): Promise<{ op?: unknown } | null> {
  return new Promise((done) => {
    let text = "";
    const finish = (value: { op?: unknown } | null) => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      done(value);
    };
    const onEnd = () => finish(null);
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end >= 0) {
        try {
          finish(JSON.parse(text.slice(0, end)) as { op?: unknown });
        } catch {
          finish(null);
        }
      } else if (text.length > MAX_REQUEST) finish(null);
    };
    socket.on("data", onData);
    socket.on("end", onEnd);
  });
}

/**
 * Asks the server serving `dataDir` for a snapshot; the directory it was copied into (the
 * caller archives and deletes it) and how long the server's requests waited.
 */
export async function requestSnapshot(dataDir: string): Promise<{ dir: string; ms: number }> {
  const path = adminSocketPath(dataDir);
  const socket = connect(path);
  await new Promise<void>((done, fail) => {
    socket.once("connect", done);
    socket.once("error", (error: NodeJS.ErrnoException) =>
      fail(
        new BackupFailed(
          `cannot reach the server's operator socket ${path} (${error.code ?? error.message}); ` +
            "its log says why online backups are off, or stop it and run `quire backup` again",
        ),
      ),
    );
  });
  socket.write(`${JSON.stringify({ op: "backup" })}\n`);
  let text = "";
  for await (const chunk of socket) text += String(chunk);
  const line = text.split("\n")[0] ?? "";
  let answer: { ok?: boolean; dir?: string; ms?: number; error?: string };
  try {
    answer = JSON.parse(line) as typeof answer;
  } catch {
    throw new BackupFailed("the server closed the operator socket without an answer");
  }
  if (!answer.ok || typeof answer.dir !== "string") {
    throw new BackupFailed(`the server refused the snapshot: ${answer.error ?? "no reason given"}`);
  }
  // The caller deletes this directory when done: only ever one named as stagingDir names them.
  if (
    !/^\.backup-[0-9a-f]{8}$/.test(answer.dir.slice(resolve(dataDir).length)) ||
    !answer.dir.startsWith(`${resolve(dataDir)}.backup-`)
  ) {
    throw new BackupFailed(`the server named an unexpected snapshot directory: ${answer.dir}`);
  }
  return { dir: answer.dir, ms: answer.ms ?? 0 };
}
