/** @module The dataset exports when the published hash cannot be honoured: abort, never lie. */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
// biome-ignore lint/style/noRestrictedImports: tests corrupt a stored snapshot on purpose.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// biome-ignore lint/style/noRestrictedImports: tests corrupt a stored snapshot on purpose.
import { datasetSnapshots } from "../../../../db/schema/index.ts";
import { currentSnapshot } from "../../../../services/dataset/snapshot.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { publishPaper } from "../../../../testing/factories.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 3; i++) await publishPaper(t.ctx);
});
afterAll(async () => t.close());

/** Makes the stored snapshot of the current corpus promise other bytes than the export's. */
async function corruptSnapshot(): Promise<string> {
  const snapshot = await currentSnapshot(t.ctx);
  const wrong = "f".repeat(64);
  await t.database.db
    .update(datasetSnapshots)
    .set({ papersSha256: wrong })
    .where(eq(datasetSnapshots.id, snapshot.id));
  return wrong;
}

describe("a download whose bytes do not match the published sha256", () => {
  it("fails in-process instead of completing", async () => {
    const wrong = await corruptSnapshot();
    const res = await t.app.request("/api/v1/dataset/papers.jsonl");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${wrong}"`);
    await expect(res.arrayBuffer()).rejects.toThrow();
  });

  it("is cut off over real HTTP, and the next download is whole and matches", async () => {
    const wrong = await corruptSnapshot();
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // identity: fetch asks for gzip by default, and see the compressed case below.
      const plain = { headers: { "accept-encoding": "identity" } };
      const res = await fetch(`${base}/api/v1/dataset/papers.jsonl`, plain);
      expect(res.headers.get("etag")).toBe(`"${wrong}"`);
      await expect(res.arrayBuffer()).rejects.toThrow();
      // The drift discarded the snapshot before the transfer was cut, so the very next
      // request recomputes it and is served whole.
      const again = await fetch(`${base}/api/v1/dataset/papers.jsonl`, plain);
      const bytes = Buffer.from(await again.arrayBuffer());
      expect(again.headers.get("etag")).not.toBe(`"${wrong}"`);
      expect(bytes.length).toBe(Number(again.headers.get("content-length")));
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
    }
  });

  it("fails when compressed too, rather than hang", { timeout: 15_000 }, async () => {
    await corruptSnapshot();
    const res = await t.app.request("/api/v1/dataset/papers.jsonl", {
      headers: { "accept-encoding": "gzip" },
    });
    const outcome = await Promise.race([
      res.arrayBuffer().then(
        () => "completed",
        () => "failed",
      ),
      new Promise((resolve) => setTimeout(() => resolve("hung"), 5_000)),
    ]);
    expect(outcome).toBe("failed");
  });
});
