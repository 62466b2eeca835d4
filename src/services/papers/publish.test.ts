import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { chunks, papers, paperVersions, screeningResults } from "../../db/schema/index.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid } from "../errors.ts";
import { CHANGELOG_MAX, publishVersion } from "./publish.ts";
import { getPaperSpans } from "./spans.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
});
afterAll(async () => database.close());

const asOperator = () => ({ ...ctx, caller: operator });

describe("publishVersion", () => {
  it("assigns sequential YYMM.NNNNN ids from the publication month", async () => {
    const a = await publishPaper(ctx);
    const b = await publishPaper(ctx);
    expect(a.paper_id).toMatch(/^2611\.\d{5}$/);
    expect(Number(b.paper_id.slice(5))).toBe(Number(a.paper_id.slice(5)) + 1);
    const old = await publishPaper(ctx, { publishedAt: new Date("2024-03-09T00:00:00Z") });
    expect(old.paper_id).toBe("2403.00001");
    const [row] = await database.db.select().from(papers).where(eq(papers.id, old.paper_id));
    expect(row?.publishedAt.toISOString()).toBe("2024-03-09T00:00:00.000Z");
  });

  it("stores the version, its screening record and lossless chunks in one go", async () => {
    const input = paperInput({
      body: "## Intro\n\nFirst paragraph é 日本語 🎉.\n\n## Two\n\nSecond.\n",
    });
    const result = await publishPaper(ctx, input);
    const [version] = await database.db
      .select()
      .from(paperVersions)
      .where(eq(paperVersions.paperId, result.paper_id));
    expect(version?.screeningStatus).toMatch(/passed|warnings/);
    expect(version?.screenedBy).toContain("quire-rules");
    const context = await getPaperSpans(ctx, { id: result.paper_id });
    for (const field of ["title", "abstract", "body"] as const) {
      const text = context.chunks
        .filter((c) => c.field === field)
        .map((c) => c.content)
        .join("");
      expect(text).toBe(field === "body" ? input.body : input[field].trim());
    }
    expect(context.chunks.map((c) => c.chunk_index)).toEqual(context.chunks.map((_, i) => i));
    const screenings = await database.db
      .select()
      .from(screeningResults)
      .where(eq(screeningResults.paperId, result.paper_id));
    expect(screenings).toHaveLength(1);
  });

  it("rejects with reasons, assigns no id and stores no paper", async () => {
    const before = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(papers);
    const result = await publishVersion(asOperator(), paperInput({ title: "" }));
    expect(result.outcome).toBe("rejected");
    if (result.outcome !== "rejected") return;
    expect(
      result.screening.reasons.some((r) => r.severity === "reject" && r.field === "title"),
    ).toBe(true);
    const after = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(papers);
    expect(after[0]?.n).toBe(before[0]?.n);
    const [record] = await database.db
      .select()
      .from(screeningResults)
      .where(eq(screeningResults.id, result.screening_id));
    expect(record?.outcome).toBe("rejected");
    expect(record?.paperId).toBeNull();
  });

  it("rejects an exact duplicate of a published paper, even with changed case and spacing", async () => {
    const input = paperInput();
    const first = await publishPaper(ctx, input);
    const again = await publishVersion(asOperator(), {
      ...input,
      title: input.title.toUpperCase(),
      abstract: input.abstract.replace(/ /g, "  "),
    });
    expect(again.outcome).toBe("rejected");
    if (again.outcome === "rejected") {
      const dup = again.screening.reasons.find((r) => r.code === "duplicate");
      expect(dup?.message).toContain(first.paper_id);
    }
  });

  it("flags a lightly edited copy as a near duplicate but publishes it", async () => {
    const input = paperInput();
    const first = await publishPaper(ctx, input);
    const edited = await publishVersion(asOperator(), {
      ...input,
      title: `${input.title} (revised)`,
      body: input.body.replace("## Results", "## Findings"),
    });
    expect(edited.outcome).toBe("published");
    if (edited.outcome === "published") {
      const near = edited.screening.reasons.find((r) => r.code === "near_duplicate");
      expect(near?.message).toContain(first.paper_id);
      expect(edited.screening.status).toBe("warnings");
    }
  });

  it("publishes new versions with increasing numbers and keeps old ones immutable", async () => {
    const first = await publishPaper(ctx);
    clock.advance(60_000);
    const v2 = await publishVersion(asOperator(), {
      ...paperInput(),
      paperId: first.paper_id,
      changelog: "Rewrote the method.",
    });
    expect(v2).toMatchObject({ outcome: "published", paper_id: first.paper_id, version: 2 });
    const [paper] = await database.db.select().from(papers).where(eq(papers.id, first.paper_id));
    expect(paper?.currentVersion).toBe(2);
    await expect(
      database.db
        .update(paperVersions)
        .set({ title: "tampered" })
        .where(eq(paperVersions.paperId, first.paper_id)),
    ).rejects.toThrow();
    await expect(
      database.db
        .update(chunks)
        .set({ content: "tampered" })
        .where(eq(chunks.paperId, first.paper_id)),
    ).rejects.toThrow();
    const v1 = await getPaperSpans(ctx, { id: `${first.paper_id}v1` });
    const v2ctx = await getPaperSpans(ctx, { id: first.paper_id });
    expect(v1.version).toBe(1);
    expect(v2ctx.version).toBe(2);
    expect(v1.chunks[0]?.content).not.toBe(v2ctx.chunks[0]?.content);
  });

  it("lets only the paper's owner (or an operator) add versions, and only to published papers", async () => {
    const owner = await makeOwner(ctx);
    const stranger = await makeOwner(ctx);
    const result = await publishPaper(ctx, { ownerId: owner.id });
    const asStranger = {
      ...ctx,
      caller: {
        kind: "owner" as const,
        ownerId: stranger.id,
        handle: stranger.handle,
        role: "owner" as const,
      },
    };
    await expect(
      publishVersion(asStranger, { ...paperInput(), paperId: result.paper_id }),
    ).rejects.toBeInstanceOf(Forbidden);
    const asOwner = {
      ...ctx,
      caller: {
        kind: "owner" as const,
        ownerId: owner.id,
        handle: owner.handle,
        role: "owner" as const,
      },
    };
    await expect(
      publishVersion(asOwner, { ...paperInput(), paperId: result.paper_id }),
    ).rejects.toMatchObject({
      issues: [{ in: "body", name: "changelog", message: "is required for a new version" }],
    });
    await expect(
      publishVersion(asOwner, {
        ...paperInput(),
        paperId: result.paper_id,
        changelog: "x".repeat(CHANGELOG_MAX + 1),
      }),
    ).rejects.toBeInstanceOf(Invalid);
    const v2 = await publishVersion(asOwner, {
      ...paperInput(),
      paperId: result.paper_id,
      changelog: "Fixed the second table.",
    });
    expect(v2.outcome).toBe("published");
    await database.db
      .update(papers)
      .set({ status: "withdrawn" })
      .where(eq(papers.id, result.paper_id));
    await expect(
      publishVersion(asOwner, { ...paperInput(), paperId: result.paper_id, changelog: "Again." }),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it("refuses anonymous callers, agents and unverified owners", async () => {
    await expect(publishVersion(ctx, paperInput())).rejects.toBeInstanceOf(Forbidden);
    const unverified = await makeOwner(ctx, { verified: false });
    const asUnverified = {
      ...ctx,
      caller: {
        kind: "owner" as const,
        ownerId: unverified.id,
        handle: unverified.handle,
        role: "owner" as const,
      },
    };
    await expect(publishVersion(asUnverified, paperInput())).rejects.toBeInstanceOf(Forbidden);
  });

  it("is atomic: a failure after the paper row leaves nothing behind", async () => {
    const count = async () =>
      (await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(papers))[0]?.n;
    const before = await count();
    const broken = { ...asOperator(), settings: { ...ctx.settings, chunkMaxChars: 1 } };
    await expect(publishVersion(broken, paperInput())).rejects.toThrow();
    expect(await count()).toBe(before);
  });

  it("makes imports idempotent by import key", async () => {
    const input = paperInput({ importKey: "k-123", publishedAt: new Date("2025-01-05T00:00:00Z") });
    const first = await publishVersion(asOperator(), input);
    const second = await publishVersion(asOperator(), input);
    expect(first.outcome).toBe("published");
    expect(second).toEqual({
      outcome: "already_imported",
      paper_id: (first as { paper_id: string }).paper_id,
    });
  });
});

describe("publishVersion input hygiene", () => {
  it("rejects NUL characters as invalid input, naming the fields, and stores nothing", async () => {
    const before = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(papers);
    await expect(
      publishVersion(
        asOperator(),
        paperInput({ title: "Bad\u0000title here", keywords: ["a\u0000b"] }),
      ),
    ).rejects.toMatchObject({
      issues: [
        { in: "body", name: "title", message: "must not contain NUL characters" },
        { in: "body", name: "keywords", message: "must not contain NUL characters" },
      ],
    });
    const after = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(papers);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it("marks imports as changed at import time, keeping their original publication date", async () => {
    const old = await publishPaper(ctx, { publishedAt: new Date("2020-05-05T00:00:00Z") });
    const [row] = await database.db.select().from(papers).where(eq(papers.id, old.paper_id));
    expect(row?.publishedAt.toISOString()).toBe("2020-05-05T00:00:00.000Z");
    expect(row?.updatedAt.toISOString()).toBe(clock.now().toISOString());
  });
});
