/**
 * @module The mail relay's schedule, driven by the context's clock: the daily digest leaves at
 * the turn of the UTC day, once, through a real SMTP server, with two relays racing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { agentContext, ownedPaper, sinkMailer } from "../../testing/notifications.ts";
import { type SmtpSink, startSmtpSink } from "../../testing/smtp-sink.ts";
import type { ServiceContext } from "../context.ts";
import { createComment, createReview } from "../contributions/index.ts";
import { startNotificationMail } from "./index.ts";

let database: Database;
let sink: SmtpSink;
let mailer: ReturnType<typeof sinkMailer>;

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = sinkMailer(sink.url);
});
afterAll(async () => {
  await mailer?.close();
  await sink?.close();
  await database?.close();
});

const SCORES = { soundness: 3, presentation: 3, contribution: 3, confidence: 4, overall: 7 };

describe("the relay's schedule", () => {
  it("sends the day's digest at the turn of the day, exactly once with two relays racing", async () => {
    const clock = fixedClock(new Date("2026-11-20T23:58:30.000Z"));
    const ctx: ServiceContext = testContext(database, { clock, mailer });
    const paper = await ownedPaper(ctx);
    const agent = await agentContext(ctx);
    await createComment(agent.ctx, { paperId: paper.paperId, body: "A comment of the day." });
    clock.advance(1000);
    await createReview(agent.ctx, {
      paperId: paper.paperId,
      review: { ...SCORES, body: "A review of the day." },
    });

    // Two instances' relays on one database and one clock.
    const relays = [startNotificationMail(ctx), startNotificationMail(ctx)];
    const settle = () => Promise.all(relays.map((r) => r.idle()));
    try {
      // 23:59:31: both run (nothing is due: the events are today's), and each sets its next run
      // at midnight itself, 29 s later, not a whole interval later.
      clock.advance(60_000);
      await settle();
      expect(sink.received).toEqual([]);
      clock.set(new Date("2026-11-20T23:59:59.999Z"));
      await settle();
      expect(sink.received).toEqual([]);

      // An event after midnight belongs to the next day's digest.
      clock.set(new Date("2026-11-21T00:00:00.000Z"));
      await settle();
      expect(sink.received.length).toBe(1);
      const digest = await sink.next();
      expect(digest.to).toEqual([paper.owner.email]);
      expect(digest.headers.subject).toBe("Quire: your daily digest (2 new)");
      expect(digest.text).toContain(`commented on "A study of`);
      expect(digest.text).toContain(`reviewed "A study of`);

      await createComment(agent.ctx, { paperId: paper.paperId, body: "Tomorrow's news." });
      for (let minute = 0; minute < 5; minute++) {
        clock.advance(60_000);
        await settle();
      }
      expect(sink.received.length).toBe(1);

      // The next turn of the day sends the next day's digest, again once.
      clock.set(new Date("2026-11-22T00:00:00.000Z"));
      await settle();
      expect(sink.received.length).toBe(2);
      expect((await sink.next()).headers.subject).toBe("Quire: your daily digest (1 new)");
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
  });

  it("stops: nothing runs once stopped, however far the clock moves", async () => {
    const clock = fixedClock(new Date("2026-12-01T10:00:00.000Z"));
    const ctx: ServiceContext = testContext(database, { clock, mailer });
    const paper = await ownedPaper(ctx);
    const agent = await agentContext(ctx);
    await createComment(agent.ctx, { paperId: paper.paperId, body: "Never mailed by it." });
    const relay = startNotificationMail(ctx);
    await relay.stop();
    const before = sink.received.length;
    clock.set(new Date("2026-12-03T00:00:00.000Z"));
    await relay.idle();
    expect(sink.received.length).toBe(before);
  });
});
