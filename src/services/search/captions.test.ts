/** @module Captions in search: found as caption passages by BM25, the sparse and the dense channel, never twice. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../../testing/embeddings-server.ts";
import type { ServiceContext } from "../context.ts";
import { type PublishInput, publishVersion } from "../papers/index.ts";
import { createHttpEmbedder } from "./embedder.ts";
import type { SearchResult } from "./schemas.ts";
import { searchChunks } from "./search.ts";
import { drainEmbeddingQueue } from "./worker.ts";

let database: Database;
let server: FakeEmbeddingServer;
let ctx: ServiceContext;
const ids: Record<string, string> = {};

const FIGURE_CAPTION = "Figure 1: Quokka density by island.";
const TABLE_CAPTION = "Table 1: Wombat burrow depths.";

const PAPERS: Record<string, PublishInput> = {
  islands: {
    title: "Marsupial surveys on offshore islands",
    abstract:
      "Dawn transects on four offshore islands counted small marsupials; counts rose where predators had been removed and fell with visitor numbers.",
    body: [
      "## Results",
      "Island surveys counted marsupials at dawn along fixed transects (Figure [1](#figure-1)).",
      `![${FIGURE_CAPTION}](figures/quokka.png) {#figure-1}`,
      `Table: ${TABLE_CAPTION} {#table-1}`,
      "| island | depth (m) |\n| --- | --- |\n| Rottnest | 1.2 |",
      "",
    ].join("\n\n"),
    ai_model: "m",
    license: "CC-BY-4.0",
    keywords: [],
  },
  glaciar: {
    title: "Balance de masa de los glaciares pirenaicos",
    abstract:
      "Medimos cada verano el espesor del hielo en los glaciares del Pirineo y comparamos las pérdidas con las temperaturas registradas en las estaciones cercanas.",
    body: [
      "## Resultados",
      "Las mediciones de campo muestran que el hielo pierde espesor cada año en todos los glaciares estudiados, sobre todo en las lenguas más bajas.",
      "![Figura 1: Curvas de nivel de la lengua glaciar en 2010 y 2020.](figuras/curvas.png) {#figure-1}",
      "",
    ].join("\n\n"),
    ai_model: "m",
    license: "CC-BY-4.0",
    keywords: [],
  },
};

beforeAll(async () => {
  server = await startFakeEmbeddingServer(64);
  database = await createTestDatabase();
  ctx = {
    ...testContext(database),
    caller: operator,
    embedder: createHttpEmbedder({ url: server.url, model: "fake-64", retries: 0 }),
  };
  for (const [key, input] of Object.entries(PAPERS)) {
    const result = await publishVersion(ctx, input);
    if (result.outcome !== "published") throw new Error(`${key}: ${JSON.stringify(result)}`);
    ids[key] = result.paper_id;
  }
  await drainEmbeddingQueue(ctx);
});
afterAll(async () => {
  await database.close();
  await server.close();
});

const anonymous = () => ({ ...ctx, caller: { kind: "anonymous" as const } });

/** The words of a quote its highlights mark. */
function marked(result: SearchResult): string[] {
  const points = [...result.quote];
  return result.highlights.map(([start, end]) => points.slice(start, end).join(""));
}

describe("captions in search", () => {
  it.each(["lexical", "hybrid", "semantic"] as const)(
    "%s: a caption's words find the caption passage, verbatim and highlighted, and not its paragraph",
    async (mode) => {
      const { results } = await searchChunks(anonymous(), { q: "quokka density", mode });
      const own = results.filter((r) => r.paper_id === ids.islands);
      expect(own[0]).toMatchObject({ field: "caption", quote: FIGURE_CAPTION, match: "close" });
      if (mode !== "semantic")
        expect(marked(own[0] as SearchResult)).toEqual(["Quokka", "density"]);
      // The body chunk holding the figure does not also match for the caption's words.
      expect(own.filter((r) => r.field === "body" && marked(r).length > 0)).toEqual([]);
      const table = await searchChunks(anonymous(), { q: "wombat burrow depths", mode });
      expect(table.results[0]).toMatchObject({
        paper_id: ids.islands,
        field: "caption",
        quote: TABLE_CAPTION,
        language: "en",
      });
    },
  );

  it("marks a body passage's words outside its captions only", async () => {
    const { results } = await searchChunks(anonymous(), {
      q: "island surveys quokka wombat",
      mode: "lexical",
    });
    const body = results.find((r) => r.paper_id === ids.islands && r.field === "body");
    expect(body?.quote).toContain(FIGURE_CAPTION);
    const words = marked(body as SearchResult).map((w) => w.toLowerCase());
    expect(words).toEqual(expect.arrayContaining(["island", "surveys"]));
    expect(words).not.toContain("quokka");
    expect(words).not.toContain("wombat");
  });

  it("analyses a caption in its paper's language: a Spanish stem finds and marks its forms", async () => {
    const { results } = await searchChunks(anonymous(), {
      q: "curva lengua glaciar",
      mode: "lexical",
    });
    const caption = results.find((r) => r.paper_id === ids.glaciar && r.field === "caption");
    expect(caption).toMatchObject({ language: "es", match: "close" });
    expect(marked(caption as SearchResult)).toEqual(["Curvas", "lengua", "glaciar"]);
  });

  it("embeds each caption as its own passage and each body chunk with its captions blanked", async () => {
    const inputs = server.requests.flatMap((r) => r.input);
    expect(inputs).toContain(`${PAPERS.islands?.title}\n\n${FIGURE_CAPTION}`);
    const body = inputs.find((t) => t.includes("Island surveys counted marsupials"));
    expect(body).toBeDefined();
    expect(body).not.toContain("Quokka");
    expect(body).not.toContain("Wombat");
    expect(body).toContain(`![${" ".repeat([...FIGURE_CAPTION].length)}](figures/quokka.png)`);
  });
});
