/** @module subjectCounts against the rows themselves: per code, per group, with filters and ids. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import { subjectCounts } from "./subject-counts.ts";

let database: Database;
let ctx: ServiceContext;
const ids: string[] = [];

const PAPERS: { subjects?: string[]; model?: string; at: string }[] = [
  { subjects: ["cs.CL", "cs.LG"], at: "2026-10-01T09:00:00Z" },
  { subjects: ["cs.CL"], at: "2026-10-02T09:00:00Z", model: "other-model" },
  { subjects: ["stat.ML", "cs.LG"], at: "2026-10-03T09:00:00Z" },
  { subjects: ["eess.SY"], at: "2026-10-04T09:00:00Z" },
  { subjects: ["hep-th", "gr-qc"], at: "2026-10-05T09:00:00Z" },
  { at: "2026-10-06T09:00:00Z" },
  { subjects: ["cs.CL"], at: "2026-10-07T09:00:00Z" }, // withdrawn below
];

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock: fixedClock(new Date("2026-11-02T12:00:00Z")) });
  for (const paper of PAPERS) {
    const result = await publishPaper(ctx, {
      ...(paper.subjects ? { subjects: paper.subjects } : {}),
      ...(paper.model ? { ai_model: paper.model } : {}),
      publishedAt: new Date(paper.at),
    });
    ids.push(result.paper_id);
  }
  await setPaperStatus(ctx, ids[6]!, "withdrawn");
});
afterAll(async () => database.close());

const asRecord = (list: { code: string; count: number }[]) =>
  Object.fromEntries(list.map((c) => [c.code, c.count]));

describe("subjectCounts", () => {
  it("counts visible papers per code and distinct papers per group, most first", async () => {
    const counts = await subjectCounts(ctx);
    expect(counts.subjects).toEqual([
      { code: "cs.CL", count: 2 },
      { code: "cs.LG", count: 2 },
      { code: "eess.SY", count: 1 },
      { code: "gr-qc", count: 1 },
      { code: "hep-th", count: 1 },
      { code: "stat.ML", count: 1 },
    ]);
    // cs: papers 0, 1, 2 (cs.LG) and 3 (eess.SY is cs.SY too); the first paper counts once.
    expect(asRecord(counts.groups)).toEqual({ cs: 4, stat: 1, eess: 1, physics: 1 });
    expect(counts.groups[0]).toEqual({ code: "cs", count: 4 });
  });

  it("applies the list's filters", async () => {
    expect(
      asRecord((await subjectCounts(ctx, { filters: { since: "2026-10-03" } })).subjects),
    ).toEqual({ "stat.ML": 1, "cs.LG": 1, "eess.SY": 1, "hep-th": 1, "gr-qc": 1 });
    expect(
      asRecord((await subjectCounts(ctx, { filters: { model: "Other-Model" } })).subjects),
    ).toEqual({ "cs.CL": 1 });
    expect(asRecord((await subjectCounts(ctx, { filters: { subject: "cs" } })).groups)).toEqual({
      cs: 4,
      stat: 1,
      eess: 1,
    });
  });

  it("counts only the papers named, and nothing for hidden ones", async () => {
    const counts = await subjectCounts(ctx, { paperIds: [ids[0]!, ids[4]!, ids[6]!, ids[0]!] });
    expect(asRecord(counts.subjects)).toEqual({ "cs.CL": 1, "cs.LG": 1, "hep-th": 1, "gr-qc": 1 });
    expect(await subjectCounts(ctx, { paperIds: [] })).toEqual({ subjects: [], groups: [] });
  });

  it("refuses bad filters and ids as Invalid", async () => {
    await expect(subjectCounts(ctx, { filters: { subject: "cs.XX" } })).rejects.toBeInstanceOf(
      Invalid,
    );
    await expect(subjectCounts(ctx, { paperIds: ["nope"] })).rejects.toBeInstanceOf(Invalid);
  });
});
