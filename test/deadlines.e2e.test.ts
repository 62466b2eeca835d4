/**
 * @module The server's arrival deadlines (HTTP_HEADERS_TIMEOUT_MS, HTTP_BODY_TIMEOUT_MS) on a
 * real `quire serve`: a request whose headers or body never finish arriving gets 408 and its
 * connection closed, instead of holding it; a request that arrives in time is served.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase } from "../src/testing/scratch.ts";
import { type ServedQuire, serveQuire } from "../src/testing/serve.ts";

let quire: ServedQuire;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  let env: Record<string, string>;
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, "quire_deadline");
    env = { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: "2" };
    cleanup = scratch.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "quire-deadline-"));
    env = { DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  quire = await serveQuire(
    {
      ...env,
      SEED_SAMPLES: "false",
      HTTP_HEADERS_TIMEOUT_MS: "1000",
      HTTP_BODY_TIMEOUT_MS: "2000",
    },
    { timeoutMs: 170_000 },
  );
}, 180_000);

afterAll(async () => {
  await quire?.stop();
  await cleanup?.();
});

/** Writes `head` on a raw connection, then nothing; resolves with what came back and when. */
function stall(head: string): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(quire.port, "127.0.0.1", () => socket.write(head));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ answer, ms: performance.now() - started }));
    setTimeout(() => socket.destroy(new Error("still open after 15 s")), 15_000).unref();
  });
}

describe("arrival deadlines", () => {
  it("close a connection whose headers never end, with 408", async () => {
    const { answer } = await stall("GET / HTTP/1.1\r\nHost: quire\r\nX-Slow: 1\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);

  it("close a connection whose body never arrives, with 408", async () => {
    const { answer } = await stall(
      "POST /sign-in HTTP/1.1\r\nHost: quire\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);

  it("serve a request that arrives in time", async () => {
    const res = await fetch(`${quire.base}/healthz`);
    expect(res.status).toBe(200);
  });
});
