/**
 * startPeriodicPrune, driven step by step through its timers (no waiting on real time), on a
 * real database: when it runs, that it logs instead of throwing, and that stop() ends it.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../../db/client.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { publishFigurePaper } from "../../testing/figure-papers.ts";
import type { ServiceContext } from "../context.ts";
import { filesUsage } from "../files/index.ts";
import { type PruneTimers, startPeriodicPrune } from "./index.ts";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/** Timers that only fire when the test says so. */
function manualTimers() {
  const pending: { run: () => void; ms: number; cleared: boolean }[] = [];
  const timers: PruneTimers = {
    set: (run, ms) => {
      const timer = { run, ms, cleared: false };
      pending.push(timer);
      return timer;
    },
    clear: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
  /** The timers still waiting: neither cleared nor fired. */
  const live = () => pending.filter((t) => !t.cleared);
  const fire = () => {
    const [next] = live();
    if (!next) throw new Error("no timer is waiting");
    next.cleared = true;
    next.run();
  };
  return { timers, pending, live, fire };
}

function capturingContext(overrides: Partial<ServiceContext> = {}) {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const ctx = {
    ...testContext(database, { logger: pino({ level: "debug" }, sink) }),
    ...overrides,
  };
  return { ctx, lines };
}

/** Lets the callbacks a timer started (the prune, then the next schedule) run to their end. */
async function settle(prune: { runNow(): Promise<unknown> }) {
  await prune.runNow();
}

describe("startPeriodicPrune", () => {
  it("runs first after the first delay, then every interval, as the operator; stop() ends it", async () => {
    const { timers, pending, live, fire } = manualTimers();
    const { ctx, lines } = capturingContext();
    const prune = startPeriodicPrune(ctx, { intervalMs: 600_000, firstDelayMs: 60_000, timers });
    expect(pending.map((t) => t.ms)).toEqual([60_000]);

    fire();
    await settle(prune);
    // Once the run ends, the next one is set an interval later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(live().map((t) => t.ms)).toEqual([600_000]);
    expect(lines.some((l) => l.msg === "pruned the stores past retention")).toBe(true);

    await prune.stop();
    expect(live()).toEqual([]);
    // A stopped schedule sets no new timer, even if a run is asked for.
    await prune.runNow();
    expect(live()).toEqual([]);
  });

  it("warns while the file store is at 90 % of FILES_MAX_MB or more, and not below", async () => {
    await publishFigurePaper(testContext(database), 5);
    const { bytes } = await filesUsage(database.db);
    const near = (filesMaxBytes: number) => {
      const { timers } = manualTimers();
      const { ctx, lines } = capturingContext();
      const settings = { ...ctx.settings, filesMaxBytes };
      return {
        prune: startPeriodicPrune({ ...ctx, settings }, { intervalMs: 600_000, timers }),
        lines,
      };
    };
    const full = near(Math.ceil(bytes / 0.95));
    await full.prune.runNow();
    const warning = full.lines.find((l) => l.msg.startsWith("a store is near its bound"));
    expect(warning).toMatchObject({ level: 40, store: "files", bytes });
    await full.prune.stop();

    const roomy = near(bytes * 2);
    await roomy.prune.runNow();
    expect(roomy.lines.some((l) => l.msg.startsWith("a store is near its bound"))).toBe(false);
    await roomy.prune.stop();
  });

  it("takes the interval for the first run when the interval is shorter", () => {
    const { timers, pending } = manualTimers();
    const { ctx } = capturingContext();
    const prune = startPeriodicPrune(ctx, { intervalMs: 5_000, timers });
    expect(pending.map((t) => t.ms)).toEqual([5_000]);
    void prune.stop();
  });

  it("logs a failed run instead of throwing, and schedules the next one", async () => {
    const { timers, live, fire } = manualTimers();
    // A database that cannot even be asked: every prune fails.
    const { ctx, lines } = capturingContext({ db: {} as Db });
    const prune = startPeriodicPrune(ctx, { intervalMs: 600_000, firstDelayMs: 1, timers });
    fire();
    await expect(prune.runNow()).resolves.toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    const failure = lines.find((l) => l.msg === "prune failed; the next one runs as scheduled");
    expect(failure?.level).toBe(50);
    expect(live().map((t) => t.ms)).toEqual([600_000]);
    await prune.stop();
  });
});
