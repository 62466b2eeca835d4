/** @module relatedPapers on a small corpus of topic pairs: closeness, exclusions, visibility, bounds. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import { makeOwner } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid, NotFound } from "../errors.ts";
import { unindexPaper } from "../search/index.ts";
import { type PublishInput, publishVersion } from "./publish.ts";
import { relatedPapers } from "./related.ts";
import { RELATED_LIMIT } from "./schemas.ts";

let database: Database;
let ctx: ServiceContext;
const ids: Record<string, string> = {};

const BODY =
  "## Method\n\nWe describe the data, the instruments and the analysis, and report every choice made along the way.\n";

function paper(title: string, abstract: string): PublishInput {
  return {
    title,
    abstract,
    body: BODY,
    ai_model: "test-model-1",
    license: "CC-BY-4.0",
    keywords: [],
  };
}

/** Pairs of papers on one topic each, worded differently. */
const CORPUS: Record<string, PublishInput> = {
  glacierA: paper(
    "Glacier mass balance in the Alps",
    "Repeated surveys of forty Alpine glaciers show the ice thinning every year since 2000, fastest at low altitude, where summer melt now exceeds winter snowfall.",
  ),
  glacierB: paper(
    "Meltwater and the retreat of Alpine glaciers",
    "Stake measurements on glacier tongues link summer meltwater runoff to ice loss; the glaciers retreat fastest where winter snowfall is thin.",
  ),
  reefA: paper(
    "Coral reef acoustics at dawn",
    "Hydrophones on three coral reefs record snapping shrimp and fish choruses; healthy reefs are louder and their sound attracts settling larvae.",
  ),
  reefB: paper(
    "Listening to degraded coral reefs",
    "Underwater recordings show that bleached coral reefs fall quiet: fewer fish choruses and snapping shrimp, and fewer larvae settle there.",
  ),
  compilerA: paper(
    "Register allocation by graph colouring revisited",
    "We revisit Chaitin-style graph colouring for register allocation and show that coalescing copies before spilling reduces spilled variables.",
  ),
  compilerB: paper(
    "Spilling heuristics for register allocators",
    "A register allocator must spill when the interference graph cannot be coloured; we compare spill heuristics on compiler benchmarks.",
  ),
  heat: paper(
    "Urban heat islands and street trees",
    "Street-level temperature loggers in six cities show that tree canopy cools afternoons by up to three degrees, most where buildings are dense.",
  ),
};

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { ...testContext(database), caller: operator };
  for (const [key, input] of Object.entries(CORPUS)) {
    const result = await publishVersion(ctx, input);
    if (result.outcome !== "published") throw new Error(`${key}: ${JSON.stringify(result)}`);
    ids[key] = result.paper_id;
  }
});
afterAll(() => database.close());

/** Publishes and returns the id; fails the test when the screener refuses. */
async function publish(input: PublishInput) {
  const result = await publishVersion(ctx, input);
  if (result.outcome !== "published") throw new Error(JSON.stringify(result));
  return result.paper_id;
}

const anonymous = () => ({ ...ctx, caller: { kind: "anonymous" as const } });
const relatedIds = async (id: string, limit?: number) =>
  (await relatedPapers(anonymous(), { id, ...(limit ? { limit } : {}) })).related.map((r) => r.id);

describe("relatedPapers", () => {
  it("puts the paper on the same topic first", async () => {
    for (const [a, b] of [
      ["glacierA", "glacierB"],
      ["reefB", "reefA"],
      ["compilerA", "compilerB"],
    ] as const) {
      expect((await relatedIds(ids[a]!))[0], a).toBe(ids[b]);
    }
  });

  it("answers with list items, each with a score in [0, 1], closest first", async () => {
    const answer = await relatedPapers(anonymous(), { id: ids.reefA!, limit: 20 });
    expect(answer).toMatchObject({ paper_id: ids.reefA, version: 1 });
    expect(answer.related.length).toBeGreaterThan(1);
    const scores = answer.related.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    for (const r of answer.related) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      expect(Object.keys(r).sort()).toEqual(
        [
          "ai_label",
          "ai_model",
          "counts",
          "id",
          "language",
          "published_at",
          "score",
          "subjects",
          "title",
          "updated_at",
          "verification",
          "version",
        ].sort(),
      );
      expect(r.ai_label).toBe("AI-generated");
      expect(r.language).toBe("en");
    }
  });

  it("returns 5 by default and honours limit from 1 to 20", async () => {
    expect(await relatedIds(ids.heat!)).toHaveLength(RELATED_LIMIT.default);
    expect(await relatedIds(ids.heat!, 1)).toHaveLength(1);
    const all = await relatedIds(ids.heat!, 20);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeLessThanOrEqual(20);
  });

  it("refuses a limit outside 1 to 20, naming it", async () => {
    for (const limit of [0, 21, 2.5, -1]) {
      const error = await relatedPapers(anonymous(), { id: ids.heat!, limit }).catch((e) => e);
      expect(error, String(limit)).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues).toEqual([
        expect.objectContaining({ in: "query", name: "limit" }),
      ]);
    }
  });

  it("is a 404 for an unknown id, a malformed one and a version that does not exist", async () => {
    for (const id of ["2601.99999", "not-a-paper", `${ids.heat}v2`, `${ids.heat}v0`]) {
      await expect(relatedPapers(anonymous(), { id }), id).rejects.toBeInstanceOf(NotFound);
    }
  });

  it("never lists the paper itself or another version of it", async () => {
    const id = await publish(
      paper(
        "Sea ice thickness from submarine sonar",
        "Upward-looking sonar on submarines measures Arctic sea ice thickness; the ice thinned by a third between the two survey decades.",
      ),
    );
    await publish({
      ...paper(
        "Arctic sea ice thickness from sonar and satellites",
        "Submarine sonar and satellite altimetry agree that Arctic sea ice has thinned; thin first-year ice now covers most of the basin.",
      ),
      paperId: id,
      changelog: "satellite data added",
    });
    for (const ref of [id, `${id}v1`, `${id}v2`]) {
      const answer = await relatedPapers(anonymous(), { id: ref, limit: 20 });
      expect(
        answer.related.map((r) => r.id),
        ref,
      ).not.toContain(id);
      expect(answer.version).toBe(ref.endsWith("v1") ? 1 : 2);
    }
    // From another paper it is listed once, as its current version.
    const near = await relatedPapers(anonymous(), { id: ids.glacierA!, limit: 20 });
    const listed = near.related.filter((r) => r.id === id);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.version).toBe(2);
  });

  it("lists only published papers, even before the index is told of a withdrawal", async () => {
    const a = await publish(
      paper(
        "Volcanic ash and jet engines",
        "Volcanic ash melts in jet engine combustors and coats turbine blades; we estimate the ash concentrations aircraft can tolerate.",
      ),
    );
    const b = await publish(
      paper(
        "Aviation after volcanic eruptions",
        "Ash clouds from volcanic eruptions close airspace; engine tests show how much ash a turbine tolerates before the blades glaze.",
      ),
    );
    expect(await relatedIds(a)).toContain(b);
    await ctx.db.execute(sql`update papers set status = 'withdrawn' where id = ${b}`);
    expect(await relatedIds(a, 20)).not.toContain(b);
    await unindexPaper(ctx, b);
    expect(await relatedIds(a, 20)).not.toContain(b);
    // The withdrawn paper itself is a 404 to everyone but its owner and moderators.
    await expect(relatedPapers(anonymous(), { id: b })).rejects.toBeInstanceOf(NotFound);
    const owner = await makeOwner(ctx);
    await ctx.db.execute(sql`update papers set owner_id = ${owner.id} where id = ${b}`);
    const own = await relatedPapers(
      { ...ctx, caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" } },
      { id: b },
    );
    expect(own.related.map((r) => r.id)[0]).toBe(a);
  });
});
