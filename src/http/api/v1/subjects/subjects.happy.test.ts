/** @module GET /api/v1/subjects: the whole taxonomy, with the list's facet counts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubjectIndex } from "../../../../services/papers/index.ts";
import { SUBJECT_GROUPS, SUBJECTS } from "../../../../services/subjects/index.ts";
import { setPaperStatus } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { publishPaper } from "../../../../testing/factories.ts";

let t: TestApp;

const PAPERS: { subjects?: string[]; at: string }[] = [
  { subjects: ["cs.CL", "cs.LG"], at: "2026-10-01T09:00:00Z" },
  { subjects: ["cs.CL"], at: "2026-10-05T09:00:00Z" },
  { subjects: ["eess.SY"], at: "2026-10-06T09:00:00Z" },
  { subjects: ["stat.ML", "cs.LG"], at: "2026-10-07T09:00:00Z" },
  { at: "2026-10-08T09:00:00Z" },
  { subjects: ["cs.CL"], at: "2026-10-09T09:00:00Z" }, // withdrawn below
];

beforeAll(async () => {
  t = await createTestApp();
  const ids: string[] = [];
  for (const p of PAPERS) {
    const result = await publishPaper(t.ctx, {
      ...(p.subjects ? { subjects: p.subjects } : {}),
      publishedAt: new Date(p.at),
    });
    ids.push(result.paper_id);
  }
  await setPaperStatus(t.ctx, ids[5]!, "withdrawn");
});
afterAll(async () => t.close());

async function index(query = ""): Promise<SubjectIndex> {
  const res = await t.app.request(`/api/v1/subjects${query}`);
  expect(res.status, query).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as SubjectIndex;
}

const countsOf = (body: SubjectIndex) => ({
  groups: Object.fromEntries(
    body.groups.filter((g) => g.paper_count > 0).map((g) => [g.code, g.paper_count]),
  ),
  subjects: Object.fromEntries(
    body.groups
      .flatMap((g) => g.subjects)
      .filter((s) => s.paper_count > 0)
      .map((s) => [s.code, s.paper_count]),
  ),
});

describe("GET /api/v1/subjects", () => {
  it("lists every group and category of the scheme in arXiv's order, with names and aliases", async () => {
    const body = await index();
    expect(body.groups.map((g) => g.code)).toEqual(SUBJECT_GROUPS.map((g) => g.code));
    const listed = body.groups.flatMap((g) => g.subjects);
    expect(listed.map((s) => s.code)).toEqual(
      SUBJECT_GROUPS.flatMap((g) => g.subjects.map((s) => s.code)),
    );
    expect(listed).toHaveLength(SUBJECTS.length);
    const cs = body.groups.find((g) => g.code === "cs")!;
    expect(cs.name).toEqual({ en: "Computer Science", es: expect.any(String) });
    const cl = listed.find((s) => s.code === "cs.CL")!;
    expect(cl).toMatchObject({ archive: "cs", name: { en: "Computation and Language" } });
    expect(listed.find((s) => s.code === "eess.SY")!.aliases).toEqual(["cs.SY"]);
  });

  it("counts visible papers: per category as listed, per group distinct, aliases reaching their groups", async () => {
    expect(countsOf(await index())).toEqual({
      // The withdrawn paper counts nowhere; a paper without subjects counts nowhere either.
      subjects: { "cs.CL": 2, "cs.LG": 2, "eess.SY": 1, "stat.ML": 1 },
      // cs: papers 0, 1, 3 (cs.LG) and 2 (eess.SY is cs.SY too); paper 0 counts once.
      groups: { cs: 4, eess: 1, stat: 1 },
    });
  });

  it("narrows the counts by the list's filters, never the taxonomy", async () => {
    const since = await index("?since=2026-10-06");
    expect(since.groups.flatMap((g) => g.subjects)).toHaveLength(SUBJECTS.length);
    expect(countsOf(since)).toEqual({
      subjects: { "cs.LG": 1, "eess.SY": 1, "stat.ML": 1 },
      groups: { cs: 2, eess: 1, stat: 1 },
    });
    // The facets of a subject's list: what its papers are also listed under.
    expect(countsOf(await index("?subject=cs.CL"))).toEqual({
      subjects: { "cs.CL": 2, "cs.LG": 1 },
      groups: { cs: 2 },
    });
    expect(countsOf(await index("?until=2026-09-30"))).toEqual({ subjects: {}, groups: {} });
    // The counts agree with the list itself.
    const list = await t.app.request("/api/v1/papers?subject=cs&limit=100");
    const { papers } = (await list.json()) as { papers: unknown[] };
    expect(papers).toHaveLength(countsOf(await index()).groups.cs!);
  });
});
