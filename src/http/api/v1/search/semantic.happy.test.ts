/** @module GET /api/v1/search/semantic: the contract's shape, verbatim quotes, ordering. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../../../../services/search/schemas.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { publishPaper } from "../../../../testing/factories.ts";

let t: TestApp;
let glacier: string;

beforeAll(async () => {
  t = await createTestApp();
  const operator = { ...t.ctx, caller: { kind: "operator" as const } };
  glacier = (
    await publishPaper(operator, {
      title: "Glacier mass balance in the Alps",
      abstract:
        "Repeated surveys of forty Alpine glaciers show the ice thinning every year since 2000, fastest at low altitude.",
    })
  ).paper_id;
  for (let i = 0; i < 4; i++) await publishPaper(operator);
});
afterAll(() => t.close());

async function search(query: string): Promise<SearchResponse> {
  const res = await t.app.request(`/api/v1/search/semantic?${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as SearchResponse;
}

describe("GET /api/v1/search/semantic", () => {
  it("answers { query, results } with exactly the documented members", async () => {
    const body = await search("q=%20%20glacier%20thinning%20&limit=5");
    expect(Object.keys(body).sort()).toEqual(["query", "results"]);
    expect(body.query).toBe("glacier thinning");
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(5);
    expect(body.results[0]?.paper_id).toBe(glacier);
    for (const r of body.results) {
      expect(Object.keys(r).sort()).toEqual(
        [
          "chunk_index",
          "field",
          "highlights",
          "language",
          "match",
          "paper_id",
          "quote",
          "score",
          "title",
          "version",
        ].sort(),
      );
      expect(["title", "abstract", "body", "caption"]).toContain(r.field);
      expect(r.language).toMatch(/^(?:[a-z]{2}|und)$/);
    }
  });

  it("quotes the exact text the context endpoint serves for that chunk", async () => {
    const body = await search("q=the%20method%20and%20results&limit=20");
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) {
      const res = await t.app.request(`/api/v1/papers/${r.paper_id}/context`);
      const context = (await res.json()) as {
        chunks: { chunk_index: number; content: string; field: string }[];
      };
      const chunk = context.chunks.find((c) => c.chunk_index === r.chunk_index);
      expect(chunk?.content).toBe(r.quote);
      expect(chunk?.field).toBe(r.field);
    }
  });

  it("returns at most 8 results by default, scores in [0, 1] and descending", async () => {
    const body = await search("q=study%20of%20the%20method");
    expect(body.results).toHaveLength(8);
    const scores = body.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });

  it("accepts mode=lexical and mode=hybrid", async () => {
    for (const mode of ["lexical", "hybrid"]) {
      const body = await search(`q=glacier%20surveys&mode=${mode}`);
      expect(body.results[0]?.paper_id).toBe(glacier);
    }
  });

  it("groups by paper with group=paper, and narrows by subject and dates", async () => {
    const grouped = (await search("q=glacier%20thinning&group=paper&limit=3")) as unknown as {
      query: string;
      group: string;
      papers: { paper_id: string; passages: unknown[] }[];
    };
    expect(Object.keys(grouped).sort()).toEqual(["group", "papers", "query"]);
    expect(grouped.group).toBe("paper");
    expect(grouped.papers[0]?.paper_id).toBe(glacier);
    expect(grouped.papers[0]?.passages.length).toBeGreaterThan(0);
    // The factory's papers have no subjects: a subject filter keeps none of them.
    expect((await search("q=glacier%20thinning&subject=physics.ao-ph")).results).toEqual([]);
    expect((await search("q=glacier%20thinning&since=2000-01-01")).results[0]?.paper_id).toBe(
      glacier,
    );
    const bad = await t.app.request("/api/v1/search/semantic?q=glacier&subject=xx&since=never");
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name).sort()).toEqual(["since", "subject"]);
  });

  it("answers an empty list when nothing matches", async () => {
    const body = await search("q=zzyzx%20qwertyuiop");
    expect(body).toEqual({ query: "zzyzx qwertyuiop", results: [] });
  });
});
