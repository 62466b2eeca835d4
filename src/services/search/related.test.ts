/** @module rankRelated: the source as a weighted query, and a pool deep enough for papers of many chunks. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import type { ServiceContext } from "../context.ts";
import { type PublishInput, publishVersion } from "../papers/index.ts";
import { rankRelated, sourceQuery } from "./related.ts";

let database: Database;
let ctx: ServiceContext;

const SECTIONS = [
  "Peat bogs store carbon because waterlogged moss decays slowly; draining them for farmland releases that carbon as the peat oxidises.",
  "We cored twelve drained and twelve rewetted bogs and dated each peat layer, so that carbon lost since drainage could be measured.",
  "Rewetting raised the water table within a year, and methane emissions rose while carbon dioxide emissions from the peat fell.",
  "Sphagnum moss returned to most rewetted sites within five years; where it did, the bog began to accumulate peat again.",
  "The net climate effect of rewetting depends on the balance of methane against carbon dioxide, which we estimate per site.",
  "Sites with deep peat gained most from rewetting; shallow, long-drained bogs lost little more carbon whatever was done.",
  "Grazing on rewetted bogs slowed the return of moss, and trampled peat released more methane than ungrazed ground.",
  "We recommend rewetting the deepest drained bogs first, and keeping livestock off them until the moss cover has closed.",
];

function paper(title: string, abstract: string, body: string): PublishInput {
  return { title, abstract, body, ai_model: "test-model-1", license: "CC-BY-4.0", keywords: [] };
}

async function publish(input: PublishInput): Promise<string> {
  const result = await publishVersion(ctx, input);
  if (result.outcome !== "published") throw new Error(JSON.stringify(result));
  return result.paper_id;
}

let source: string;
let long: string;
let shortA: string;
let shortB: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { ...testContext(database), caller: operator };
  source = await publish(
    paper(
      "Rewetting drained peat bogs",
      "Rewetting drained peat bogs stops the carbon loss of oxidising peat, at the cost of some methane, and lets sphagnum moss return.",
      "## Method\n\nWe compare rewetted and drained bogs.\n",
    ),
  );
  // One paper of many chunks, each about the same thing: every chunk is a strong candidate.
  long = await publish(
    paper(
      "Carbon and methane after rewetting peat bogs",
      "A survey of rewetted and drained peat bogs: carbon stored, methane released and the return of sphagnum moss.",
      SECTIONS.map((s, i) => `## Part ${i + 1}\n\n${`${s} `.repeat(12)}`).join("\n\n"),
    ),
  );
  shortA = await publish(
    paper(
      "Methane from rewetted peatland",
      "Chambers on rewetted peat bogs measured methane rising after the water table was raised, while peat carbon loss stopped.",
      "## Method\n\nClosed chambers, monthly for two years.\n",
    ),
  );
  shortB = await publish(
    paper(
      "Sphagnum recovery on drained bogs",
      "Sphagnum moss recolonised drained peat bogs once they were rewetted; bare peat kept losing carbon until the moss closed over it.",
      "## Method\n\nQuadrat surveys of moss cover.\n",
    ),
  );
});
afterAll(() => database.close());

describe("sourceQuery", () => {
  const text = {
    text: "",
    titleLexemes: ["peat"],
    textLexemes: ["peat", "bog", "the", "bog", "carbon"],
    dfs: [
      ["peat", 2],
      ["bog", 2],
      ["carbon", 50],
      ["the", 100],
    ] as [string, number][],
    chunks: 100,
    total: 1000,
    own: 0,
  };

  it("keeps the heaviest lexemes by TF-IDF, a title occurrence counting titleWeight times", () => {
    const q = sourceQuery(text, {
      terms: 2,
      titleWeight: 2,
      bodyChars: 0,
      candidates: 10,
      sparseWeight: 1,
    });
    // peat: tf 1 + 2 (title); bog: tf 2; both rare, so they outweigh carbon and "the".
    expect([...q.idf.keys()].sort()).toEqual(["bog", "peat"]);
    expect(q.idf.get("peat")!).toBeGreaterThan(q.idf.get("bog")!);
    expect(q.terms.map((t) => t.term)).toEqual(["bog", "peat"]);
    expect(q.averageLength).toBe(10);
  });
});

describe("rankRelated", () => {
  it("deepens the pool until it holds enough papers when one paper's chunks fill it", async () => {
    const hits = await rankRelated(ctx, { paperId: source, version: 1 }, 3, { candidates: 2 });
    expect(hits.map((h) => h.paperId).sort()).toEqual([long, shortA, shortB].sort());
    expect(new Set(hits.map((h) => h.paperId)).size).toBe(3);
  });

  it("gives scores in [0, 1] that descend with the fused value", async () => {
    const hits = await rankRelated(ctx, { paperId: source, version: 1 }, 3);
    expect(hits.length).toBe(3);
    for (let i = 1; i < hits.length; i++) {
      expect(hits[i]!.fused).toBeLessThanOrEqual(hits[i - 1]!.fused);
      expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    }
    for (const h of hits) expect(h.score).toBeGreaterThan(0);
    for (const h of hits) expect(h.score).toBeLessThan(1);
  });

  it("finds nothing for a version that does not exist", async () => {
    expect(await rankRelated(ctx, { paperId: source, version: 9 }, 5)).toEqual([]);
  });
});
