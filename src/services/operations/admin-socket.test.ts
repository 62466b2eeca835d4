/**
 * @module The operator socket: beside the data directory, mode 0600, answers a backup
 * request with the snapshot and nothing else; a stale socket of a killed server is replaced,
 * a regular file in the way is left alone.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { adminSocketPath, requestSnapshot, startAdminSocket } from "./admin-socket.ts";

const root = mkdtempSync(join(tmpdir(), "quire-admin-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const logger = pino({ level: "silent" });

function ask(path: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path, () => socket.write(line));
    let text = "";
    socket.on("data", (chunk) => {
      text += String(chunk);
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("the operator socket", () => {
  it("is private to the server's user and answers only a backup request", async () => {
    const dataDir = join(root, "data");
    const payload = new Uint8Array(70_000).map((_, i) => i % 251);
    const admin = await startAdminSocket({
      dataDir,
      snapshot: async () => new Blob([payload]),
      logger,
    });
    expect(admin?.path).toBe(`${dataDir}.admin.sock`);
    try {
      expect(statSync(adminSocketPath(dataDir)).mode & 0o777).toBe(0o600);
      expect(Buffer.from(await requestSnapshot(dataDir))).toEqual(Buffer.from(payload));
      expect(JSON.parse(await ask(adminSocketPath(dataDir), '{"op":"shell"}\n'))).toEqual({
        ok: false,
        error: "unknown request",
      });
      expect(JSON.parse(await ask(adminSocketPath(dataDir), "not json\n")).ok).toBe(false);
    } finally {
      await admin?.close();
    }
    await expect(requestSnapshot(dataDir)).rejects.toThrow(
      /cannot reach the server's operator socket/,
    );
  });

  it("replaces the socket a killed server left and leaves any other file alone", async () => {
    const dataDir = join(root, "stale");
    const path = adminSocketPath(dataDir);
    const killed = spawn(process.execPath, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(path)}, () => console.log("up"))`,
    ]);
    await new Promise((r) => killed.stdout.once("data", r));
    killed.kill("SIGKILL");
    await new Promise((r) => killed.once("exit", r));
    expect(statSync(path).isSocket()).toBe(true);
    const admin = await startAdminSocket({
      dataDir,
      snapshot: async () => new Blob(["x"]),
      logger,
    });
    try {
      expect(Buffer.from(await requestSnapshot(dataDir)).toString()).toBe("x");
    } finally {
      await admin?.close();
    }

    const blocked = join(root, "blocked");
    writeFileSync(adminSocketPath(blocked), "not a socket");
    expect(
      await startAdminSocket({ dataDir: blocked, snapshot: async () => new Blob([]), logger }),
    ).toBeNull();
    expect(statSync(adminSocketPath(blocked)).isFile()).toBe(true);
  });
});
