/** @module Query expansion (RM3 feedback, WordNet synonyms) through searchChunks on a small corpus. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import type { ServiceContext } from "../context.ts";
import { type PublishInput, publishVersion } from "../papers/publish.ts";
import { searchChunks } from "./search.ts";
import type { SearchSettings } from "./settings.ts";

let database: Database;
let ctx: ServiceContext;
const ids: Record<string, string> = {};

const BODY =
  "## Method\n\nWe describe the data, the instruments and the statistical model, and we report every choice made along the way so that others can repeat the work.\n";

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

const CORPUS: Record<string, PublishInput> = {
  // Shares the query's words and the vocabulary of `neighbour`.
  seed: paper(
    "Glacier retreat measured by repeated surveys",
    "Repeated surveys of Alpine glaciers show ice thinning and moraine exposure, with crevasse fields and firn loss at low altitude.",
  ),
  // Shares no query word, only the seed's vocabulary: feedback can reach it, the query cannot.
  neighbour: paper(
    "Moraine exposure and crevasse fields in the Andes",
    "Mapping moraine exposure, crevasse fields and firn loss over two decades of Andean ice thinning.",
  ),
  picture: paper(
    "Old pictures of harbours in the archive",
    "A catalogue of pictures of harbours kept in a municipal archive, dated by the ships they show.",
  ),
  other: paper(
    "Register allocation by graph colouring revisited",
    "We revisit graph colouring for register allocation and show that coalescing copies before spilling reduces spilled variables.",
  ),
};

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { ...testContext(database), caller: operator };
  for (const [key, input] of Object.entries(CORPUS)) {
    const result = await publishVersion(ctx, input);
    if (result.outcome !== "published") throw new Error(`${key} not published`);
    ids[key] = result.paper_id;
  }
});
afterAll(async () => database.close());

async function papersFor(q: string, search: Partial<SearchSettings>): Promise<string[]> {
  const { results } = await searchChunks(
    { ...ctx, caller: { kind: "anonymous" }, search },
    { q, limit: 20 },
  );
  return [...new Set(results.map((r) => r.paper_id))];
}

describe("query expansion", () => {
  it("is off by default: the settings give both expansions weight 0", async () => {
    const { DEFAULT_SEARCH_SETTINGS } = await import("./settings.ts");
    expect(DEFAULT_SEARCH_SETTINGS.feedback.weight).toBe(0);
    expect(DEFAULT_SEARCH_SETTINGS.synonymWeight).toBe(0);
  });

  it("RM3 feedback brings in a paper that shares the best passages' words, not the query's", async () => {
    const q = "glacier retreat surveys";
    expect(await papersFor(q, {})).not.toContain(ids.neighbour);
    const expanded = await papersFor(q, { feedback: { docs: 3, terms: 10, weight: 0.3 } });
    expect(expanded[0]).toBe(ids.seed);
    expect(expanded).toContain(ids.neighbour);
  });

  it("WordNet synonyms find a paper worded with a synonym, below the query's own matches", async () => {
    const q = "photographs of harbours";
    const plain = await papersFor("photographs", {});
    expect(plain).not.toContain(ids.picture);
    const expanded = await papersFor("photographs", { synonymWeight: 0.35 });
    expect(expanded).toContain(ids.picture);
    // A query that already matches keeps its first paper first.
    expect((await papersFor(q, { synonymWeight: 0.35 }))[0]).toBe(ids.picture);
  });
});
