/** @module searchChunks on small fixed corpora: ranking, verbatim quotes, scores, visibility. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import { getPaperSpans, type PublishInput, publishVersion } from "../papers/index.ts";
import { unindexPaper } from "./indexing.ts";
import { PASSAGES_PER_PAPER } from "./schemas.ts";
import { channelsFor, ORIGINAL_CONFIGS, rankChunks, searchChunks, searchPapers } from "./search.ts";

let database: Database;
let ctx: ServiceContext;
const ids: Record<string, string> = {};

const BODY_FILLER =
  "## Method\n\nWe describe the data, the instruments and the statistical model, and we report every choice made along the way so that others can repeat the work.\n";

function paper(title: string, abstract: string, body = BODY_FILLER): PublishInput {
  return {
    title,
    abstract,
    body,
    ai_model: "test-model-1",
    license: "CC-BY-4.0",
    keywords: [],
  };
}

const CORPUS: Record<string, PublishInput> = {
  glacier: paper(
    "Glacier mass balance in the Alps",
    "Repeated surveys of forty Alpine glaciers show the ice thinning every year since 2000, fastest at low altitude, where summer melt now exceeds winter snowfall.",
  ),
  reef: paper(
    "Coral reef acoustics at dawn",
    "Hydrophones on three reefs record snapping shrimp and fish choruses; healthy reefs are louder and their sound attracts settling larvae.",
  ),
  compiler: paper(
    "Register allocation by graph colouring revisited",
    "We revisit Chaitin-style graph colouring for register allocation and show that coalescing copies before spilling reduces the number of spilled variables.",
  ),
  heat: paper(
    "Urban heat islands and street trees",
    "Street-level temperature loggers in six cities show that tree canopy cools afternoons by up to three degrees, most where buildings are dense.",
  ),
  // Two papers that differ in one word: BM25 sees the same lexemes for "melanoma
  // immunology" in both ("immunolog" is in neither), so only the 4-grams can tell them apart.
  // Published chemotherapy first, so that a BM25 tie puts it first (lower chunk id).
  chemo: paper(
    "Melanoma outcomes after chemotherapy",
    "In a cohort of melanoma patients treated with chemotherapy, tumour burden predicted response better than age or stage did.",
  ),
  immuno: paper(
    "Melanoma outcomes after immunotherapy",
    "In a cohort of melanoma patients treated with immunotherapy, tumour burden predicted response better than age or stage did.",
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

const anonymous = () => ({ ...ctx, caller: { kind: "anonymous" as const } });

describe("searchChunks", () => {
  it("ranks the paper about the query first, for every mode that needs no embedder", async () => {
    for (const mode of ["hybrid", "lexical"] as const) {
      const { results } = await searchChunks(anonymous(), { q: "glacier ice thinning", mode });
      expect(results[0]?.paper_id).toBe(ids.glacier);
      const reef = await searchChunks(anonymous(), {
        q: "snapping shrimp choruses on reefs",
        mode,
      });
      expect(reef.results[0]?.paper_id).toBe(ids.reef);
    }
  });

  it("quotes every result exactly as the stored chunk, with its index, field, title and version", async () => {
    const { query, results } = await searchChunks(anonymous(), {
      q: "  melanoma patients  ",
      limit: 20,
    });
    expect(query).toBe("melanoma patients");
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      const context = await getPaperSpans(anonymous(), { id: r.paper_id });
      const chunk = context.chunks.find((c) => c.chunk_index === r.chunk_index);
      expect(chunk?.content).toBe(r.quote);
      expect(chunk?.field).toBe(r.field);
      expect(r.version).toBe(context.version);
      const title = Object.entries(ids).find(([, id]) => id === r.paper_id)?.[0];
      expect(r.title).toBe(CORPUS[title!]!.title);
      expect(r.language).toBe("en");
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
    }
  });

  it("gives scores in [0, 1], in descending order, and honours limit (default 8)", async () => {
    const all = await searchChunks(anonymous(), {
      q: "the data show temperature and melt",
      limit: 20,
    });
    expect(all.results.length).toBeGreaterThan(8);
    for (const [i, r] of all.results.entries()) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      if (i > 0) expect(r.score).toBeLessThanOrEqual(all.results[i - 1]!.score);
    }
    const byDefault = await searchChunks(anonymous(), { q: "the data show temperature and melt" });
    expect(byDefault.results).toHaveLength(8);
    expect(byDefault.results).toEqual(all.results.slice(0, 8));
    const three = await searchChunks(anonymous(), { q: "the data show temperature", limit: 3 });
    expect(three.results).toHaveLength(3);
  });

  it("lets the character-gram channel lift a morphological match BM25 cannot see", async () => {
    // "immunology" and "immunotherapy" stem differently; the 4-grams "immu", "mmun", "muno"
    // tie the query to the immunotherapy paper.
    const q = "melanoma immunology";
    const lexical = await searchChunks(anonymous(), { q, mode: "lexical" });
    const hybrid = await searchChunks(anonymous(), { q, mode: "hybrid" });
    const order = (r: typeof lexical) =>
      r.results.map((x) => x.paper_id).filter((id) => id === ids.chemo || id === ids.immuno);
    expect(order(lexical)[0]).toBe(ids.chemo);
    expect(order(hybrid)[0]).toBe(ids.immuno);

    const ranked = await rankChunks(anonymous(), q, channelsFor(anonymous(), "hybrid"), 20, {
      configs: ORIGINAL_CONFIGS,
    });
    const abstractOf = async (paperId: string) =>
      Number(
        (
          (await database.db.execute(
            sql`select id::int8 as id from chunks where paper_id = ${paperId} and field = 'abstract'`,
          )) as unknown as { rows: { id: string }[] }
        ).rows[0]?.id,
      );
    const immunoChunk = await abstractOf(ids.immuno!);
    const immuno = ranked.find((r) => r.chunkId === immunoChunk)!;
    const chemoChunk = await abstractOf(ids.chemo!);
    const chemo = ranked.find((r) => r.chunkId === chemoChunk)!;
    expect(immuno.z.bm25).toBeCloseTo(chemo.z.bm25!, 9);
    expect(immuno.z.sparse).toBeGreaterThan(chemo.z.sparse!);
  });

  it("finds nothing for a query of stop words", async () => {
    const { results } = await searchChunks(anonymous(), { q: "the of and" });
    expect(results).toEqual([]);
  });

  it("rejects bad input listing every failed check", async () => {
    const error = await searchChunks(anonymous(), { q: " x ", limit: 21 }).catch((e) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual(["limit", "q"]);
    const long = await searchChunks(anonymous(), { q: "a".repeat(1001) }).catch((e) => e);
    expect((long as Invalid).issues).toEqual([
      { in: "query", name: "q", message: "must be at most 1000 characters" },
    ]);
  });

  it("says that semantic mode needs an embedding backend when none is configured", async () => {
    const error = await searchChunks(anonymous(), { q: "glacier", mode: "semantic" }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).issues).toEqual([
      { in: "query", name: "mode", message: expect.stringContaining("embedding backend") },
    ]);
  });
});

describe("visibility", () => {
  it("never returns a withdrawn or removed paper, even before the index is told", async () => {
    const q = "street trees cool city afternoons";
    const before = await searchChunks(anonymous(), { q });
    expect(before.results[0]?.paper_id).toBe(ids.heat);

    // Status changed, index not yet updated: the visibility check still hides it.
    await ctx.db.execute(sql`update papers set status = 'withdrawn' where id = ${ids.heat!}`);
    const stale = await searchChunks(anonymous(), { q, limit: 20 });
    expect(stale.results.map((r) => r.paper_id)).not.toContain(ids.heat);

    await unindexPaper(ctx, ids.heat!);
    const after = await searchChunks(anonymous(), { q, limit: 20 });
    expect(after.results.map((r) => r.paper_id)).not.toContain(ids.heat);

    await ctx.db.execute(sql`update papers set status = 'removed' where id = ${ids.heat!}`);
    const removed = await searchChunks(anonymous(), { q, limit: 20, mode: "lexical" });
    expect(removed.results.map((r) => r.paper_id)).not.toContain(ids.heat);
  });

  it("returns only the current version of a paper", async () => {
    const v2 = await publishVersion(ctx, {
      ...paper(
        "Register allocation with linear scan",
        "Linear scan allocation assigns registers in one pass over live intervals and is fast enough for just-in-time compilers.",
      ),
      paperId: ids.compiler!,
      changelog: "new method",
    });
    expect(v2.outcome).toBe("published");
    const old = await searchChunks(anonymous(), {
      q: "graph colouring coalescing copies",
      limit: 20,
    });
    for (const r of old.results.filter((x) => x.paper_id === ids.compiler)) {
      expect(r.version).toBe(2);
      expect(r.quote).not.toMatch(/colouring|coalescing/);
    }
    const now = await searchChunks(anonymous(), { q: "linear scan live intervals" });
    expect(now.results[0]).toMatchObject({ paper_id: ids.compiler, version: 2 });
  });
});

describe("a paper whose language the screener could not tell", () => {
  it("is analysed as English, the archive's main language", async () => {
    const short = await publishVersion(
      ctx,
      paper(
        "On the origins of ultra-fine anaphase bridges",
        "Ultra-fine anaphase bridges: BLM helicase, PICH translocase, centromeric DNA catenanes, fragile-site replication intermediates, mitotic resolution failure, micronuclei, chromosome breakage.",
        "",
      ),
    );
    if (short.outcome !== "published") throw new Error(JSON.stringify(short));
    const [row] = (
      (await ctx.db.execute(
        sql`select language from paper_versions where paper_id = ${short.paper_id}`,
      )) as unknown as { rows: { language: string }[] }
    ).rows;
    expect(row?.language).toBe("und");
    try {
      // Stemmed as English: "helicases" and "catenane" find "helicase" and "catenanes" (under
      // `simple` they did not, while its unstemmed word forms were rare enough to outrank
      // real matches elsewhere: SciFact lexical nDCG@10 0.647 with it, 0.691 without).
      const lexical = await searchChunks(anonymous(), { q: "helicases catenane", mode: "lexical" });
      expect(lexical.results[0]?.paper_id).toBe(short.paper_id);
      const { results } = await searchChunks(anonymous(), { q: "origins of anaphase bridges" });
      expect(results[0]?.paper_id).toBe(short.paper_id);
    } finally {
      await unindexPaper(ctx, short.paper_id);
    }
  });
});

describe("a Spanish question", () => {
  it("is a close match for the Spanish paper holding its words: the question word is a stop word", async () => {
    const spanish = await publishVersion(
      ctx,
      paper(
        "Escorrentía en cuencas andinas de páramo",
        "El método del número de curva se usa para estimar la escorrentía directa de una tormenta en cuencas andinas con pocos datos; mostramos cuánto depende el resultado del parámetro elegido y proponemos calibrarlo con eventos observados.",
        "## Método\n\nDescribimos los datos, los instrumentos y el modelo estadístico, e informamos de cada elección para que otros puedan repetir el trabajo.\n",
      ),
    );
    if (spanish.outcome !== "published") throw new Error(JSON.stringify(spanish));
    try {
      const { results } = await searchChunks(anonymous(), {
        q: "¿cómo estimar la escorrentía en cuencas de montaña?",
        mode: "lexical",
      });
      expect(results[0]?.paper_id).toBe(spanish.paper_id);
      expect(results[0]?.match).toBe("close");
      // The unaccented spelling was a stop word already; both read alike now.
      const plain = await searchChunks(anonymous(), {
        q: "como estimar la escorrentía en cuencas de montaña",
        mode: "lexical",
      });
      expect(plain.results[0]?.match).toBe("close");
    } finally {
      await unindexPaper(ctx, spanish.paper_id);
    }
  });
});

describe("filters and grouping", () => {
  const filtered = (q: string, extra: Partial<Parameters<typeof searchChunks>[1]>, scan?: number) =>
    searchChunks(
      {
        ...anonymous(),
        ...(scan === undefined ? {} : { search: { ...ctx.search, filterScanChunks: scan } }),
      },
      { q, mode: "lexical", ...extra },
    );

  it("keeps only papers of the subject and first-publication window, exactly or from a deeper pool", async () => {
    const op = { ...ctx, caller: operator };
    const made: Record<string, string> = {};
    for (const [key, subjects, day] of [
      ["old", ["physics.ao-ph"], "2020-01-15"],
      ["new", ["physics.ao-ph", "stat.AP"], "2026-10-10"],
      ["other", ["cs.DB"], "2026-10-10"],
    ] as const) {
      const result = await publishVersion(op, {
        ...paper(
          `Monsoon rainfall persistence ${key}`,
          `Monsoon rainfall persistence measured at ${key} stations shows long dry spells and wet spells, and the persistence of monsoon rainfall anomalies across seasons.`,
        ),
        subjects: [...subjects],
        publishedAt: new Date(`${day}T12:00:00.000Z`),
      });
      if (result.outcome !== "published") throw new Error(JSON.stringify(result));
      made[key] = result.paper_id;
    }
    try {
      const ids = (r: Awaited<ReturnType<typeof searchChunks>>) =>
        new Set(r.results.map((x) => x.paper_id));
      const all = await filtered("monsoon rainfall persistence", {});
      expect(ids(all)).toEqual(new Set(Object.values(made)));
      for (const scan of [undefined, 0]) {
        // `0`: the filter counts as broad, and is applied to the candidates.
        expect(
          ids(await filtered("monsoon rainfall persistence", { subject: "physics" }, scan)),
        ).toEqual(new Set([made.old, made.new]));
        expect(
          ids(
            await filtered(
              "monsoon rainfall persistence",
              { subject: "physics.ao-ph", since: "2026-01-01", until: "2026-12-31" },
              scan,
            ),
          ),
        ).toEqual(new Set([made.new]));
        expect(
          ids(await filtered("monsoon rainfall persistence", { subject: "stat" }, scan)),
        ).toEqual(new Set([made.new]));
        expect((await filtered("glacier", { subject: "cs.DB" }, scan)).results).toEqual([]);
      }
      await expect(filtered("monsoon", { subject: "nope" })).rejects.toBeInstanceOf(Invalid);
      await expect(
        filtered("monsoon", { since: "2026-10-11", until: "2026-10-10" }),
      ).rejects.toBeInstanceOf(Invalid);
    } finally {
      for (const id of Object.values(made)) await unindexPaper(ctx, id);
    }
  });

  it("finds a paper published a moment ago under a narrow filter, and keeps a filter learnt broad exact", async () => {
    const op = { ...ctx, caller: operator };
    const made: string[] = [];
    const publish = async (n: number, subjects: string[]) => {
      const result = await publishVersion(op, {
        ...paper(
          `Tidal bore acoustics ${n}`,
          `Hydrophones record the acoustics of a tidal bore ${n} as it travels upstream, and the bore's sound tracks its height.`,
        ),
        subjects,
      });
      if (result.outcome !== "published") throw new Error(JSON.stringify(result));
      made.push(result.paper_id);
      return result.paper_id;
    };
    const ids = (r: Awaited<ReturnType<typeof searchChunks>>) =>
      new Set(r.results.map((x) => x.paper_id));
    try {
      const first = await publish(1, ["physics.flu-dyn"]);
      const other = await publish(2, ["physics.ao-ph"]);
      const q = "tidal bore acoustics hydrophones";
      expect(ids(await filtered(q, { subject: "physics.flu-dyn" }))).toEqual(new Set([first]));
      // Searches remember which filters are broad, never a narrow filter's papers.
      const second = await publish(3, ["physics.flu-dyn"]);
      expect(ids(await filtered(q, { subject: "physics.flu-dyn" }))).toEqual(
        new Set([first, second]),
      );
      // Scanning at most one chunk, the filter overflows and is learnt broad: applied to the
      // candidates, on the first search and on the one that recalls it.
      for (let i = 0; i < 2; i++) {
        expect(ids(await filtered(q, { subject: "physics.flu-dyn" }, 1))).toEqual(
          new Set([first, second]),
        );
      }
      expect(ids(await filtered(q, {}))).toContain(other);
    } finally {
      for (const id of made) await unindexPaper(ctx, id);
    }
  });

  it("groups passages by paper, best paper first, each with its best passages", async () => {
    const grouped = await searchPapers(anonymous(), { q: "melanoma tumour burden", limit: 2 });
    expect(grouped.group).toBe("paper");
    expect(grouped.papers.length).toBeLessThanOrEqual(2);
    expect(new Set(grouped.papers.map((p) => p.paper_id)).size).toBe(grouped.papers.length);
    for (const p of grouped.papers) {
      expect(p.passages.length).toBeGreaterThan(0);
      expect(p.passages.length).toBeLessThanOrEqual(PASSAGES_PER_PAPER);
      expect(p.passages.every((r) => r.paper_id === p.paper_id)).toBe(true);
      expect(p.score).toBe(p.passages[0]?.score);
    }
    const scores = grouped.papers.map((p) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
