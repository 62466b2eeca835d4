/**
 * @module Test support: `quire serve` as a real child process (`node bin/quire.js serve`) on
 * a free port, with the environment a test gives it and nothing inherited that would change
 * what it talks to; its whole log kept for assertions.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "./scratch.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Variables that pick databases, caches, mail and proxies: never inherited from the runner. */
const NOT_INHERITED = [
  "BASE_URL",
  "DATABASE_URL",
  "DATA_DIR",
  "HOST",
  "REDIS_URL",
  "SMTP_URL",
  "TEST_DATABASE_URL",
  "TRUST_PROXY",
  "VITEST",
];

export interface ServedQuire {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  port: number;
  /** The child's process id (benchmarks read its CPU time). */
  pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). Idempotent. */
  stop(graceMs?: number): Promise<void>;
  /**
   * Sends `signal` (default SIGKILL, as in a crash) and resolves when the process has exited;
   * shutdown tests need not await it and watch `exited` instead.
   */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `quire serve` with `env` (PORT and BASE_URL are filled in) and resolves once
 * `readyPath` answers 2xx. The default, `/readyz` (database reachable and migrated, rate-limit
 * store reachable), draws on no rate-limit bucket, so waiting spends nothing a test counts.
 */
export async function serveQuire(
  env: Record<string, string>,
  options: {
    readyPath?: string;
    timeoutMs?: number;
    /** Node arguments instead of `bin/quire.js serve` (benchmarks run their own entry). */
    argv?: string[];
  } = {},
): Promise<ServedQuire> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const key of NOT_INHERITED) delete inherited[key];
  const child: ChildProcess = spawn(process.execPath, options.argv ?? ["bin/quire.js", "serve"], {
    cwd: ROOT,
    env: { ...inherited, PORT: String(port), BASE_URL: base, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  let stopping: Promise<void> | null = null;
  const served: ServedQuire = {
    base,
    port,
    pid: child.pid ?? 0,
    output: () => output,
    exited,
    kill: async (signal = "SIGKILL") => {
      if (running()) child.kill(signal);
      await exited;
    },
    stop: (graceMs = 10_000) => {
      stopping ??= (async () => {
        if (!running()) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };

  const readyPath = options.readyPath ?? "/readyz";
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (!running()) throw new Error(`quire serve exited early:\n${output}`);
    try {
      const res = await fetch(`${base}${readyPath}`);
      await res.arrayBuffer();
      if (res.ok) return served;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await served.stop();
      throw new Error(`quire serve did not answer ${readyPath} in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
