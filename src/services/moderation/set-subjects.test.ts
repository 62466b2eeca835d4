/** @module setPaperSubjects: moderators only, checked codes, logged, and seen by the list at once. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { makeOwner, publishPaper } from "../../testing/factories.ts";
import { eventsFor, moderatorContext, paperRow } from "../../testing/moderation.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../errors.ts";
import { listPapers } from "../papers/index.ts";
import { setPaperSubjects } from "./set-subjects.ts";

let database: Database;
let ctx: ServiceContext;
let mod: ServiceContext;
let handle: string;
const clock = fixedClock();

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  const made = await moderatorContext(ctx);
  mod = made.ctx;
  handle = made.handle;
});
afterAll(async () => database.close());

const listed = async (subject: string) =>
  (await listPapers(ctx, { subject })).papers.map((p) => p.id);

describe("setPaperSubjects", () => {
  it("files the paper under the new subjects, logs it and moves updated_at", async () => {
    const { paper_id: id } = await publishPaper(ctx, { subjects: ["cs.CL", "cs.LG"] });
    const before = await paperRow(ctx, id);
    expect(await listed("cs.CL")).toContain(id);
    clock.advance(60_000);
    const result = await setPaperSubjects(mod, {
      paperId: id,
      subjects: ["math.IT", "hep-th"],
      reason: "Information theory, not linguistics.",
    });
    expect(result).toMatchObject({ paper_id: id, subjects: ["cs.IT", "hep-th"] });
    expect(result.event_id).toMatch(/^mod_/);
    expect(await listed("cs.CL")).not.toContain(id);
    expect(await listed("cs.IT")).toContain(id);
    expect(await listed("physics")).toContain(id);
    const after = await paperRow(ctx, id);
    expect(after?.subjects).toEqual(["cs.IT", "hep-th"]);
    expect(after!.updatedAt.getTime()).toBeGreaterThan(before!.updatedAt.getTime());
    const [event] = await eventsFor(ctx, id);
    expect(event).toMatchObject({
      id: result.event_id,
      actor: handle,
      action: "paper.subjects",
      reason: "Information theory, not linguistics.",
      details: { subjects_from: ["cs.CL", "cs.LG"], subjects_to: ["cs.IT", "hep-th"], version: 1 },
    });
  });

  it("writes nothing when the paper has these subjects already", async () => {
    const { paper_id: id } = await publishPaper(ctx, { subjects: ["cs.CL"] });
    const result = await setPaperSubjects(mod, { paperId: id, subjects: ["cs.CL"], reason: "x" });
    expect(result.event_id).toBeNull();
    expect(await eventsFor(ctx, id)).toHaveLength(0);
  });

  it("applies to a paper in any state (a withdrawn one keeps them for harvesters)", async () => {
    const { paper_id: id } = await publishPaper(ctx, { subjects: ["cs.CL"] });
    await setPaperSubjects(mod, { paperId: id, subjects: ["cs.AI"], reason: "x" });
    await setPaperStatus(ctx, id, "withdrawn");
    await setPaperSubjects(mod, { paperId: id, subjects: ["cs.LG"], reason: "y" });
    expect((await paperRow(ctx, id))?.subjects).toEqual(["cs.LG"]);
  });

  it("refuses unknown, repeated, too many or no subjects, and a missing reason, all at once", async () => {
    const { paper_id: id } = await publishPaper(ctx, { subjects: ["cs.CL"] });
    const error = await setPaperSubjects(mod, {
      paperId: id,
      subjects: ["cs.XX", "cs.CL", "cs.CL"],
      reason: " ",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual([
      "reason",
      "subjects.0",
      "subjects.2",
    ]);
    for (const subjects of [[], ["cs.CL", "cs.AI", "cs.LG", "cs.IR", "cs.CV", "cs.RO"]]) {
      await expect(setPaperSubjects(mod, { paperId: id, subjects, reason: "x" })).rejects.toThrow(
        Invalid,
      );
    }
    expect((await paperRow(ctx, id))?.subjects).toEqual(["cs.CL"]);
    await expect(
      setPaperSubjects(mod, { paperId: "2601.99999", subjects: ["cs.CL"], reason: "x" }),
    ).rejects.toThrow(NotFound);
  });

  it("refuses everyone but moderators before reading anything", async () => {
    const { paper_id: id } = await publishPaper(ctx, { subjects: ["cs.CL"] });
    const owner = await makeOwner(ctx);
    for (const caller of [
      { kind: "anonymous" } as const,
      { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" } as const,
    ]) {
      await expect(
        setPaperSubjects({ ...ctx, caller }, { paperId: id, subjects: ["cs.AI"], reason: "x" }),
      ).rejects.toThrow(Forbidden);
    }
    expect((await paperRow(ctx, id))?.subjects).toEqual(["cs.CL"]);
  });
});
