/**
 * End to end: `npm start` as a real process, exercised over real HTTP, stopped with SIGTERM
 * and started again on the same data directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sampleTitles } from "../src/testing/samples.ts";
import { freePort } from "../src/testing/scratch.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
}

const running: ChildProcess[] = [];
const tempDirs: string[] = [];

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (!alive(child)) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

async function npmStart(dataDir: string): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "BASE_URL", "HOST", "SEED_SAMPLES", "VITEST"]) {
    delete env[key];
  }
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!alive(child)) throw new Error(`npm start exited early:\n${output}`);
    try {
      // Ready, not only listening: the sample papers are seeded after the server listens.
      const response = await fetch(`${base}/readyz`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, base, output: () => output };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * SIGTERM to the whole group (npm, its shell, node) and wait until every process in it is
 * gone: npm itself may exit before the server finishes closing. Resolves with the time taken.
 */
async function stop(started: Started): Promise<number> {
  const { child } = started;
  const pgid = child.pid!;
  const t0 = Date.now();
  process.kill(-pgid, "SIGTERM");
  await Promise.race([exited(child), new Promise((r) => setTimeout(r, 10_000).unref())]);
  while (groupAlive(pgid) && Date.now() - t0 < 10_000) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (alive(child) || groupAlive(pgid)) {
    throw new Error(`not stopped within 10 s:\n${started.output()}`);
  }
  return Date.now() - t0;
}

async function getJson(url: string): Promise<{ status: number; type: string; body: unknown }> {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    body: await response.json(),
  };
}

interface ListBody {
  papers: { id: string; title: string; ai_model: string; version: number }[];
  next_cursor: string | null;
}
interface DetailBody {
  paper: { id: string; title: string; abstract: string; versions: unknown[] };
  version: { version: number; title: string; abstract: string; body: string; ai_model: string };
}
interface ContextBody {
  paper_id: string;
  version: number;
  chunks: {
    chunk_index: number;
    field: "title" | "abstract" | "body";
    start: number;
    end: number;
    content: string;
  }[];
}

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (alive(child)) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await exited(child);
    }
  }
});

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("npm start, end to end", () => {
  it("serves the seeded archive over HTTP, stops on SIGTERM and keeps its data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "quire-e2e-"));
    tempDirs.push(dataDir);
    // The LaTeX sample's line has no title: it comes from the source's \title.
    const titles = await sampleTitles();
    expect(titles).toHaveLength(14);

    const first = await npmStart(dataDir);
    expect(existsSync(join(dataDir, "quire.pid"))).toBe(true);

    const list = await getJson(`${first.base}/api/v1/papers`);
    expect(list.status).toBe(200);
    expect(list.type).toMatch(/^application\/json/);
    const { papers, next_cursor } = list.body as ListBody;
    expect(papers).toHaveLength(14);
    expect(next_cursor).toBeNull();
    expect(new Set(papers.map((p) => p.title))).toEqual(new Set(titles));
    expect(new Set(papers.map((p) => p.id)).size).toBe(14);
    for (const p of papers) expect(p.id).toMatch(/^\d{4}\.\d{5}$/);

    // Rate limits are on, at the contract's quota, and say so.
    const limited = await fetch(`${first.base}/api/v1/papers?limit=1`);
    await limited.arrayBuffer();
    expect(limited.headers.get("ratelimit-policy")).toBe('"reads";q=120;w=60');
    expect(limited.headers.get("ratelimit")).toMatch(/^"reads";r=\d+;t=\d+$/);

    for (const item of papers) {
      const detail = await getJson(`${first.base}/api/v1/papers/${item.id}`);
      expect(detail.status).toBe(200);
      const { paper, version } = detail.body as DetailBody;
      expect(paper.id).toBe(item.id);
      expect(paper.title).toBe(item.title);
      expect(version.title).toBe(item.title);
      expect(version.version).toBe(1);
      expect(version.abstract.length).toBeGreaterThan(200);
      expect(version.body).toMatch(/^## /m);

      const context = await getJson(`${first.base}/api/v1/papers/${item.id}/context`);
      expect(context.status).toBe(200);
      const ctx = context.body as ContextBody;
      expect(ctx.paper_id).toBe(item.id);
      expect(ctx.version).toBe(version.version);
      expect(ctx.chunks.map((c) => c.chunk_index)).toEqual(ctx.chunks.map((_, i) => i));
      const joined = (field: ContextBody["chunks"][number]["field"]) =>
        ctx.chunks
          .filter((c) => c.field === field)
          .map((c) => c.content)
          .join("");
      expect(joined("title")).toBe(version.title);
      expect(joined("abstract")).toBe(version.abstract);
      expect(joined("body")).toBe(version.body);
    }

    const openapi = await getJson(`${first.base}/api/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    const doc = openapi.body as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/papers", "/api/v1/papers/{id}", "/api/v1/openapi.json"]),
    );

    const missing = await getJson(`${first.base}/api/v1/papers/0101.00001`);
    expect(missing.status).toBe(404);
    expect(missing.type).toMatch(/^application\/problem\+json/);
    expect(missing.body).toMatchObject({ status: 404 });
    expect((missing.body as { detail?: string }).detail).toContain("0101.00001");

    expect(await stop(first)).toBeLessThan(10_000);
    // The server closed gracefully: it released the data directory on its way out.
    expect(existsSync(join(dataDir, "quire.pid"))).toBe(false);

    const second = await npmStart(dataDir);
    const again = await getJson(`${second.base}/api/v1/papers`);
    expect(again.status).toBe(200);
    const relisted = (again.body as ListBody).papers;
    expect(relisted).toHaveLength(14);
    expect(relisted.map((p) => p.id).sort()).toEqual(papers.map((p) => p.id).sort());
    expect(await stop(second)).toBeLessThan(10_000);
    expect(existsSync(join(dataDir, "quire.pid"))).toBe(false);
  }, 240_000);
});
