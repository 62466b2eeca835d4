/**
 * Graceful shutdown of a real `quire serve` process under load, on the engine under test
 * (PGlite in a data directory, or a scratch PostgreSQL database with TEST_DATABASE_URL).
 *
 * An owner and six verified agents are created with the CLI before the server starts (the
 * embedded engine is single-process). Writers post comments with an Idempotency-Key, readers
 * read papers and comments, each on its keep-alive connection, and one more client sits idle
 * on its own kept-alive socket. SIGTERM arrives mid-load. Then:
 * - every request sent before the signal got an answer, none 5xx, none a reset;
 * - the idle client's next request, sent after the signal on its old socket, is answered
 *   (/readyz: 503, `Connection: close`), never reset;
 * - the process exits 0 within SHUTDOWN_TIMEOUT_MS (plus the closing steps), having drained
 *   before the deadline;
 * - every acknowledged (201) comment is in the database, and each agent key's last use,
 *   batched in memory, was written at shutdown;
 * - the server starts again on the same data and lists every acknowledged comment.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";
import { type ServedQuire, serveQuire } from "../src/testing/serve.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SHUTDOWN_TIMEOUT_MS = 8000;
/** Time the closing steps after the drain may take (worker, key uses, Redis, database). */
const CLOSING_SLACK_MS = 5000;
const WRITERS = 6;
const READERS = 3;
/** SIGTERM once this many comments were acknowledged. */
const ACKS_BEFORE_SIGNAL = 40;

const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
let env: Record<string, string>;
const cleanups: (() => Promise<void> | void)[] = [];
const agents: { id: string; key: string }[] = [];

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, "quire_shutdown");
    cleanups.push(scratch.drop);
    env = { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: "4" };
  } else {
    const dir = mkdtempSync(join(tmpdir(), "quire-shutdown-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    env = { DATA_DIR: dir };
  }
  await quire([
    "owners",
    "create",
    "--handle",
    "drainer",
    "--email",
    "drain@example.org",
    "--verified",
  ]);
  for (let i = 0; i < WRITERS; i++) {
    const created = await quire([
      "agents",
      "create",
      "--owner",
      "drainer",
      "--name",
      `w${i}`,
      "--model",
      "m",
    ]);
    const id = /created agent (agt_\w+)/.exec(created.stderr)?.[1];
    expect(id, created.stderr).toBeTruthy();
    agents.push({ id: id as string, key: created.stdout.trim() });
  }
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs the `quire` command against the engine under test; fails on a non-zero exit. */
function quire(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [
    "BASE_URL",
    "DATABASE_URL",
    "DATA_DIR",
    "HOST",
    "NODE_OPTIONS",
    "PORT",
    "REDIS_URL",
    "SMTP_URL",
    "TEST_DATABASE_URL",
    "TRUST_PROXY",
    "VITEST",
  ]) {
    delete inherited[key];
  }
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["bin/quire.js", ...args],
      { cwd: ROOT, env: { ...inherited, ...env, SEED_SAMPLES: "false", LOG_LEVEL: "warn" } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`quire ${args.join(" ")}: ${stderr}`));
        else resolve({ stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

function serve(): Promise<ServedQuire> {
  return serveQuire(
    {
      ...env,
      SEED_SAMPLES: "true",
      // Each request comes from its own forwarded address, so per-IP limits never refuse.
      TRUST_PROXY: "127.0.0.1",
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    },
    { readyPath: "/readyz" },
  );
}

interface Outcome {
  kind: "read" | "write";
  sentBeforeSignal: boolean;
  finishedAfterSignal: boolean;
  status?: number;
  connectionClose?: boolean;
  error?: string;
  /** The agent (writes) and the acknowledged comment. */
  agent?: number;
  commentId?: string;
  paperId?: string;
  sentAtMs: number;
}

/** An http.request over one kept-alive socket, so the test knows which connection it uses. */
function overSocket(
  agent: Agent,
  url: string,
): Promise<{ status: number; headers: Record<string, unknown>; reused: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          reused: req.reusedSocket,
          body,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

describe(`SIGTERM under load (${engine})`, () => {
  it("answers every request sent before the signal, keeps acknowledged writes, flushes key uses and exits 0", async () => {
    const served = await serve();
    const base = served.base;
    const list = (await (await fetch(`${base}/api/v1/papers?limit=10`)).json()) as {
      papers: { id: string }[];
    };
    const paperIds = list.papers.map((p) => p.id);
    expect(paperIds.length).toBeGreaterThan(0);

    let signalled = false;
    let acks = 0;
    let seq = 0;
    const outcomes: Outcome[] = [];
    let reachedAcks: () => void = () => {};
    const enoughAcks = new Promise<void>((resolve) => {
      reachedAcks = resolve;
    });
    const exited = served.exited;
    let gone = false;
    void exited.then(() => {
      gone = true;
    });

    const forwarded = () => {
      const n = ++seq;
      return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    };

    const client = async (kind: "read" | "write", index: number) => {
      for (let i = 0; ; i++) {
        const paperId = paperIds[(index + i) % paperIds.length] as string;
        const sentBeforeSignal = !signalled;
        const outcome: Outcome = {
          kind,
          sentBeforeSignal,
          finishedAfterSignal: false,
          sentAtMs: Date.now(),
        };
        try {
          let res: Response;
          if (kind === "write") {
            outcome.agent = index;
            outcome.paperId = paperId;
            res = await fetch(`${base}/api/v1/papers/${paperId}/comments`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${agents[index]?.key}`,
                "content-type": "application/json",
                "idempotency-key": `drain-${index}-${i}-${crypto.randomUUID()}`,
                "x-forwarded-for": forwarded(),
              },
              body: JSON.stringify({
                body: `Comment ${i} by writer ${index} during a drain test.`,
              }),
            });
          } else {
            const paths = [
              `/api/v1/papers/${paperId}`,
              `/api/v1/papers?limit=5`,
              `/api/v1/papers/${paperId}/comments?limit=20`,
            ];
            res = await fetch(`${base}${paths[i % paths.length]}`, {
              headers: { "x-forwarded-for": forwarded() },
            });
          }
          const text = await res.text();
          outcome.status = res.status;
          outcome.connectionClose = res.headers.get("connection") === "close";
          if (kind === "write" && res.status === 201) {
            outcome.commentId = (JSON.parse(text) as { comment: { id: string } }).comment.id;
            if (++acks >= ACKS_BEFORE_SIGNAL) reachedAcks();
          }
        } catch (error) {
          outcome.error = errorCode(error);
        }
        outcome.finishedAfterSignal = signalled;
        outcomes.push(outcome);
        // After the signal, a refused connection means the server stopped listening: done.
        if (outcome.error && signalled) return;
        if (gone) return;
      }
    };

    const clients = [
      ...Array.from({ length: WRITERS }, (_, i) => client("write", i)),
      ...Array.from({ length: READERS }, (_, i) => client("read", i)),
    ];
    await enoughAcks;
    // A client idle on its own kept-alive socket across the signal (well within the
    // server's 5 s keep-alive timeout, after which any server may close an idle socket).
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await overSocket(idleAgent, `${base}/api/v1/papers?limit=1`);
    expect(first.status).toBe(200);
    signalled = true;
    const signalledAt = performance.now();
    served.kill("SIGTERM");

    // The idle client comes back on its old socket: answered while draining, never reset.
    const idleAnswers: { status: number; close: boolean; reused: boolean }[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      const res = await overSocket(idleAgent, `${base}/readyz`);
      idleAnswers.push({
        status: res.status,
        close: res.headers.connection === "close",
        reused: res.reused,
      });
      // Until the server has taken the signal, answers keep the connection open.
      if (res.headers.connection === "close") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    idleAgent.destroy();

    const { code, signal } = await exited;
    const stoppedAfterMs = performance.now() - signalledAt;
    await Promise.all(clients);
    const output = served.output();

    // The process: exit 0, drained before the deadline, within the bound.
    expect({ code, signal }, output.slice(-3000)).toEqual({ code: 0, signal: null });
    expect(output).not.toContain("shutdown deadline passed");
    expect(output).not.toContain("something held the process open");
    expect(output).toContain('"msg":"stopped"');
    expect(stoppedAfterMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + CLOSING_SLACK_MS);

    // Requests sent before the signal: all answered, none 5xx, some still in flight at it.
    const before = outcomes.filter((o) => o.sentBeforeSignal);
    expect(before.filter((o) => o.error)).toEqual([]);
    expect(before.filter((o) => (o.status ?? 0) >= 500)).toEqual([]);
    expect(before.filter((o) => o.finishedAfterSignal).length).toBeGreaterThan(0);
    // Requests after it were answered (told to close) until the listener was gone; then
    // only refused, never reset mid-request.
    const after = outcomes.filter((o) => !o.sentBeforeSignal);
    expect(after.filter((o) => (o.status ?? 0) >= 500)).toEqual([]);
    for (const o of after.filter((o) => o.error)) expect(o.error).toBe("ECONNREFUSED");
    expect(outcomes.some((o) => o.connectionClose)).toBe(true);

    // The idle client: same socket, answered, the last answer 503 closing the connection.
    expect(idleAnswers.every((a) => a.reused)).toBe(true);
    expect(idleAnswers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    expect(idleAnswers.at(-1)).toEqual({ status: 503, close: true, reused: true });

    // Acknowledged writes and key uses are in the database.
    const acknowledged = outcomes.filter((o) => o.commentId);
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKS_BEFORE_SIGNAL);
    const database = await openDatabase(
      env.DATABASE_URL
        ? { databaseUrl: env.DATABASE_URL, poolSize: 1 }
        : { dataDir: env.DATA_DIR as string },
    );
    try {
      const stored = (await database.db.execute(sql`select id from comments`)) as unknown as {
        rows: { id: string }[];
      };
      const ids = new Set(stored.rows.map((r) => r.id));
      for (const o of acknowledged) expect(ids.has(o.commentId as string), o.commentId).toBe(true);

      const keys = (await database.db.execute(
        sql`select agent_id, last_used_at from agent_keys`,
      )) as unknown as { rows: { agent_id: string; last_used_at: string | Date | null }[] };
      for (const [index, agent] of agents.entries()) {
        const sent = outcomes.filter((o) => o.agent === index && o.status !== undefined);
        expect(sent.length, agent.id).toBeGreaterThan(0);
        const latest = Math.max(...sent.map((o) => o.sentAtMs));
        const row = keys.rows.find((r) => r.agent_id === agent.id);
        expect(row?.last_used_at, agent.id).not.toBeNull();
        // Written at shutdown (the timer flushes every 30 s; the load lasted less than that).
        expect(new Date(row?.last_used_at as string).getTime()).toBeGreaterThanOrEqual(latest);
      }
    } finally {
      await database.close();
    }

    // It starts again on the same data, and every acknowledged comment is listed.
    const again = await serve();
    try {
      const listed = new Set<string>();
      for (const paperId of new Set(acknowledged.map((o) => o.paperId as string))) {
        let cursor: string | null = null;
        do {
          const url = `${again.base}/api/v1/papers/${paperId}/comments?limit=100${cursor ? `&cursor=${cursor}` : ""}`;
          const page = (await (
            await fetch(url, { headers: { "x-forwarded-for": forwarded() } })
          ).json()) as { comments: { id: string }[]; next_cursor: string | null };
          for (const c of page.comments) listed.add(c.id);
          cursor = page.next_cursor;
        } while (cursor);
      }
      for (const o of acknowledged)
        expect(listed.has(o.commentId as string), o.commentId).toBe(true);
    } finally {
      await again.stop();
    }
    const restarted = await again.exited;
    expect(restarted).toEqual({ code: 0, signal: null });
  }, 300_000);
});
