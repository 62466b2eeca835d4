/**
 * @module The operator socket: beside the data directory, mode 0600, answers a backup
 * request with the directory the snapshot was copied into, and nothing else; a stale socket of a killed server is replaced,
 * a regular file in the way is left alone.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
    const admin = await startAdminSocket({
      dataDir,
      snapshot: async (into) => {
        mkdirSync(into);
        writeFileSync(join(into, "PG_VERSION"), "18\n");
      },
      logger,
    });
    expect(admin?.path).toBe(`${dataDir}.admin.sock`);
    try {
      expect(statSync(adminSocketPath(dataDir)).mode & 0o777).toBe(0o600);
      const taken = await requestSnapshot(dataDir);
      expect(taken.dir).toMatch(new RegExp(`^${dataDir}\\.backup-[0-9a-f]{8}$`));
      expect(readFileSync(join(taken.dir, "PG_VERSION"), "utf8")).toBe("18\n");
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
      snapshot: async (into) => mkdirSync(into),
      logger,
    });
    try {
      expect((await requestSnapshot(dataDir)).dir).toContain(".backup-");
    } finally {
      await admin?.close();
    }

    const blocked = join(root, "blocked");
    writeFileSync(adminSocketPath(blocked), "not a socket");
    expect(
      await startAdminSocket({ dataDir: blocked, snapshot: async () => {}, logger }),
    ).toBeNull();
    expect(statSync(adminSocketPath(blocked)).isFile()).toBe(true);
  });
});
