/** @module Reader reports: filing, the moderators' list and resolving, on a real database. */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { moderationEvents, reports } from "../../db/schema/index.ts";
import { agentIn, removeContribution, setPaperStatus } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { makeOwner } from "../../testing/factories.ts";
import { moderatorContext } from "../../testing/moderation.ts";
import { reportablePaper } from "../../testing/reports.ts";
import type { Caller, ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, NotFound, RateLimited } from "../errors.ts";
import { listModerationEvents } from "../moderation/index.ts";
import { createMemoryRateLimits } from "../ratelimit/index.ts";
import {
  fileReport,
  listOpenReports,
  MAX_OPEN_READER_REPORTS_PER_TARGET,
  REPORT_NOTE_MAX,
  ReportQueueFull,
  resolveReport,
} from "./index.ts";

let database: Database;
let ctx: ServiceContext;
let mod: ServiceContext;
let moderatorHandle: string;
const clock = fixedClock();
const from = { address: "192.0.2.10" };

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  const made = await moderatorContext(ctx);
  mod = made.ctx;
  moderatorHandle = made.handle;
});
afterAll(async () => database.close());

async function rowCounts() {
  const [r] = await ctx.db.select({ n: count() }).from(reports);
  const [e] = await ctx.db.select({ n: count() }).from(moderationEvents);
  return { reports: Number(r?.n ?? 0), events: Number(e?.n ?? 0) };
}

async function signedIn(): Promise<{ ctx: ServiceContext; handle: string; id: string }> {
  const owner = await makeOwner(ctx);
  const caller: Caller = { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" };
  return { ctx: { ...ctx, caller }, handle: owner.handle, id: owner.id };
}

describe("filing and resolving (happy)", () => {
  it("takes reports on a paper, a comment and a review, signed in or not, and lists them for moderators", async () => {
    const { paperId, commentId, reviewId } = await reportablePaper(ctx);
    const reader = await signedIn();
    clock.advance(1000);
    const onPaper = await fileReport(
      ctx,
      { targetType: "paper", targetId: `${paperId}v1`, reason: "plagiarism" },
      from,
    );
    expect(onPaper).toMatchObject({ target_type: "paper", target_id: paperId, status: "open" });
    clock.advance(1000);
    const onComment = await fileReport(
      reader.ctx,
      { targetType: "comment", targetId: commentId, reason: "abuse", note: "  Rude.  " },
      from,
    );
    clock.advance(1000);
    const onReview = await fileReport(
      ctx,
      {
        targetType: "review",
        targetId: reviewId,
        reason: "other",
        note: "It reviews another paper.",
      },
      from,
    );
    const queue = await listOpenReports(mod);
    const mine = queue.reports.filter((r) => r.paper_id === paperId);
    expect(mine.map((r) => r.id)).toEqual([onPaper.id, onComment.id, onReview.id]);
    expect(mine[0]).toMatchObject({
      target_type: "paper",
      excerpt: null,
      reason: "plagiarism",
      note: null,
      reporter_handle: null,
    });
    expect(mine[0]?.paper_title).toMatch(/^A study of/);
    expect(mine[1]).toMatchObject({
      target_type: "comment",
      target_id: commentId,
      note: "Rude.",
      reporter_handle: reader.handle,
    });
    expect(mine[1]?.excerpt).toContain("mean without its spread");
    expect(mine[2]?.excerpt).toContain("claims go beyond");
    expect(queue.count).toBeGreaterThanOrEqual(3);

    const { events } = await listModerationEvents(mod, { targetId: commentId });
    expect(events[0]).toMatchObject({
      action: "report.file",
      actor: reader.handle,
      actor_owner_id: reader.id,
      target_type: "comment",
      reason: "abuse",
      details: { report_id: onComment.id, paper_id: paperId, note: "Rude." },
    });
    const paperEvents = await listModerationEvents(mod, { targetId: paperId });
    expect(paperEvents.events[0]).toMatchObject({ actor: "reader", actor_owner_id: null });
  });

  it("resolves a report with an outcome: out of the queue, in the log under the target", async () => {
    const { paperId, commentId } = await reportablePaper(ctx);
    const filed = await fileReport(
      ctx,
      { targetType: "comment", targetId: commentId, reason: "spam" },
      from,
    );
    clock.advance(1000);
    const done = await resolveReport(mod, {
      reportId: filed.id,
      outcome: "dismissed",
      reason: "A fair, if blunt, comment.",
    });
    expect(done).toMatchObject({ id: filed.id, status: "resolved", outcome: "dismissed" });
    expect((await listOpenReports(mod, { limit: 100 })).reports.map((r) => r.id)).not.toContain(
      filed.id,
    );
    const [row] = await ctx.db.select().from(reports).where(eq(reports.id, filed.id));
    expect(row).toMatchObject({ status: "resolved", outcome: "dismissed" });
    expect(row?.resolvedByOwnerId).toBe(mod.caller.kind === "owner" ? mod.caller.ownerId : null);
    const { events } = await listModerationEvents(mod, { targetId: commentId });
    expect(events[0]).toMatchObject({
      id: done.event_id,
      action: "report.resolve",
      actor: moderatorHandle,
      target_type: "comment",
      reason: "A fair, if blunt, comment.",
      details: {
        report_id: filed.id,
        paper_id: paperId,
        outcome: "dismissed",
        report_reason: "spam",
      },
    });
    await expect(
      resolveReport(mod, { reportId: filed.id, outcome: "actioned", reason: "again" }),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it("lets the operator resolve too", async () => {
    const { paperId } = await reportablePaper(ctx);
    const filed = await fileReport(
      ctx,
      { targetType: "paper", targetId: paperId, reason: "spam" },
      from,
    );
    const done = await resolveReport(
      { ...ctx, caller: { kind: "operator" } },
      { reportId: filed.id, outcome: "actioned", reason: "Removed by hand." },
    );
    expect(done.outcome).toBe("actioned");
  });
});

describe("refusals (error)", () => {
  it("lists every failed check of a report, and stores nothing", async () => {
    const before = await rowCounts();
    const cases: [unknown, string[]][] = [
      [{ targetType: "paper", targetId: "", reason: "spam" }, ["targetId"]],
      [{ targetType: "author", targetId: "2611.00001", reason: "spam" }, ["targetType"]],
      [{ targetType: "paper", targetId: "2611.00001", reason: "boring" }, ["reason"]],
      [{ targetType: "paper", targetId: "2611.00001", reason: "other" }, ["note"]],
      [{ targetType: "paper", targetId: "2611.00001", reason: "other", note: "   " }, ["note"]],
      [
        {
          targetType: "paper",
          targetId: "2611.00001",
          reason: "spam",
          note: "é".repeat(REPORT_NOTE_MAX + 1),
        },
        ["note"],
      ],
      [{ targetType: "paper", targetId: "2611.00001", reason: "spam", note: "a\u0000b" }, ["note"]],
      [{ targetType: "paper", targetId: "2611\t00001", reason: "spam" }, ["targetId"]],
      [{ targetType: "review", targetId: "x".repeat(65), reason: "nope" }, ["targetId", "reason"]],
    ];
    for (const [input, fields] of cases) {
      const error = await fileReport(ctx, input as never, from).catch((e: unknown) => e);
      expect(error, JSON.stringify(input)).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual(fields.sort());
    }
    // A note of exactly the bound, in code points, is taken.
    const { paperId } = await reportablePaper(ctx);
    await fileReport(
      ctx,
      {
        targetType: "paper",
        targetId: paperId,
        reason: "spam",
        note: "😀".repeat(REPORT_NOTE_MAX),
      },
      from,
    );
    expect(await rowCounts()).toEqual({ reports: before.reports + 1, events: before.events + 1 });
  });

  it("keeps at most MAX_OPEN_READER_REPORTS_PER_TARGET open readers' reports per target; past it, a reader is told the moderators have it, and nothing is stored", async () => {
    const { paperId } = await reportablePaper(ctx);
    const report = { targetType: "paper" as const, targetId: paperId, reason: "spam" as const };
    // Each from its own address: a crowd, not one reader over the per-address limit.
    for (let i = 0; i < MAX_OPEN_READER_REPORTS_PER_TARGET; i++) {
      await fileReport(ctx, report, { address: `198.51.100.${i}` });
    }
    const before = await rowCounts();
    const refused = await fileReport(ctx, report, { address: "198.51.100.250" }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ReportQueueFull);
    expect(refused).toBeInstanceOf(Conflict);
    expect(await rowCounts()).toEqual(before);
    // A signed-in reader is still heard (theirs are one per reader), and so is another target.
    const { ctx: owner } = await signedIn();
    await fileReport(owner, report, from);
    const other = await reportablePaper(ctx);
    await fileReport(ctx, { ...report, targetId: other.paperId }, { address: "198.51.100.250" });
    // Once a moderator resolves one, a reader may report again.
    const [open] = (await listOpenReports(mod, { limit: 100 })).reports.filter(
      (r) => r.target_id === paperId && r.reporter_handle === null,
    );
    expect(open).toBeDefined();
    await resolveReport(mod, { reportId: open!.id, outcome: "dismissed", reason: "spam flood" });
    await fileReport(ctx, report, { address: "198.51.100.251" });
  });

  it("answers 404 for targets that do not exist or cannot be seen", async () => {
    const { paperId, commentId, reviewId } = await reportablePaper(ctx);
    const gone = await reportablePaper(ctx);
    await removeContribution(ctx, "comment", gone.commentId);
    await setPaperStatus(ctx, gone.paperId, "removed");
    const before = await rowCounts();
    const missing: [string, string][] = [
      ["paper", "2611.99999"],
      ["paper", "not-a-paper"],
      ["paper", gone.paperId],
      ["comment", "cmt_0000000000000000000000"],
      ["comment", gone.commentId],
      ["review", gone.reviewId],
      ["comment", reviewId],
      ["review", commentId],
      ["paper", commentId],
    ];
    for (const [targetType, targetId] of missing) {
      await expect(
        fileReport(ctx, { targetType: targetType as "paper", targetId, reason: "spam" }, from),
        `${targetType} ${targetId}`,
      ).rejects.toBeInstanceOf(NotFound);
    }
    expect(await rowCounts()).toEqual(before);
    expect(paperId).toBeTruthy();
  });

  it("refuses a bad resolution: unknown report, bad outcome, no reason", async () => {
    const { paperId } = await reportablePaper(ctx);
    const filed = await fileReport(
      ctx,
      { targetType: "paper", targetId: paperId, reason: "spam" },
      from,
    );
    await expect(
      resolveReport(mod, {
        reportId: "rpt_0000000000000000000000",
        outcome: "dismissed",
        reason: "x",
      }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      resolveReport(mod, { reportId: "../etc", outcome: "dismissed", reason: "x" }),
    ).rejects.toBeInstanceOf(NotFound);
    const bad = await resolveReport(mod, {
      reportId: filed.id,
      outcome: "ignored" as never,
      reason: "  ",
    }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Invalid);
    expect((bad as Invalid).issues.map((i) => i.name).sort()).toEqual(["outcome", "reason"]);
    expect((await listOpenReports(mod, { limit: 100 })).reports.map((r) => r.id)).toContain(
      filed.id,
    );
    await expect(listOpenReports(mod, { limit: 101 })).rejects.toBeInstanceOf(Invalid);
  });
});

describe("who may do what (security)", () => {
  it("lets only moderators list and resolve, and a refusal changes nothing", async () => {
    const { paperId } = await reportablePaper(ctx);
    const filed = await fileReport(
      ctx,
      { targetType: "paper", targetId: paperId, reason: "spam" },
      from,
    );
    const owner = await signedIn();
    const agent = await agentIn(ctx, "verified");
    const callers: ServiceContext[] = [
      ctx,
      owner.ctx,
      {
        ...ctx,
        caller: {
          kind: "agent",
          agentId: agent.id,
          keyId: "k",
          ownerId: owner.id,
          status: "verified",
        },
      },
    ];
    const before = await rowCounts();
    for (const who of callers) {
      await expect(listOpenReports(who)).rejects.toBeInstanceOf(Forbidden);
      await expect(
        resolveReport(who, { reportId: filed.id, outcome: "dismissed", reason: "no" }),
      ).rejects.toBeInstanceOf(Forbidden);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("limits reports per address (10 an hour), before reading the target, and stores no address", async () => {
    const limited: ServiceContext = { ...ctx, rateLimits: createMemoryRateLimits() };
    const { paperId } = await reportablePaper(ctx);
    const address = { address: "198.51.100.77" };
    for (let i = 0; i < 10; i++) {
      await fileReport(
        limited,
        { targetType: "paper", targetId: paperId, reason: "spam" },
        address,
      );
    }
    const before = await rowCounts();
    const refused = await fileReport(
      limited,
      { targetType: "paper", targetId: "2611.99999", reason: "spam" },
      address,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).decision).toMatchObject({ bucket: "reports", limit: 10 });
    expect(await rowCounts()).toEqual(before);
    // Another address is counted apart.
    await fileReport(
      limited,
      { targetType: "paper", targetId: paperId, reason: "spam" },
      { address: "198.51.100.78" },
    );
    const stored = await ctx.db.select().from(reports).where(eq(reports.paperId, paperId));
    expect(JSON.stringify(stored)).not.toContain("198.51.100");
  });

  it("takes one open report per signed-in reader and target, and another once it is resolved", async () => {
    const { paperId } = await reportablePaper(ctx);
    const reader = await signedIn();
    const input = { targetType: "paper" as const, targetId: paperId, reason: "spam" as const };
    const first = await fileReport(reader.ctx, input, from);
    await expect(fileReport(reader.ctx, input, from)).rejects.toBeInstanceOf(Conflict);
    await fileReport(ctx, input, from);
    await fileReport(ctx, input, from);
    await resolveReport(mod, { reportId: first.id, outcome: "dismissed", reason: "Not spam." });
    await fileReport(reader.ctx, input, from);
  });

  it("lets an owner report their own unpublished paper only as far as they can see it", async () => {
    const { paperId } = await reportablePaper(ctx);
    await setPaperStatus(ctx, paperId, "withdrawn");
    const reader = await signedIn();
    await expect(
      fileReport(reader.ctx, { targetType: "paper", targetId: paperId, reason: "spam" }, from),
    ).rejects.toBeInstanceOf(NotFound);
    // A moderator can still see it, so can still file (e.g. to keep a note in the queue).
    await fileReport(mod, { targetType: "paper", targetId: paperId, reason: "spam" }, from);
  });
});
