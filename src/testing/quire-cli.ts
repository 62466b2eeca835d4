/** @module Test support: the real `quire` command as a child process, with only the environment a test gives it. */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Variables that choose databases and servers: never inherited from the test runner. */
const NOT_INHERITED = [
  "BASE_URL",
  "DATABASE_URL",
  "DATA_DIR",
  "EMBEDDINGS_URL",
  "EMBEDDINGS_MODEL",
  "HOST",
  "NODE_OPTIONS",
  "PORT",
  "REDIS_URL",
  "TEST_DATABASE_URL",
  "VITEST",
];

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const key of NOT_INHERITED) delete inherited[key];
  return { ...inherited, LOG_LEVEL: "warn", SEED_SAMPLES: "false", ...env };
}

/** Runs `quire …args` to the end. */
export function runQuire(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 600_000,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/quire.js", ...args],
      { cwd: ROOT, env: environment(env), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const e = error as (Error & { code?: unknown; signal?: NodeJS.Signals | null }) | null;
        resolve({
          code: e ? (typeof e.code === "number" ? e.code : null) : 0,
          signal: e?.signal ?? null,
          stdout: String(stdout),
          stderr: String(stderr),
        });
      },
    );
  });
}

/** Starts `quire …args` and hands back the process (to kill it), its output and its end. */
export function spawnQuire(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; exited: Promise<CliResult> } {
  const child = spawn(process.execPath, ["bin/quire.js", ...args], {
    cwd: ROOT,
    env: environment(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<CliResult>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, output: () => stdout + stderr, exited };
}
