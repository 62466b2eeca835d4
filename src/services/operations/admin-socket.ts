/** @module The serving process's operator socket beside the embedded data directory, through which `quire backup` asks a running server for a snapshot. */
import { chmodSync, lstatSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { resolve } from "node:path";
import type { Logger } from "pino";
import { BackupFailed } from "./backup.ts";

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
 * Listens on the operator socket. Its only request is `{"op":"backup"}`, answered with a
 * JSON header line (`{"ok":true,"bytes":N,"taken_at":…}`) and the data directory's tarball.
 *
 * Security: the socket file is mode 0600 (connections arriving before the chmod are
 * dropped), so only the server's own user and root can connect: exactly who can read the
 * data directory's files anyway. It accepts no other request, carries no secret in either
 * direction, and is never reachable over the network. One snapshot at a time.
 */
export async function startAdminSocket(options: {
  dataDir: string;
  snapshot: () => Promise<Blob>;
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
      try {
        const tarball = new Uint8Array(await (await options.snapshot()).arrayBuffer());
        const ms = Math.round(performance.now() - started);
        log.info({ bytes: tarball.length, ms }, "snapshot taken for `quire backup`");
        socket.write(
          `${JSON.stringify({ ok: true, bytes: tarball.length, taken_at: new Date().toISOString(), pid: process.pid, ms })}\n`,
        );
        socket.end(tarball);
      } catch (error) {
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

/** Asks the server serving `dataDir` for a snapshot of its database; the tarball's bytes. */
export async function requestSnapshot(dataDir: string): Promise<Uint8Array> {
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
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const all = Buffer.concat(chunks);
  const end = all.indexOf(10);
  if (end < 0) throw new BackupFailed("the server closed the operator socket without an answer");
  const header = JSON.parse(all.subarray(0, end).toString("utf8")) as {
    ok: boolean;
    bytes?: number;
    error?: string;
  };
  if (!header.ok) throw new BackupFailed(`the server refused the snapshot: ${header.error}`);
  const body = all.subarray(end + 1);
  if (body.length !== header.bytes) {
    throw new BackupFailed(`the snapshot was cut short (${body.length} of ${header.bytes} bytes)`);
  }
  return body;
}
