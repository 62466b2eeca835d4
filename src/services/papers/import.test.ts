import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { papers } from "../../db/schema/index.ts";
import { rowsOf } from "../../db/sql.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { getPaper } from "./get.ts";
import { type ImportLineResult, importPapers } from "./import.ts";
import { seedSamplePapers } from "./seed.ts";

let database: Database;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database);
});
afterAll(async () => database.close());

function record(overrides: Record<string, unknown> = {}) {
  const p = paperInput();
  return JSON.stringify({
    title: p.title,
    abstract: p.abstract,
    body: p.body,
    ai_model: p.ai_model,
    license: p.license,
    keywords: p.keywords,
    ...overrides,
  });
}

describe("importPapers", () => {
  it("loads the sample papers into an empty archive once, the two with figures from their bundles", async () => {
    const first = await seedSamplePapers(ctx);
    expect(first).toMatchObject({ published: 14, rejected: 0, invalid: 0, held: 0 });
    expect(await seedSamplePapers(ctx)).toBeNull();

    const rows = await rowsOf<{ id: string; title: string }>(
      ctx.db,
      sql`select paper_id as id, title from paper_versions`,
    );
    const idOf = (start: string) => rows.find((r) => r.title.startsWith(start))?.id ?? "";

    // From LaTeX: title and abstract from \title and the abstract, numbered equations, a
    // theorem, a table, figures and a bibliography; the LaTeX sources kept as `source` files.
    const latex = await getPaper(ctx, { id: idOf("Exact Coverage of the Wald and Wilson") });
    expect(latex.version.abstract).toMatch(/^The Wald interval for a binomial proportion/);
    expect(latex.version.body).toMatch(/\\tag\{3\}\n\$\$/);
    expect(latex.version.body).toContain("Equation ([3](#eq-3))");
    expect(latex.version.body).toMatch(/\*\*Theorem 1\.\*\*/);
    expect(latex.version.body).toContain("Table: Table 1:");
    expect(latex.version.body).toMatch(/\\\[1\\\] A\. Agresti and B\. A\. Coull/);
    expect(latex.version.body).not.toContain("Cited by");
    expect(latex.version.files.map((f) => [f.name, f.role, f.media_type])).toEqual([
      ["figures/coverage-n30.png", "figure", "image/png"],
      ["figures/coverage-p010.png", "figure", "image/png"],
      ["data/coverage.csv", "supplementary", "text/csv"],
      ["main.tex", "source", "application/x-tex"],
      ["refs.bib", "source", "application/x-bibtex"],
    ]);

    // From Markdown: SVG figures and the data as CSV.
    const markdown = await getPaper(ctx, { id: idOf("Linear Probing at High Load") });
    expect(markdown.version.body).toContain("![Figure 1: Mean probes per successful");
    expect(markdown.version.files.map((f) => [f.name, f.role, f.media_type])).toEqual([
      ["figures/probes.svg", "figure", "image/svg+xml"],
      ["figures/tail.svg", "figure", "image/svg+xml"],
      ["data/probes.csv", "supplementary", "text/csv"],
    ]);
  });

  it("reports bad lines by number, imports the rest, and is idempotent on rerun", async () => {
    const owner = await makeOwner(ctx);
    const lines = [
      record({ published_at: "2025-02-03T04:05:06Z", owner: owner.handle }),
      "{not json",
      record({ title: 42 }),
      "",
      record({ owner: "no-such-owner" }),
      record({ extra: true }),
      record(),
    ];
    const seen: ImportLineResult[] = [];
    const summary = await importPapers(ctx, lines, (r) => seen.push(r));
    expect(summary).toMatchObject({ published: 2, invalid: 4, rejected: 0 });
    expect(seen.filter((r) => r.outcome === "invalid").map((r) => r.line)).toEqual([2, 3, 5, 6]);
    expect(seen.find((r) => r.line === 3)?.messages.join()).toContain("title");
    const imported = seen.find((r) => r.line === 1);
    expect(imported?.paper_id).toMatch(/^2502\.\d{5}$/);
    const detail = await getPaper(ctx, { id: imported?.paper_id ?? "" });
    expect(detail.paper.owner_handle).toBe(owner.handle);
    expect(detail.paper.published_at).toBe("2025-02-03T04:05:06.000Z");

    const before = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(papers);
    const again = await importPapers(ctx, lines);
    expect(again).toMatchObject({ published: 0, already_imported: 2, invalid: 4 });
    const after = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(papers);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it("reports screener rejections with their reasons", async () => {
    const results: ImportLineResult[] = [];
    const summary = await importPapers(
      ctx,
      [record({ body: "Contact me. AKIAZ7QH3KJ2WLD5PX4M is our key.\n" })],
      (r) => results.push(r),
    );
    expect(summary.rejected).toBe(1);
    expect(results[0]?.messages.join(" ")).toMatch(/access key/i);
    expect(results[0]?.messages.join(" ")).not.toContain("AKIAZ7QH3KJ2WLD5PX4M");
  });
});
