/** @module Test support: the shared Redis, unique key prefixes, and a Redis of our own to kill. */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { freePort } from "./scratch.ts";

/** The Redis the suite runs against (TEST_REDIS_URL, or the local default). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix no other test (or run) uses, so counts never collide. */
export function uniquePrefix(label = "t"): string {
  return `quire-test:${label}:${randomBytes(6).toString("hex")}`;
}

/** Deletes every key under `prefix` (counters expire anyway; this keeps the server tidy). */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}

/** Reads one counter straight from Redis: the number of requests counted for it. */
export async function readCounter(url: string, key: string): Promise<number | null> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const value = await client.get(key);
    return value === null ? null : Number(value);
  } finally {
    client.disconnect();
  }
}

/** A throwaway `redis-server` on a free loopback port, which a test may stop, pause or kill. */
export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILL: the connection drops at once, as in a crash. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the socket stays open but nothing answers, as in a hung server. */
  pause(): void;
  resume(): void;
  /** Starts a fresh server on the same port (after kill). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = await launch(port);
  const url = `redis://127.0.0.1:${port}`;
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGKILL");
    });
  };
  return {
    url,
    port,
    kill,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    restart: async () => {
      await kill();
      child = await launch(port);
    },
    stop: async () => {
      child?.kill("SIGCONT");
      await kill();
    },
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.resume();
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}
