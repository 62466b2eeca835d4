/** @module Notifications: recipients, dedup, never the actor, keyset paging, unread, mark read, mail, prune. */
import { count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeOwner, publishPaper } from "../../testing/factories.ts";
import { moderatorContext } from "../../testing/moderation.ts";
import { agentContext, ownedPaper, sinkMailer } from "../../testing/notifications.ts";
import { startSmtpSink } from "../../testing/smtp-sink.ts";
import type { ServiceContext } from "../context.ts";
import { createComment, createHumanReview, createReview } from "../contributions/index.ts";
import { Invalid, Unauthorized } from "../errors.ts";
import { newId } from "../ids.ts";
import { pruneStores } from "../lifecycle/index.ts";
import { removePaper, suspendAgent } from "../moderation/index.ts";
import {
  countUnread,
  deliverNotificationMail,
  listNotifications,
  markNotificationsRead,
  type NotificationEvent,
  type NotificationKind,
  recordEvent,
  renderSummary,
  setMailPreferences,
} from "./index.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock();

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
});
afterAll(async () => database.close());

const SCORES = { soundness: 2, presentation: 3, contribution: 4, confidence: 5, overall: 6 };

async function inbox(caller: ServiceContext, unreadOnly = false) {
  return (await listNotifications(caller, { limit: 100, unreadOnly })).notifications;
}

describe("recording events", () => {
  it("a comment and a review tell the paper's owner, not the acting agent nor its owner", async () => {
    const paper = await ownedPaper(ctx);
    const agent = await agentContext(ctx);
    const { body } = await createComment(agent.ctx, { paperId: paper.paperId, body: "Good." });
    clock.advance(1000);
    const review = await createReview(agent.ctx, {
      paperId: paper.paperId,
      review: { ...SCORES, body: "Sound." },
    });
    const owned = await inbox(paper.ownerCtx);
    expect(owned.map((n) => [n.kind, n.subject_id])).toEqual([
      ["review", review.body.review.id],
      ["comment", body.comment.id],
    ]);
    expect(owned[1]?.summary).toMatch(/^agent-of-owner\d+ commented on "A study of/);
    expect(owned[1]?.url).toBe(`http://quire.test/papers/${paper.paperId}`);
    expect(await inbox(agent.ctx)).toEqual([]);
    expect(await inbox(agent.ownerCtx)).toEqual([]);
  });

  it("an owner's agent acting on the owner's own paper tells nobody", async () => {
    const agent = await agentContext(ctx);
    const { paper_id } = await publishPaper(ctx);
    await ctx.db.execute(
      sql`update papers set owner_id = ${agent.owner.id} where id = ${paper_id}`,
    );
    await createComment(agent.ctx, { paperId: paper_id, body: "My own." });
    expect(await inbox(agent.ownerCtx)).toEqual([]);
  });

  it("a human review tells the paper's owner; the reviewer hears nothing", async () => {
    const paper = await ownedPaper(ctx);
    const reviewer = await agentContext(ctx);
    await createHumanReview(reviewer.ownerCtx, {
      paperId: paper.paperId,
      review: { ...SCORES, body: "Human view." },
    });
    const owned = await inbox(paper.ownerCtx);
    expect(owned.map((n) => n.kind)).toEqual(["review"]);
    expect(owned[0]?.actor.name).toBe(reviewer.owner.handle);
    expect(await inbox(reviewer.ownerCtx)).toEqual([]);
  });

  it("a reply reaches the target agent, its owner and the paper's owner, once each, even when recorded twice", async () => {
    const paper = await ownedPaper(ctx);
    const author = await agentContext(ctx);
    const replier = await agentContext(ctx);
    const { body } = await createComment(author.ctx, { paperId: paper.paperId, body: "First." });
    clock.advance(1000);
    const event: NotificationEvent = {
      kind: "reply",
      paperId: paper.paperId,
      paperVersion: 1,
      subjectId: newId("cmt", clock.now()),
      actor: { agentId: replier.agentId },
      target: { id: body.comment.id, agentId: author.agentId },
      at: clock.now(),
    };
    await recordEvent(ctx.db, event);
    await recordEvent(ctx.db, event); // a redelivery
    for (const who of [author.ctx, author.ownerCtx]) {
      expect((await inbox(who)).map((n) => n.kind)).toEqual(["reply"]);
    }
    expect((await inbox(paper.ownerCtx)).map((n) => n.kind)).toEqual(["reply", "comment"]);
    expect(await inbox(replier.ctx)).toEqual([]);
    expect(await inbox(replier.ownerCtx)).toEqual([]);
  });

  it("author responses, helpful votes and revisions go to the review's author (a vote not to the paper's owner)", async () => {
    const paper = await ownedPaper(ctx);
    const reviewer = await agentContext(ctx);
    const review = await createReview(reviewer.ctx, {
      paperId: paper.paperId,
      review: { ...SCORES, body: "Needs work." },
    });
    const target = { id: review.body.review.id, agentId: reviewer.agentId };
    const at = clock.now();
    const voter = await agentContext(ctx);
    await recordEvent(ctx.db, {
      kind: "author_response",
      paperId: paper.paperId,
      subjectId: "rsp_1",
      actor: { ownerId: paper.owner.id },
      target,
      at,
    });
    await recordEvent(ctx.db, {
      kind: "helpful_vote",
      paperId: paper.paperId,
      subjectId: "vote_1",
      actor: { ownerId: voter.owner.id },
      target,
      at,
    });
    await recordEvent(ctx.db, {
      kind: "revision",
      paperId: paper.paperId,
      paperVersion: 2,
      subjectId: `${paper.paperId}v2`,
      actor: { ownerId: paper.owner.id },
      target,
      at,
    });
    const kinds = (await inbox(reviewer.ctx)).map((n) => n.kind).sort();
    expect(kinds).toEqual(["author_response", "helpful_vote", "revision"]);
    expect((await inbox(reviewer.ownerCtx)).length).toBe(3);
    // The paper's owner acted (response, revision); the vote is not about their paper's activity.
    expect((await inbox(paper.ownerCtx)).map((n) => n.kind)).toEqual(["review"]);
    const revision = (await inbox(reviewer.ctx)).find((n) => n.kind === "revision");
    expect(revision?.url).toBe(`http://quire.test/papers/${paper.paperId}v2`);
  });

  it("renders every kind in English and Spanish", () => {
    const base = {
      paperId: "2611.00001",
      paperVersion: 2,
      details: { paper_title: "Ice", actor_name: "bot" },
    };
    const kinds: Exclude<NotificationKind, "moderation">[] = [
      "review",
      "comment",
      "reply",
      "author_response",
      "helpful_vote",
      "revision",
    ];
    for (const kind of kinds) {
      const en = renderSummary({ ...base, kind }, "en");
      const es = renderSummary({ ...base, kind }, "es");
      expect(en).toContain('"Ice"');
      expect(es).toContain("«Ice»");
      expect(en).not.toBe(es);
    }
    expect(renderSummary({ ...base, kind: "revision" }, "en")).toBe(
      'bot posted version 2 of "Ice", addressing a review.',
    );
    expect(renderSummary({ ...base, kind: "helpful_vote" }, "es")).toBe(
      "A bot le resultó útil una revisión de «Ice».",
    );
    const mod = {
      ...base,
      kind: "moderation" as const,
      details: { paper_title: "Ice", action: "paper.remove" },
    };
    expect(renderSummary(mod, "en")).toBe('A moderator removed "Ice".');
    expect(renderSummary(mod, "es")).toBe("Un moderador retiró «Ice».");
  });

  it("moderation: removing a paper tells its owner; suspending an agent tells the agent and its owner", async () => {
    const paper = await ownedPaper(ctx);
    const moderator = await moderatorContext(ctx);
    await removePaper(moderator.ctx, { paperId: paper.paperId, reason: "Plagiarism." });
    const owned = await inbox(paper.ownerCtx);
    expect(owned[0]?.kind).toBe("moderation");
    expect(owned[0]?.summary).toMatch(/^A moderator removed "/);
    expect(owned[0]?.actor.name).toBe("a moderator");
    const agent = await agentContext(ctx);
    await suspendAgent(moderator.ctx, { agentId: agent.agentId, reason: "Spam." });
    for (const who of [agent.ctx, agent.ownerCtx]) {
      const [n] = await inbox(who);
      expect(n?.summary).toBe(`A moderator suspended the agent agent-of-${agent.owner.handle}.`);
      expect(n?.paper_id).toBeNull();
    }
    expect(await inbox(moderator.ctx)).toEqual([]);
  });

  it("rolls back with its event: a refused write leaves no notification", async () => {
    const paper = await ownedPaper(ctx);
    const agent = await agentContext(ctx);
    await createReview(agent.ctx, {
      paperId: paper.paperId,
      review: { ...SCORES, body: "One." },
    });
    await expect(
      createReview(agent.ctx, { paperId: paper.paperId, review: { ...SCORES, body: "Two." } }),
    ).rejects.toThrow();
    expect((await inbox(paper.ownerCtx)).length).toBe(1);
  });
});

describe("the inbox", () => {
  it("is private: the anonymous and operators read none", async () => {
    await expect(listNotifications(ctx)).rejects.toBeInstanceOf(Unauthorized);
    await expect(listNotifications({ ...ctx, caller: operator })).rejects.toBeInstanceOf(
      Unauthorized,
    );
    await expect(countUnread(ctx)).rejects.toBeInstanceOf(Unauthorized);
  });

  it("pages newest first without skips or repeats, whatever the page size and ties in time", async () => {
    const owner = await makeOwner(ctx);
    const ownerCtx: ServiceContext = {
      ...ctx,
      caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
    };
    const base = new Date("2026-11-01T00:00:00.000Z").getTime();
    // 40 notifications, many sharing a millisecond (ties are broken by id).
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: newId("ntf", new Date(base + Math.floor(i / 3))),
      recipient: owner.id,
      recipientOwnerId: owner.id,
      kind: "comment",
      paperId: "2611.00001",
      subjectId: `cmt_${i}`,
      details: {},
      createdAt: new Date(base + Math.floor(i / 3)),
    }));
    await ctx.db.insert(notifications).values(rows);
    const expected = [...rows]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 15 }), async (limit) => {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = await listNotifications(ownerCtx, { limit, cursor });
          seen.push(...page.notifications.map((n) => n.id));
          if (!page.next_cursor) break;
          cursor = page.next_cursor;
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 12 },
    );
  });

  it("unread_only, unread counts and marking read by ids and up to a time", async () => {
    const paper = await ownedPaper(ctx);
    const agent = await agentContext(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      ids.push(
        (await createComment(agent.ctx, { paperId: paper.paperId, body: `c${i}` })).body.comment.id,
      );
    }
    const all = await listNotifications(paper.ownerCtx, { limit: 10 });
    expect(all.unread_count).toBe(4);
    const [newest, second, third] = all.notifications;
    const other = await agentContext(ctx);
    // Another's ids are left alone and not counted.
    expect(await markNotificationsRead(other.ctx, { ids: [newest!.id] })).toEqual({
      marked: 0,
      unread_count: 0,
    });
    expect(await markNotificationsRead(paper.ownerCtx, { ids: [newest!.id] })).toEqual({
      marked: 1,
      unread_count: 3,
    });
    expect(await markNotificationsRead(paper.ownerCtx, { ids: [newest!.id] })).toEqual({
      marked: 0,
      unread_count: 3,
    });
    const unread = await listNotifications(paper.ownerCtx, { unreadOnly: true });
    expect(unread.notifications.map((n) => n.id)).toEqual([
      second!.id,
      third!.id,
      all.notifications[3]!.id,
    ]);
    expect(await markNotificationsRead(paper.ownerCtx, { up_to: third!.created_at })).toEqual({
      marked: 2,
      unread_count: 1,
    });
    expect(await countUnread(paper.ownerCtx)).toBe(1);
    const read = (await listNotifications(paper.ownerCtx)).notifications.find(
      (n) => n.id === newest!.id,
    );
    expect(read?.read_at).toBe(clock.now().toISOString());
  });

  it("refuses bad mark-read input and bad cursors with Invalid", async () => {
    const agent = await agentContext(ctx);
    for (const bad of [
      {},
      { ids: [] },
      { ids: ["x"] },
      { up_to: "yesterday" },
      { ids: [newId("ntf")], up_to: "2026-11-02T00:00:00Z" },
    ]) {
      await expect(markNotificationsRead(agent.ctx, bad)).rejects.toBeInstanceOf(Invalid);
    }
    await expect(
      listNotifications(agent.ctx, { cursor: "bm90LWEtY3Vyc29y" }),
    ).rejects.toBeInstanceOf(Invalid);
  });
});

describe("mail", () => {
  it("sends a daily digest once, through a real SMTP server, even with two instances racing", async () => {
    const sink = await startSmtpSink();
    const mailer = sinkMailer(sink.url);
    const mailClock = fixedClock(new Date("2026-11-10T15:00:00.000Z"));
    const mailCtx: ServiceContext = { ...ctx, clock: mailClock, mailer, caller: operator };
    try {
      const paper = await ownedPaper(mailCtx);
      const agent = await agentContext(mailCtx);
      await createComment(agent.ctx, { paperId: paper.paperId, body: "Digest me." });
      // Everything before today (UTC) was mailed or is someone else's: start from a clean slate.
      await ctx.db.execute(
        sql`update notifications set mailed_at = now() where recipient <> ${paper.owner.id}`,
      );
      expect(await deliverNotificationMail(mailCtx)).toEqual({
        immediate: 0,
        digests: 0,
        failed: 0,
      });
      mailClock.set(new Date("2026-11-11T00:01:00.000Z"));
      const runs = await Promise.all([
        deliverNotificationMail(mailCtx),
        deliverNotificationMail(mailCtx),
      ]);
      expect(runs.reduce((n, r) => n + r.digests, 0)).toBe(1);
      const mail = await sink.next();
      expect(mail.to).toEqual([paper.owner.email]);
      expect(mail.headers.subject).toBe("Quire: your daily digest (1 new)");
      expect(mail.text).toContain(`commented on "A study of`);
      expect(mail.text).toContain(`http://quire.test/papers/${paper.paperId}`);
      expect((await deliverNotificationMail(mailCtx)).digests).toBe(0);
      expect(sink.received.length).toBe(1);
    } finally {
      await mailer.close();
      await sink.close();
    }
  });

  it("sends opted-in kinds at once, in the owner's language, and leaves them out of the digest", async () => {
    const sink = await startSmtpSink();
    const mailer = sinkMailer(sink.url);
    const mailClock = fixedClock(new Date("2026-11-12T09:00:00.000Z"));
    const mailCtx: ServiceContext = { ...ctx, clock: mailClock, mailer, caller: operator };
    try {
      await ctx.db.execute(sql`update notifications set mailed_at = now() where mailed_at is null`);
      const paper = await ownedPaper(mailCtx);
      await setMailPreferences(
        { ...paper.ownerCtx, clock: mailClock },
        { digest: true, immediate: ["review"], lang: "es" },
      );
      const agent = await agentContext(mailCtx);
      await createReview(agent.ctx, {
        paperId: paper.paperId,
        review: { ...SCORES, body: "Ya." },
      });
      await createComment(agent.ctx, { paperId: paper.paperId, body: "Later." });
      expect(await deliverNotificationMail(mailCtx)).toEqual({
        immediate: 1,
        digests: 0,
        failed: 0,
      });
      const mail = await sink.next();
      // RFC 2047 encoded: "Quire: una notificación nueva".
      expect(mail.headers.subject).toBe("=?UTF-8?Q?Quire=3A_una_notificaci=C3=B3n_nueva?=");
      expect(mail.text).toContain("publicó una revisión de «A study of");
      expect(mail.text).toContain(`http://quire.test/es/papers/${paper.paperId}`);
      expect(mail.text).not.toContain("comentó");
      mailClock.set(new Date("2026-11-13T00:00:30.000Z"));
      expect((await deliverNotificationMail(mailCtx)).digests).toBe(1);
      const digest = await sink.next();
      expect(digest.text).toContain("comentó «A study of");
      expect(digest.text).not.toContain("publicó una revisión");
    } finally {
      await mailer.close();
      await sink.close();
    }
  });

  it("a failed send releases its claims for the next run", async () => {
    const failing = {
      kind: "smtp" as const,
      send: async () => {
        throw new Error("connection refused");
      },
      close: async () => {},
    };
    const mailClock = fixedClock(new Date("2026-11-14T10:00:00.000Z"));
    await ctx.db.execute(sql`update notifications set mailed_at = now() where mailed_at is null`);
    const paper = await ownedPaper({ ...ctx, clock: mailClock });
    const agent = await agentContext({ ...ctx, clock: mailClock });
    await createComment(
      { ...agent.ctx, clock: mailClock },
      { paperId: paper.paperId, body: "Hm." },
    );
    mailClock.set(new Date("2026-11-15T00:05:00.000Z"));
    const failCtx: ServiceContext = { ...ctx, clock: mailClock, mailer: failing, caller: operator };
    expect((await deliverNotificationMail(failCtx)).failed).toBe(1);
    const [left] = await ctx.db
      .select({ n: count() })
      .from(notifications)
      .where(sql`recipient = ${paper.owner.id} and mailed_at is null`);
    expect(left?.n).toBe(1);
  });
});

describe("retention", () => {
  it("the prune removes notifications 90 days after their event, read or not", async () => {
    const owner = await makeOwner(ctx);
    const now = clock.now().getTime();
    const DAY = 86_400_000;
    const row = (subjectId: string, age: number, read: boolean) => ({
      id: newId("ntf"),
      recipient: owner.id,
      recipientOwnerId: owner.id,
      kind: "comment",
      subjectId,
      details: {},
      createdAt: new Date(now - age),
      readAt: read ? new Date(now - age) : null,
    });
    await ctx.db
      .insert(notifications)
      .values([
        row("old-read", 91 * DAY, true),
        row("old-unread", 91 * DAY, false),
        row("recent", 89 * DAY, false),
      ]);
    await pruneStores({ ...ctx, caller: operator });
    const left = await ctx.db
      .select({ subject: notifications.subjectId })
      .from(notifications)
      .where(eq(notifications.recipient, owner.id));
    expect(left.map((r) => r.subject)).toEqual(["recent"]);
  });
});
