/**
 * The `quire` command end to end: each test runs the real `node bin/quire.js …` as a child
 * process against a fresh embedded data directory, and checks exit codes and output.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startFakeChatServer } from "../testing/chat-server.ts";
import { paperInput } from "../testing/factories.ts";
import { freePort } from "../testing/scratch.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin", "quire.js");

/** Generous: the first command on a fresh directory initialises the database (~5 s, more on a busy machine). */
const COMMAND_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 300_000;

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const tempDirs: string[] = [];
const children: ChildProcess[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "quire-cli-"));
  tempDirs.push(dir);
  return dir;
}

function baseEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The parent's configuration must not leak in (e.g. a DATABASE_URL would bypass DATA_DIR).
  for (const key of ["DATABASE_URL", "PORT", "HOST", "BASE_URL", "NODE_OPTIONS", "VITEST"]) {
    delete env[key];
  }
  return { ...env, DATA_DIR: dataDir, SEED_SAMPLES: "false", LOG_LEVEL: "warn", ...extra };
}

function quire(
  args: string[],
  dataDir: string,
  extraEnv: Record<string, string> = {},
): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: ROOT,
        env: baseEnv(dataDir, extraEnv),
        timeout: COMMAND_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      },
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

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no attempt yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited early (code ${child.exitCode}, ${child.signalCode})`);
    }
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}

const SECTIONS = (intro: string, method: string, results: string, close: string) =>
  `## Introduction\n\n${intro}\n\n## Method\n\n${method}\n\n## Results\n\n${results}\n\n## Discussion\n\n${close}\n`;

/** Five clearly different, realistic papers that pass the rule screener. */
const PAPERS = [
  {
    title: "Adaptive Step Sizes for Stochastic Gradient Descent on Sparse Logistic Regression",
    abstract:
      "We study how adaptive step-size rules behave when stochastic gradient descent is used to fit sparse logistic regression models on text classification data. Comparing a fixed schedule, AdaGrad and a simple line search on three public corpora, we find that AdaGrad reaches a given validation loss in fewer passes when features are rare, while the fixed schedule is competitive once the vocabulary is pruned.",
    body: SECTIONS(
      "Logistic regression remains a strong baseline for document classification, and it is usually trained with some variant of stochastic gradient descent. The choice of step size matters more than is often acknowledged, especially when most features appear in only a handful of documents.",
      "We train on bag-of-words vectors with L1 regularisation and compare three rules for the step size. Each configuration is run with five random seeds, and we record the number of passes needed to reach a fixed validation loss.",
      "AdaGrad needed roughly forty percent fewer passes on the unpruned vocabularies. After pruning words that occur fewer than five times, the advantage largely disappeared and the fixed schedule matched it.",
      "Per-coordinate adaptation helps exactly where the gradient signal for a coordinate is rare. Practitioners who prune aggressively can keep the simpler schedule without much loss.",
    ),
    ai_model: "claude-opus-4",
    license: "CC-BY-4.0",
    keywords: ["optimization", "logistic regression", "sparse features"],
  },
  {
    title: "Estimating Tree Canopy Cover from Street-Level Photographs in Mid-Sized Cities",
    abstract:
      "Urban planners need inexpensive estimates of tree canopy cover at the scale of individual streets. We describe a procedure that segments vegetation in street-level photographs, aggregates the visible green fraction along each block, and calibrates the result against aerial survey data from two mid-sized cities, reaching a median absolute error of six percentage points.",
    body: SECTIONS(
      "Aerial surveys of canopy cover are accurate but expensive and infrequent. Street-level imagery is collected far more often, and it records the trees that pedestrians actually experience along a sidewalk.",
      "Each photograph is segmented into vegetation, sky, buildings and road with an off-the-shelf model. The green fraction is averaged over all photographs within a block and mapped to canopy cover with an isotonic regression fitted on one city.",
      "On the held-out city the median absolute error was six percentage points, and errors were largest on blocks dominated by private gardens set back from the street.",
      "The method is cheap to repeat every year, which makes it suitable for tracking change rather than for a single precise inventory of the urban forest.",
    ),
    ai_model: "gpt-5",
    license: "CC-BY-4.0",
    keywords: ["urban forestry", "computer vision", "remote sensing"],
  },
  {
    title: "A Survey of Write-Ahead Logging Strategies in Embedded Key-Value Stores",
    abstract:
      "Embedded key-value stores must survive power loss without the help of a separate database server. This survey compares how six widely deployed engines organise their write-ahead logs, when they force data to stable storage, and how they recover, and it discusses the trade-off each design makes between commit latency, write amplification and the length of recovery after a crash.",
    body: SECTIONS(
      "Applications on phones, routers and desktop computers increasingly keep their state in an embedded storage engine. Durability then depends entirely on how that engine writes its log and when it asks the operating system to flush it.",
      "We read the documentation and source code of six engines and classify their logging along three axes: record granularity, the flush policy at commit, and the checkpointing scheme that bounds the size of the log.",
      "Group commit appears in every engine that targets servers, while engines aimed at mobile devices favour smaller logs and shorter recovery over raw throughput. Two engines allow the flush policy to be relaxed per transaction.",
      "No single design dominates. The right choice depends on whether the workload is dominated by many small transactions or by a few large batch writes.",
    ),
    ai_model: "gemini-2.5-pro",
    license: "CC-BY-SA-4.0",
    keywords: ["databases", "durability", "storage engines"],
  },
  {
    title: "Seasonal Patterns in Bicycle Sharing Demand: A Case Study of Weather Effects",
    abstract:
      "Bicycle sharing operators rebalance their fleets every night, so forecasts of next-day demand translate directly into operating costs. Using three years of trip records joined with hourly weather observations, we show that temperature and rainfall explain most of the seasonal variation, and that a model with only these two covariates forecasts daily demand almost as well as a gradient boosted ensemble.",
    body: SECTIONS(
      "Demand for shared bicycles varies strongly over the year, and operators plan staff and trucks around that variation. Weather is the obvious driver, but its effect is rarely separated from the calendar.",
      "We aggregate trips by day, join them with temperature, rainfall and wind speed, and fit a generalised additive model alongside a boosted tree ensemble that also sees holidays and school terms.",
      "Temperature and rainfall alone explained eighty-one percent of the variance in daily trips. The ensemble improved the forecast error by only three percent while being much harder to interpret.",
      "Simple weather models are a sensible default for fleet planning. Calendar effects matter mostly around public holidays, which can be handled with a short list of exceptions.",
    ),
    ai_model: "claude-sonnet-4",
    license: "CC0-1.0",
    keywords: ["transportation", "forecasting", "time series"],
  },
  {
    title: "Teaching Recursion with Physical Puzzles in Introductory Programming Courses",
    abstract:
      "Students in introductory programming courses often struggle to trace recursive functions. We report on a classroom intervention in which students first solved nested cup and disc puzzles by hand before writing code, and we compare exam performance on recursion questions with a previous cohort taught only with slides and worked examples on the whiteboard.",
    body: SECTIONS(
      "Recursion is a threshold concept: once understood it reshapes how students think about problems, but many never cross that threshold in their first course.",
      "In weekly labs, students manipulated physical puzzles whose solutions are naturally recursive, described each step aloud to a partner, and only then translated the procedure into a function in Python.",
      "On the final exam the intervention cohort answered recursion questions correctly more often than the previous cohort, with the largest gain on questions that asked students to predict the order of calls.",
      "The comparison is between cohorts rather than a randomised trial, so other differences between the years may explain part of the effect. We describe the materials so others can try them.",
    ),
    ai_model: "llama-4-maverick",
    license: "CC-BY-4.0",
    keywords: ["computing education", "recursion", "active learning"],
  },
];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited(child);
    }
  }
});

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("quire CLI", () => {
  it(
    "prints usage and exits 2 without a command, and on an unknown command",
    async () => {
      const dir = freshDir();
      const none = await quire([], dir);
      expect(none.code).toBe(2);
      expect(none.stdout).toContain("Usage: quire <command>");
      expect(none.stdout).toContain("agents create --owner H --name N --model M");

      const unknown = await quire(["frobnicate"], dir);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown command "frobnicate"');
      expect(unknown.stderr).toContain("Usage: quire <command>");
      expect(unknown.stdout).toBe("");

      const help = await quire(["--help"], dir);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("Usage: quire <command>");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "exits 2 and names the variable when the configuration is bad, without touching DATA_DIR",
    async () => {
      const dataDir = join(freshDir(), "never-created");
      const commands = [
        ["serve"],
        ["owners", "create", "--handle", "alice", "--email", "alice@example.org"],
        ["agents", "create", "--owner", "alice", "--name", "bot", "--model", "m1"],
        ["import", "papers.jsonl"],
      ];
      for (const args of commands) {
        const result = await quire(args, dataDir, { PORT: "abc" });
        expect(result.code, `quire ${args.join(" ")}`).toBe(2);
        expect(result.stderr).toMatch(/Invalid configuration/);
        expect(result.stderr).toMatch(/^\s+PORT: /m);
        expect(result.stdout).toBe("");
      }
      const outOfRange = await quire(["serve"], dataDir, { PORT: "70000" });
      expect(outOfRange.code).toBe(2);
      expect(outOfRange.stderr).toMatch(/PORT: /);
      expect(existsSync(dataDir)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "creates owners and agents, and suspends and re-verifies an agent",
    async () => {
      const dir = freshDir();

      const created = await quire(
        ["owners", "create", "--handle", "alice", "--email", "alice@example.org", "--verified"],
        dir,
      );
      expect(created.stderr).toBe("");
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^created owner alice \(own_[0-9A-Za-z]+\), verified\n$/);

      const duplicate = await quire(
        ["owners", "create", "--handle", "alice", "--email", "other@example.org"],
        dir,
      );
      expect(duplicate.code).toBe(1);
      expect(duplicate.stderr).toMatch(/^quire: That handle or email is already taken\.\n$/);
      expect(duplicate.stdout).toBe("");

      const missingEmail = await quire(["owners", "create", "--handle", "carol"], dir);
      expect(missingEmail.code).toBe(2);
      expect(missingEmail.stderr).toContain("owners create needs --handle and --email");
      expect(missingEmail.stderr).toContain("Usage: quire <command>");

      const agent = await quire(
        ["agents", "create", "--owner", "alice", "--name", "bot", "--model", "m1"],
        dir,
      );
      expect(agent.code).toBe(0);
      const lines = agent.stdout.split("\n").filter((line) => line !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
      expect(agent.stdout).toBe(`${lines[0]}\n`);
      // The key goes to stdout only; stderr carries the id and never the key.
      const idMatch = /created agent (agt_[0-9A-Za-z]+) \(verified\)/.exec(agent.stderr);
      expect(idMatch, agent.stderr).not.toBeNull();
      expect(agent.stderr).not.toContain(lines[0]);
      const agentId = idMatch![1]!;

      const second = await quire(
        ["agents", "create", "--owner", "alice", "--name", "bot2", "--model", "m1"],
        dir,
      );
      expect(second.code).toBe(0);
      expect(second.stdout.trim()).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
      expect(second.stdout.trim()).not.toBe(lines[0]);

      const orphan = await quire(
        ["agents", "create", "--owner", "nobody", "--name", "bot", "--model", "m1"],
        dir,
      );
      expect(orphan.code).toBe(1);
      expect(orphan.stderr).toContain('No owner has the handle "nobody"');
      expect(orphan.stdout).toBe("");

      const suspended = await quire(["agents", "suspend", agentId, "--reason", "spam"], dir);
      expect(suspended.stderr).toBe("");
      expect(suspended.code).toBe(0);
      expect(suspended.stdout).toBe(`agent ${agentId} is now suspended\n`);

      const verified = await quire(["agents", "verify", agentId], dir);
      expect(verified.stderr).toBe("");
      expect(verified.code).toBe(0);
      expect(verified.stdout).toBe(`agent ${agentId} is now verified\n`);

      const suspendWithoutReason = await quire(["agents", "suspend", agentId], dir);
      expect(suspendWithoutReason.code).toBe(2);
      expect(suspendWithoutReason.stderr).toContain("agents suspend needs --reason");

      const unknownAgent = await quire(["agents", "verify", "agt_doesnotexist"], dir);
      expect(unknownAgent.code).toBe(1);
      expect(unknownAgent.stderr).toContain('No agent has the id "agt_doesnotexist"');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "sets an owner's role (moderator or owner), case-insensitively by handle",
    async () => {
      const dir = freshDir();
      const created = await quire(
        ["owners", "create", "--handle", "alice", "--email", "alice@example.org", "--verified"],
        dir,
      );
      expect(created.code).toBe(0);
      const promoted = await quire(["owners", "set-role", "ALICE", "moderator"], dir);
      expect(promoted.stderr).toBe("");
      expect(promoted.code).toBe(0);
      expect(promoted.stdout).toBe("alice is now a moderator\n");
      const again = await quire(["owners", "set-role", "alice", "moderator"], dir);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe("alice was already a moderator; nothing changed\n");
      const demoted = await quire(["owners", "set-role", "alice", "owner"], dir);
      expect(demoted.stdout).toBe("alice is now an owner (not a moderator)\n");
      const badRole = await quire(["owners", "set-role", "alice", "admin"], dir);
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toContain("owners set-role HANDLE moderator|owner");
      const nobody = await quire(["owners", "set-role", "nobody", "moderator"], dir);
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toContain('No owner has the handle "nobody"');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "imports JSONL, names bad lines by number, and is idempotent on a rerun",
    async () => {
      const dir = freshDir();
      const file = join(freshDir(), "papers.jsonl");
      const [p1, p2, p3, p4, p5] = PAPERS.map((p) => JSON.stringify(p));
      const { title: _dropped, ...untitled } = PAPERS[0]!;
      const lines = [
        p1, // 1
        p2, // 2
        '{"title": "Broken record", "abstract": ', // 3: not JSON
        p3, // 4
        "", // 5: blank, skipped silently
        JSON.stringify({ ...untitled, abstract: `${untitled.abstract} (no title)` }), // 6
        p4, // 7
        p5, // 8
      ];
      writeFileSync(file, `${lines.join("\n")}\n`);

      const first = await quire(["import", file], dir);
      expect(first.code).toBe(1);
      expect(first.stderr).toContain(`${file}:3: invalid: not valid JSON`);
      expect(first.stderr).toMatch(new RegExp(`${escapeRegExp(file)}:6: invalid: title: `));
      expect(first.stderr).not.toContain(`${file}:5:`);
      for (const good of [1, 2, 4, 7, 8]) expect(first.stderr).not.toContain(`${file}:${good}:`);
      expect(first.stdout).toMatch(
        /^published 5, already imported 0, rejected 0, invalid lines 2 \(published with warnings: \d+\)\n$/,
      );

      const again = await quire(["import", file], dir);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`${file}:3: invalid: not valid JSON`);
      expect(again.stdout).toMatch(
        /^published 0, already imported 5, rejected 0, invalid lines 2 \(published with warnings: 0\)\n$/,
      );

      const clean = join(freshDir(), "clean.jsonl");
      writeFileSync(clean, `${p2}\n${p5}\n`);
      const cleanRun = await quire(["import", clean], dir);
      expect(cleanRun.code).toBe(0);
      expect(cleanRun.stdout).toMatch(
        /^published 0, already imported 2, rejected 0, invalid lines 0/,
      );

      const missing = join(dir, "no-such-file.jsonl");
      const absent = await quire(["import", missing], dir);
      expect(absent.code).toBe(1);
      expect(absent.stderr).toContain(`no such file: ${missing}`);
      expect(absent.stdout).toBe("");

      const noFile = await quire(["import"], dir);
      expect(noFile.code).toBe(2);
      expect(noFile.stderr).toContain("import takes one file");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "refuses a second process on a data directory the server holds, until it stops",
    async () => {
      const dir = freshDir();
      const port = await freePort();
      const server = spawn(process.execPath, [BIN, "serve"], {
        cwd: ROOT,
        env: baseEnv(dir, { PORT: String(port), HOST: "127.0.0.1" }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(server);
      let serverOutput = "";
      server.stdout?.on("data", (chunk) => {
        serverOutput += String(chunk);
      });
      server.stderr?.on("data", (chunk) => {
        serverOutput += String(chunk);
      });

      await waitForHttp(`http://127.0.0.1:${port}/api/v1/papers`, server, 90_000);
      expect(existsSync(join(dir, "quire.pid"))).toBe(true);

      const blocked = await quire(
        ["owners", "create", "--handle", "alice", "--email", "alice@example.org"],
        dir,
      );
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toContain("is in use");
      expect(blocked.stderr).toContain(`in use by process ${server.pid}`);
      expect(blocked.stderr).toContain(dir);

      const stopped = exited(server);
      expect(server.kill("SIGTERM")).toBe(true);
      const status = await stopped;
      expect(status, serverOutput).toEqual({ code: 0, signal: null });
      expect(existsSync(join(dir, "quire.pid"))).toBe(false);

      const after = await quire(
        ["owners", "create", "--handle", "alice", "--email", "alice@example.org"],
        dir,
      );
      expect(after.stderr).toBe("");
      expect(after.code).toBe(0);
      expect(after.stdout).toMatch(/^created owner alice \(own_[0-9A-Za-z]+\)\n$/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "import asks the LLM screener only with --llm-screening, which needs SCREENER_URL",
    async () => {
      const dir = freshDir();
      const line = (n: number) =>
        `${JSON.stringify(paperInput({ title: `Imported paper ${n}` }))}\n`;
      const first = join(dir, "first.jsonl");
      const second = join(dir, "second.jsonl");
      writeFileSync(first, line(1));
      writeFileSync(second, line(2));
      const unset = await quire(["import", first, "--llm-screening"], dir);
      expect(unset.code).toBe(2);
      expect(unset.stderr).toContain("--llm-screening needs SCREENER_URL and SCREENER_MODEL");

      const llm = await startFakeChatServer({
        kind: "verdict",
        verdict: "reject",
        reasons: [{ code: "spam", message: "Reads like an advertisement." }],
      });
      try {
        const env = { SCREENER_URL: llm.url, SCREENER_MODEL: "judge-1" };
        const plain = await quire(["import", first], dir, env);
        expect(plain.code, plain.stderr).toBe(0);
        expect(plain.stdout).toContain("published 1,");
        expect(llm.requests).toHaveLength(0);
        const asked = await quire(["import", second, "--llm-screening"], dir, env);
        expect(asked.code).toBe(1);
        expect(asked.stderr).toContain(`${second}:1: rejected: `);
        expect(asked.stderr).toContain("reject: Reads like an advertisement.");
        expect(llm.requests).toHaveLength(1);
      } finally {
        await llm.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
