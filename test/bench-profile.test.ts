import { describe, expect, it } from "vitest";
import { kindOf, profileLines, profileWhile, summarise } from "../bench/lib/profile.ts";

const frame = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0 });

describe("the benchmarks' profile summary", () => {
  it("sorts frames into kinds by where their code lives", () => {
    expect(kindOf(frame("(garbage collector)"))).toBe("garbage collection");
    expect(kindOf(frame("(idle)"))).toBe("idle");
    expect(kindOf(frame("writev"))).toBe("socket writes");
    expect(kindOf(frame("compose", "file:///x/node_modules/hono/dist/compose.js"))).toBe("Hono");
    expect(kindOf(frame("f", "file:///x/node_modules/@hono/node-server/dist/index.mjs"))).toBe(
      "@hono/node-server",
    );
    expect(kindOf(frame("parse", "node:internal/url"))).toBe(
      "Node internals (HTTP, streams, timers)",
    );
    expect(kindOf(frame("urlTextIssues", "file:///x/src/text.ts"))).toBe("Quire");
  });

  it("gives each sample the time to the next one and ranks kinds and functions by it", () => {
    const summary = summarise({
      nodes: [
        { id: 1, callFrame: frame("(idle)") },
        { id: 2, callFrame: frame("writev") },
        { id: 3, callFrame: frame("handler", "file:///x/src/app.ts") },
      ],
      samples: [2, 3, 3, 1, 2],
      timeDeltas: [0, 100, 300, 200, 400],
    });
    // writev: 100 (its first sample) + 0 (the last has no next); handler 300 + 200; idle 400.
    expect(summary.totalUs).toBe(1000);
    expect(summary.idleUs).toBe(400);
    expect(summary.kinds[0]).toEqual({ kind: "Quire", us: 500 });
    expect(summary.functions.map((f) => [f.name, f.us])).toEqual([
      ["handler (app.ts:1)", 500],
      ["(idle)", 400],
      ["writev", 100],
    ]);
    const lines = profileLines(summary, 10);
    expect(lines[0]).toContain("busy 1 ms of 1 ms sampled (40.0 % idle), 10 answers: 60.0 µs");
    expect(
      lines.some((l) => l.includes("83.3 %") && l.includes("50.0 µs") && l.includes("Quire")),
    ).toBe(true);
    expect(lines.some((l) => l.includes("idle ") && l.includes("[idle]"))).toBe(false);
  });

  it("profiles this thread while the work runs and returns the work's result", async () => {
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      let x = 0;
      while (performance.now() < end) x += Math.sqrt(x + 1);
      return x;
    };
    const { result, summary } = await profileWhile(async () => spin(200) > 0);
    expect(result).toBe(true);
    expect(summary.totalUs).toBeGreaterThan(100_000);
    expect(summary.functions.some((f) => f.name.startsWith("spin"))).toBe(true);
  });
});
