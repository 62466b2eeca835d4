/**
 * @module Where a benchmark's server thread spends its time: the V8 sampling profiler of this
 * very thread (node:inspector, no files, no flags), summed by self time into a few kinds of
 * work and the functions that cost the most. Benchmarks print it beside a target they missed,
 * so the reason is measured in the same run as the figure.
 */
import { Session } from "node:inspector/promises";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time of the profiled thread, in microseconds, by kind and by function. */
export interface ProfileSummary {
  /** Sampled time in all, idle included. */
  totalUs: number;
  /** Time the thread was idle (waiting for I/O). */
  idleUs: number;
  kinds: { kind: string; us: number }[];
  functions: { name: string; kind: string; us: number }[];
}

/** Runs `work` under the sampling profiler (100 µs interval) and summarises the thread's time. */
export async function profileWhile<T>(
  work: () => Promise<T>,
): Promise<{ result: T; summary: ProfileSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
    let profile: CpuProfile | undefined;
    let result: T;
    try {
      result = await work();
    } finally {
      ({ profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile });
    }
    return { result, summary: summarise(profile) };
  } finally {
    session.disconnect();
  }
}

const SOCKET_WRITES = new Set([
  "writev",
  "writeBuffer",
  "writeUtf8String",
  "writeLatin1String",
  "writeAsciiString",
  "writeGeneric",
  "writevGeneric",
  "handleWriteReq",
  "_writeGeneric",
  "_writev",
]);

/** The kind of work a frame does, by where its code lives. */
export function kindOf(frame: ProfileNode["callFrame"]): string {
  const { functionName: name, url } = frame;
  if (name === "(garbage collector)") return "garbage collection";
  if (name === "(idle)") return "idle";
  if (name === "(program)" || name === "(root)") return "V8 and native (unattributed)";
  if (SOCKET_WRITES.has(name)) return "socket writes";
  if (url.includes("/@hono/node-server/")) return "@hono/node-server";
  if (url.includes("/hono/")) return "Hono";
  if (url.includes("/@electric-sql/pglite")) return "PGlite";
  if (url.includes("/pg/") || url.includes("/pg-protocol/")) return "node-postgres";
  if (url.includes("/pino")) return "logging (pino)";
  if (url.includes("/node_modules/")) return "other libraries";
  if (url.startsWith("node:") || url === "") return "Node internals (HTTP, streams, timers)";
  return "Quire";
}

function location(frame: ProfileNode["callFrame"]): string {
  if (!frame.url) return "";
  const file = frame.url.startsWith("file:") ? fileURLToPath(frame.url) : frame.url;
  return ` (${basename(file)}:${frame.lineNumber + 1})`;
}

export function summarise(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const kinds = new Map<string, number>();
  const functions = new Map<string, { kind: string; us: number }>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    // timeDeltas[i + 1] is the time from this sample to the next: this sample's share.
    const us = profile.timeDeltas[i + 1] ?? 0;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    totalUs += us;
    const kind = kindOf(frame);
    kinds.set(kind, (kinds.get(kind) ?? 0) + us);
    const name = `${frame.functionName || "(anonymous)"}${location(frame)}`;
    const entry = functions.get(name) ?? { kind, us: 0 };
    entry.us += us;
    functions.set(name, entry);
  });
  const sorted = <V extends { us: number }>(list: V[]) => list.sort((a, b) => b.us - a.us);
  return {
    totalUs,
    idleUs: kinds.get("idle") ?? 0,
    kinds: sorted([...kinds].map(([kind, us]) => ({ kind, us }))),
    functions: sorted([...functions].map(([name, f]) => ({ name, ...f }))),
  };
}

/**
 * The summary as lines: each kind's share of the busy (non-idle) time and its microseconds per
 * answer, then the `top` costliest functions the same way.
 */
export function profileLines(summary: ProfileSummary, answers: number, top = 10): string[] {
  const busy = summary.totalUs - summary.idleUs;
  const share = (us: number) => `${((us / Math.max(1, busy)) * 100).toFixed(1).padStart(5)} %`;
  const perAnswer = (us: number) => `${(us / Math.max(1, answers)).toFixed(1).padStart(6)} µs`;
  const lines = [
    `    busy ${(busy / 1000).toFixed(0)} ms of ${(summary.totalUs / 1000).toFixed(0)} ms sampled (${((summary.idleUs / Math.max(1, summary.totalUs)) * 100).toFixed(1)} % idle), ${answers} answers: ${(busy / Math.max(1, answers)).toFixed(1)} µs of this thread per answer`,
    "    by kind (share of busy time, per answer):",
  ];
  for (const { kind, us } of summary.kinds) {
    if (kind !== "idle") lines.push(`      ${share(us)}  ${perAnswer(us)}  ${kind}`);
  }
  lines.push(`    top ${top} functions by self time:`);
  for (const f of summary.functions.filter((f) => f.kind !== "idle").slice(0, top)) {
    lines.push(`      ${share(f.us)}  ${perAnswer(f.us)}  ${f.name} [${f.kind}]`);
  }
  return lines;
}
