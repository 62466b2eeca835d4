/**
 * The file store's bound (FILES_MAX_MB, as settings.filesMaxBytes) on a real database: new
 * contents count against it, contents already stored do not, and a version past it is
 * refused with nothing written.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../db/sql.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { publishPaper } from "../../testing/factories.ts";
import { figureBundle } from "../../testing/figure-papers.ts";
import type { ServiceContext } from "../context.ts";
import { Unavailable } from "../errors.ts";
import { FilesFull, filesUsage, prepareSource } from "./index.ts";

let database: Database;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database);
});
afterAll(async () => database.close());

/** The context with the file store bounded at `maxBytes`. */
function bounded(maxBytes: number): ServiceContext {
  return { ...ctx, settings: { ...ctx.settings, filesMaxBytes: maxBytes } };
}

async function papersCount(): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(ctx.db, sql`select count(*) as n from papers`);
  return Number(row?.n ?? 0);
}

describe("the file store's bound", () => {
  it("counts each new content once, lets a version reach the bound exactly, and refuses one past it with nothing written", async () => {
    const first = await prepareSource(await figureBundle(11));
    const before = await filesUsage(ctx.db);
    const firstBytes = first.files.reduce((sum, f) => sum + f.bytes.byteLength, 0);

    await publishPaper(bounded(before.bytes + firstBytes), {
      body: first.body,
      files: first.files,
    });
    const after = await filesUsage(ctx.db);
    expect(after).toEqual({ count: before.count + 3, bytes: before.bytes + firstBytes });

    // The same figures again: nothing new to store, so a full store still takes the version.
    await publishPaper(bounded(after.bytes), { body: first.body, files: first.files });
    expect(await filesUsage(ctx.db)).toEqual(after);

    // Another shade: a new plot (the diagram and the data are stored already), one byte too many.
    const second = await prepareSource(await figureBundle(12));
    const plot = second.files.find((f) => f.name === "figures/plot.png");
    const papers = await papersCount();
    const refused = publishPaper(bounded(after.bytes + (plot?.bytes.byteLength ?? 0) - 1), {
      body: second.body,
      files: second.files,
    });
    await expect(refused).rejects.toThrow(FilesFull);
    await expect(refused).rejects.toThrow(Unavailable);
    await expect(refused).rejects.toThrow(/file store is full.*FILES_MAX_MB/);
    expect(await papersCount()).toBe(papers);
    expect(await filesUsage(ctx.db)).toEqual(after);
  });
});
