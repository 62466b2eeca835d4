/**
 * @module Start-up benchmark: seconds from spawning `quire serve` (embedded engine, sample
 * papers) to its first 200 on /api/v1/papers, for a first start (empty data directory:
 * migrations and the samples) and warm starts (the same directory again), against a bare
 * Node HTTP server spawned the same way in the same run. Also the seconds until /readyz
 * answers 200 ("ready": the start-up work after listen, such as loading the samples into
 * the empty archive of a first start, is done).
 *
 *   npm run bench:start
 *   npm run bench:start -- --smoke   # one start of each (CI)
 *
 * Environment (optional): BENCH_REPEATS warm starts and bare starts (default 5; smoke 1).
 * Targets (issue 14): warm ≤ 1 s, first ≤ 5 s. Figures go to bench/results/start.json and .md.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../src/testing/scratch.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, samples } from "./lib/smoke.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REPEATS = Number(process.env.BENCH_REPEATS ?? orSmoke(5, 1));
const BARE =
  "require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{\"ok\":true}')}).listen(Number(process.env.PORT),'127.0.0.1')";

interface StartTimes {
  /** Seconds to the first 200 on the path. */
  answer: number;
  /**
   * CPU seconds the process (and the children it waited for) had used by then, from
   * /proc (Linux; NaN elsewhere): what a loaded machine changes least.
   */
  cpu: number;
  /** Seconds to the first 200 on the ready path (at or after the answer). */
  ready: number;
}

/**
 * Spawns `args` with PORT set, polls `path` until a 200, then `readyPath` until a 200; returns
 * the seconds to each and stops it.
 */
async function timeStart(
  args: string[],
  env: Record<string, string>,
  path: string,
  readyPath = path,
): Promise<StartTimes> {
  const port = await freePort();
  const started = performance.now();
  // The embedded engine on its own port, whatever the calling environment configures.
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "silent",
  };
  for (const name of ["DATABASE_URL", "DATABASE_READ_URL", "REDIS_URL", "METRICS_PORT"]) {
    delete childEnv[name];
  }
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  /** Seconds until `target` answers 200; any other status of `target` is an error. */
  const poll = async (target: string, accept: number[]): Promise<number> => {
    for (;;) {
      if (exited) throw new Error(`${args.join(" ")} exited before answering: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${target}`);
        await res.arrayBuffer();
        if (res.status === 200) return (performance.now() - started) / 1000;
        if (!accept.includes(res.status)) throw new Error(`${target} answered ${res.status}`);
      } catch (error) {
        if (error instanceof Error && error.message.includes("answered")) throw error;
      }
      if (performance.now() - started > 120_000) throw new Error("no answer within 120 s");
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  try {
    const answer = await poll(path, []);
    const cpu = cpuSeconds(child.pid);
    // /readyz says 503 while the start-up work runs: expected, polled on.
    const ready = readyPath === path ? answer : await poll(readyPath, [503]);
    return { answer, cpu, ready };
  } finally {
    if (!exited) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await gone;
    }
  }
}

/** User + system CPU seconds of `pid` and its waited-for children (clock ticks of 1/100 s). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis start at field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / 100;
  } catch {
    return Number.NaN;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const dataDir = mkdtempSync(join(tmpdir(), "quire-bench-start-"));
try {
  const serve = ["bin/quire.js", "serve"];
  const env = { DATA_DIR: join(dataDir, "data"), SEED_SAMPLES: "true" };
  const bare: StartTimes[] = [];
  const warm: StartTimes[] = [];
  const first = await timeStart(serve, env, "/api/v1/papers", "/readyz");
  for (let i = 0; i < REPEATS; i++) {
    bare.push(await timeStart(["-e", BARE], {}, "/"));
    warm.push(await timeStart(serve, env, "/api/v1/papers", "/readyz"));
  }
  samples("warm starts", warm.length);
  const bareS = figure("bare start", median(bare.map((b) => b.answer)));
  const warmS = figure("warm start", median(warm.map((w) => w.answer)));
  const warmReadyS = figure("warm ready", median(warm.map((w) => w.ready)));
  const firstS = figure("first start", first.answer);
  const firstReadyS = figure("first ready", first.ready);
  const cpu = (s: number) => (Number.isNaN(s) ? "-" : s.toFixed(2));
  const met = (s: number, target: number) => `≤ ${target} s: ${s <= target ? "met" : "NOT met"}`;
  console.log(
    "embedded engine, sample papers; seconds from spawn to the first 200 on /api/v1/papers " +
      "(and the process's CPU seconds by then), and to /readyz 200 (start-up work done); " +
      "medians of warm starts",
  );
  console.log(
    "| start | first answer (s) | vs bare Node | CPU to first answer (s) | ready (s) | target (first answer) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  console.log(
    `| bare Node HTTP server | ${bareS.toFixed(2)} | 1.0 | ${cpu(median(bare.map((b) => b.cpu)))} | - | - |`,
  );
  console.log(
    `| quire serve, first (empty directory) | ${firstS.toFixed(2)} | ${figure("first ratio", firstS / bareS).toFixed(1)} | ${cpu(first.cpu)} | ${firstReadyS.toFixed(2)} | ${met(firstS, 5)} |`,
  );
  console.log(
    `| quire serve, warm | ${warmS.toFixed(2)} | ${figure("warm ratio", warmS / bareS).toFixed(1)} | ${cpu(median(warm.map((w) => w.cpu)))} | ${warmReadyS.toFixed(2)} | ${met(warmS, 1)} |`,
  );
  console.log(`warm starts: ${warm.map((w) => w.answer.toFixed(2)).join(", ")} s`);
  console.log(`warm starts, CPU: ${warm.map((w) => cpu(w.cpu)).join(", ")} s`);
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${availableParallelism()} cores`,
  );
  const nullable = (s: number) => (Number.isNaN(s) ? null : s);
  writeResult("start", {
    settings: { repeats: REPEATS, engine: "pglite", samplePapers: true },
    starts: [
      {
        start: "bare Node HTTP server",
        firstAnswerS: bareS,
        vsBare: 1,
        cpuToFirstAnswerS: nullable(median(bare.map((b) => b.cpu))),
        readyS: null,
        targetS: null,
        met: null,
      },
      {
        start: "quire serve, first (empty directory)",
        firstAnswerS: firstS,
        vsBare: firstS / bareS,
        cpuToFirstAnswerS: nullable(first.cpu),
        readyS: firstReadyS,
        targetS: 5,
        met: firstS <= 5,
      },
      {
        start: "quire serve, warm (median)",
        firstAnswerS: warmS,
        vsBare: warmS / bareS,
        cpuToFirstAnswerS: nullable(median(warm.map((w) => w.cpu))),
        readyS: warmReadyS,
        targetS: 1,
        met: warmS <= 1,
      },
    ],
    warmStartsS: warm.map((w) => w.answer),
  });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
