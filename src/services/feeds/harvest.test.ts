/** @module The harvest queries: keyset precision, changes mid-harvest, the keyword index. */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { papers } from "../../db/schema/index.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { paperInput, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { publishVersion } from "../papers/index.ts";
import { harvestPage, newestPapers } from "./harvest.ts";
import { respondOai } from "./oai.ts";

const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
let database: Database;
let ctx: ServiceContext;
const ids: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  for (let i = 0; i < 6; i++) {
    const publishedAt = new Date(Date.UTC(2026, 9, 1, i));
    ids.push((await publishPaper(ctx, { publishedAt, keywords: [`Topic-${i % 2}`] })).paper_id);
  }
});
afterAll(async () => database.close());

/** Walks ListIdentifiers through the service with a given page size; returns paper ids. */
async function harvest(pageSize: number, between?: (page: number) => Promise<void>) {
  const seen: string[] = [];
  let args: [string, string][] = [
    ["verb", "ListIdentifiers"],
    ["metadataPrefix", "oai_dc"],
  ];
  for (let page = 0; page < 50; page++) {
    const xml = await respondOai(ctx, { args, pageSize });
    seen.push(
      ...[...xml.matchAll(/<identifier>oai:quire\.test:([^<]+)<\/identifier>/g)].map(
        (m) => m[1] as string,
      ),
    );
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
    if (!token) break;
    await between?.(page);
    args = [
      ["verb", "ListIdentifiers"],
      ["resumptionToken", token],
    ];
  }
  return seen;
}

describe("keyset paging", () => {
  it("tells apart datestamps that differ only in microseconds", async () => {
    const [a, b] = [ids[0] as string, ids[1] as string];
    // a sorts before b by id, b before a by time: only the microseconds order them.
    await database.db
      .update(papers)
      .set({ updatedAt: sql`'2026-10-01T00:00:00.123457Z'::timestamptz` })
      .where(eq(papers.id, a));
    await database.db
      .update(papers)
      .set({ updatedAt: sql`'2026-10-01T00:00:00.123456Z'::timestamptz` })
      .where(eq(papers.id, b));
    const page1 = await harvestPage(database.db, { limit: 1 });
    expect(page1.map((r) => [r.id, r.position])).toEqual([[b, "2026-10-01T00:00:00.123456Z"]]);
    const seen = await harvest(1);
    expect(seen.slice(0, 2)).toEqual([b, a]);
    expect(seen).toHaveLength(ids.length);
    expect(new Set(seen).size).toBe(ids.length);
  });

  it("sees a record changed mid-harvest again at the end, and misses none", async () => {
    const revised = ids[2] as string;
    const withdrawn = ids[3] as string;
    const seen = await harvest(2, async (page) => {
      if (page !== 0) return;
      clock.set(new Date("2026-11-02T13:00:00.000Z"));
      const v2 = await publishVersion(
        { ...ctx, caller: operator },
        paperInput({ paperId: revised, title: "Second version, after the first page" }),
      );
      expect(v2.outcome).toBe("published");
      await database.db
        .update(papers)
        .set({ status: "withdrawn", updatedAt: new Date("2026-11-02T14:00:00.000Z") })
        .where(eq(papers.id, withdrawn));
    });
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen.slice(-2)).toEqual([revised, withdrawn]);
  });
});

describe("keyword feeds", () => {
  it("match keywords case-insensitively and exactly", async () => {
    const found = await newestPapers(database.db, { limit: 50, keyword: "topic-1" });
    expect(found.map((r) => r.id).sort()).toEqual(
      ids.filter((_, i) => i % 2 === 1 && i !== 3).sort(),
    );
    expect(await newestPapers(database.db, { limit: 50, keyword: "topic" })).toEqual([]);
  });

  it("can answer the keyword filter from the GIN index", async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(
        sql`explain select paper_id from paper_versions
            where quire_lower_keywords(keywords) @> array[lower('Topic-1')]::text[]`,
      );
    });
    const lines = JSON.stringify((plan as unknown as { rows: unknown[] }).rows);
    expect(lines).toContain("paper_versions_keywords_idx");
  });
});
