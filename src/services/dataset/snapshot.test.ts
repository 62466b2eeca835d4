/** @module Dataset snapshots: published hashes follow the corpus; downloads never lie. */
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { desc, eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database, Db } from "../../db/client.ts";
import { datasetSnapshots, owners, papers } from "../../db/schema/index.ts";
import { validateCroissant } from "../../testing/croissant-validator.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { publishVersion } from "../papers/index.ts";
import { buildCroissant } from "./croissant.ts";
import { ExportDrifted, type ExportKind, exportBatches, verifiedExport } from "./export.ts";
import { currentSnapshot, openExport, readCorpusState, snapshotDigest } from "./snapshot.ts";

let database: Database;
let ctx: ServiceContext;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  ctx = testContext(database, { logger: pino({ level: "debug" }, sink) });
  for (let i = 0; i < 4; i++) await publishPaper(ctx);
});
afterAll(async () => database.close());

async function exportDigest(kind: ExportKind) {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const batch of exportBatches(database.db, kind, { baseUrl: ctx.settings.baseUrl })) {
    hash.update(batch.bytes);
    bytes += batch.bytes.byteLength;
  }
  return { sha256: hash.digest("hex"), bytes };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

async function snapshotRows() {
  return database.db.select().from(datasetSnapshots);
}

describe("currentSnapshot", () => {
  it("publishes the sha256 and size of the exact export bytes", async () => {
    const snapshot = await currentSnapshot(ctx);
    expect(snapshotDigest(snapshot, "papers")).toEqual(await exportDigest("papers"));
    expect(snapshotDigest(snapshot, "chunks")).toEqual(await exportDigest("chunks"));
    expect(snapshot.paperCount).toBe(4);
    expect(snapshot.facets.languages.length).toBeGreaterThan(0);
    expect(snapshot.facets).toMatchObject({
      licenses: ["CC-BY-4.0"],
      aiModels: 1,
    });
    expect((await validateCroissant(buildCroissant("http://quire.test", snapshot))).errors).toEqual(
      [],
    );
  });

  it("is computed once per corpus state, however many ask at the same time", async () => {
    await publishPaper(ctx);
    const computedBefore = logs.filter((l) => l.msg === "dataset snapshot computed").length;
    const results = await Promise.all(Array.from({ length: 8 }, () => currentSnapshot(ctx)));
    expect(new Set(results.map((s) => s.id)).size).toBe(1);
    const computedAfter = logs.filter((l) => l.msg === "dataset snapshot computed").length;
    expect(computedAfter - computedBefore).toBe(1);
    const again = await currentSnapshot(ctx);
    expect(again.id).toBe(results[0]?.id);
    expect(logs.filter((l) => l.msg === "dataset snapshot computed").length).toBe(computedAfter);
  });

  it("moves with every change the exports can see, and only with those", async () => {
    const fingerprints = new Set<string>();
    const step = async () => {
      const state = await readCorpusState(ctx);
      fingerprints.add(state.fingerprint);
      const snapshot = await currentSnapshot(ctx);
      expect(snapshot.fingerprint).toBe(state.fingerprint);
      expect(snapshotDigest(snapshot, "papers")).toEqual(await exportDigest("papers"));
      expect(snapshotDigest(snapshot, "chunks")).toEqual(await exportDigest("chunks"));
      return snapshot;
    };
    const first = await step();
    expect((await readCorpusState(ctx)).fingerprint).toBe(first.fingerprint);

    const owner = await makeOwner(ctx);
    const { paper_id } = await publishPaper(ctx, { ownerId: owner.id });
    const published = await step();
    expect(published.papersSha256).not.toBe(first.papersSha256);
    expect(published.chunksSha256).not.toBe(first.chunksSha256);

    const operator = { ...ctx, caller: { kind: "operator" as const } };
    const revision = await publishVersion(operator, { ...paperInput(), paperId: paper_id });
    expect(revision.outcome).toBe("published");
    const revised = await step();
    expect(revised.papersSha256).not.toBe(published.papersSha256);
    expect(revised.chunksSha256).not.toBe(published.chunksSha256);

    await database.db
      .update(owners)
      .set({ handle: `${owner.handle}x` })
      .where(eq(owners.id, owner.id));
    const renamed = await step();
    expect(renamed.papersSha256).not.toBe(revised.papersSha256);
    expect(renamed.chunksSha256).toBe(revised.chunksSha256);
    expect(fingerprints.size).toBe(4);

    await database.db.update(papers).set({ status: "withdrawn" }).where(eq(papers.id, paper_id));
    const withdrawn = await step();
    // The same visible corpus as at first: the same state, the same snapshot row and bytes.
    expect(withdrawn.fingerprint).toBe(first.fingerprint);
    expect(withdrawn.id).toBe(first.id);
    expect(withdrawn.papersSha256).toBe(first.papersSha256);
  });

  it("depends on the base URL, which every record's url contains", async () => {
    const here = await readCorpusState(ctx);
    const elsewhere = await readCorpusState({
      ...ctx,
      settings: { ...ctx.settings, baseUrl: "https://mirror.example" },
    });
    expect(elsewhere.fingerprint).not.toBe(here.fingerprint);
  });

  it("keeps a bounded number of rows", async () => {
    for (let i = 0; i < 3; i++) {
      await publishPaper(ctx);
      await currentSnapshot(ctx);
    }
    expect((await snapshotRows()).length).toBeLessThanOrEqual(20);
  });
});

describe("openExport", () => {
  it("streams exactly the published bytes", async () => {
    for (const kind of ["papers", "chunks"] as const) {
      const opened = await openExport(ctx, kind);
      const body = await readAll(opened.body);
      expect(body.length).toBe(opened.digest.bytes);
      expect(createHash("sha256").update(body).digest("hex")).toBe(opened.digest.sha256);
    }
  });

  it("aborts instead of completing when the corpus moves during the download", async () => {
    const snapshot = await currentSnapshot(ctx);
    const stream = verifiedExport(database.db, "papers", {
      baseUrl: ctx.settings.baseUrl,
      batchRows: 1,
      expected: snapshotDigest(snapshot, "papers"),
    });
    const reader = stream.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await publishPaper(ctx);
    const read = async () => {
      for (;;) if ((await reader.read()).done) return;
    };
    await expect(read()).rejects.toBeInstanceOf(ExportDrifted);
  });

  it("ends drifted only after onDrift settles, and drifted even when onDrift fails", async () => {
    const snapshot = await currentSnapshot(ctx);
    const wrong = { ...snapshotDigest(snapshot, "papers"), sha256: "0".repeat(64) };
    const order: string[] = [];
    const settled = verifiedExport(database.db, "papers", {
      baseUrl: ctx.settings.baseUrl,
      expected: wrong,
      onDrift: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push("onDrift settled");
      },
    });
    await expect(
      readAll(settled).finally(() => order.push("stream errored")),
    ).rejects.toBeInstanceOf(ExportDrifted);
    expect(order).toEqual(["onDrift settled", "stream errored"]);
    const failing = verifiedExport(database.db, "papers", {
      baseUrl: ctx.settings.baseUrl,
      expected: wrong,
      onDrift: async () => {
        throw new Error("could not record the drift");
      },
    });
    await expect(readAll(failing)).rejects.toBeInstanceOf(ExportDrifted);
  });

  it("aborts when a paper not yet sent disappears, never exceeding the promised size", async () => {
    const snapshot = await currentSnapshot(ctx);
    const expected = snapshotDigest(snapshot, "papers");
    const [lastPaper] = await database.db
      .select({ id: papers.id })
      .from(papers)
      .where(eq(papers.status, "published"))
      .orderBy(desc(papers.id))
      .limit(1);
    const stream = verifiedExport(database.db, "papers", {
      baseUrl: ctx.settings.baseUrl,
      batchRows: 2,
      expected,
    });
    const reader = stream.getReader();
    let received = 0;
    const chunk = await reader.read();
    received += chunk.value?.byteLength ?? 0;
    await database.db
      .update(papers)
      .set({ status: "removed" })
      .where(eq(papers.id, lastPaper?.id ?? ""));
    const rest = async () => {
      for (;;) {
        const next = await reader.read();
        if (next.done) return;
        received += next.value.byteLength;
      }
    };
    await expect(rest()).rejects.toBeInstanceOf(ExportDrifted);
    expect(received).toBeLessThan(expected.bytes);
  });

  it("completes with the published bytes when only papers already sent change", async () => {
    const snapshot = await currentSnapshot(ctx);
    const expected = snapshotDigest(snapshot, "papers");
    const [firstPaper] = await database.db
      .select({ id: papers.id })
      .from(papers)
      .where(eq(papers.status, "published"))
      .orderBy(papers.id)
      .limit(1);
    const stream = verifiedExport(database.db, "papers", {
      baseUrl: ctx.settings.baseUrl,
      batchRows: 2,
      expected,
    });
    const reader = stream.getReader();
    const parts: Uint8Array[] = [];
    const head = await reader.read();
    if (head.value) parts.push(head.value);
    await database.db
      .update(papers)
      .set({ status: "removed" })
      .where(eq(papers.id, firstPaper?.id ?? ""));
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      parts.push(next.value);
    }
    const body = Buffer.concat(parts);
    expect(createHash("sha256").update(body).digest("hex")).toBe(expected.sha256);
  });

  it("discards a stored snapshot that does not reproduce, and recovers", async () => {
    const snapshot = await currentSnapshot(ctx);
    await database.db
      .update(datasetSnapshots)
      .set({ chunksSha256: "0".repeat(64) })
      .where(eq(datasetSnapshots.id, snapshot.id));
    const opened = await openExport(ctx, "chunks");
    expect(opened.digest.sha256).toBe("0".repeat(64));
    await expect(readAll(opened.body)).rejects.toBeInstanceOf(ExportDrifted);
    await vi.waitFor(async () => {
      const rows = await database.db
        .select()
        .from(datasetSnapshots)
        .where(eq(datasetSnapshots.id, snapshot.id));
      expect(rows).toEqual([]);
    });
    expect(logs.some((l) => String(l.msg).includes("did not reproduce"))).toBe(true);
    const fresh = await openExport(ctx, "chunks");
    expect(fresh.digest).toEqual(await exportDigest("chunks"));
    const body = await readAll(fresh.body);
    expect(createHash("sha256").update(body).digest("hex")).toBe(fresh.digest.sha256);
  });

  it("runs no query until the body is read, and stops when it is cancelled", async () => {
    // The real database, with its queries counted (every export query is a `select`).
    let queries = 0;
    const counted = new Proxy(database.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop !== "select" && prop !== "execute") return value;
        return (...args: unknown[]) => {
          queries++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Db;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

    // Opening reads the snapshot; the body itself has queried nothing, read or cancelled.
    const opened = await openExport({ ...ctx, db: counted, readDb: counted }, "papers");
    queries = 0;
    await settle();
    expect(queries).toBe(0);
    await opened.body.cancel();
    await settle();
    expect(queries).toBe(0);

    // One row a batch: read to the end, the body queries twice per paper (the paper, its
    // files) and once more.
    const options = { baseUrl: ctx.settings.baseUrl, expected: opened.digest, batchRows: 1 };
    const whole = await readAll(verifiedExport(counted, "papers", options));
    expect(whole.byteLength).toBe(opened.digest.bytes);
    const total = queries;
    const published = await database.db.$count(papers, eq(papers.status, "published"));
    expect(published).toBeGreaterThanOrEqual(3);
    expect(total).toBe(2 * published + 1);

    // Read one part, then cancel: the queries stop where the reading did.
    queries = 0;
    const reader = verifiedExport(counted, "papers", options).getReader();
    expect((await reader.read()).done).toBe(false);
    const beforeCancel = queries;
    expect(beforeCancel).toBe(4);
    await reader.cancel();
    await settle();
    expect(queries).toBe(beforeCancel);
  });
});
