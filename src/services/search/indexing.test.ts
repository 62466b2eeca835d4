/** @module Index maintenance: BM25 statistics and gram frequencies after publish, new version, unindex. */

import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { getMeta, rowsOf, setMeta, withTransaction } from "../../db/sql.ts";
import { createLogger } from "../../logger.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import { paperInput, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { publishVersion } from "../papers/index.ts";
import { countFeatures } from "./grams.ts";
import {
  INDEX_FORMAT,
  indexedTextSql,
  lexemeSequence,
  packPostings,
  rebuildSearchIndex,
  reindexPaper,
  searchableLanguages,
  textConfigSql,
  unindexPaper,
} from "./indexing.ts";
import {
  bm25Candidates,
  bm25Idf,
  bm25Scores,
  bm25Search,
  bm25Statistics,
  bm25Term,
  postingsOf,
} from "./lexical.ts";
import { prepareSearch } from "./prepare.ts";

let database: Database;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { ...testContext(database), caller: operator };
});
afterAll(() => database.close());

/** What the index must hold, recomputed from scratch: current versions of published papers. */
async function expectedIndex() {
  const postings = await rowsOf<{ term: string; chunk_id: string; tf: number }>(
    ctx.db,
    sql`select u.lexeme as term, c.id::text as chunk_id, cardinality(u.positions) as tf
        from chunks c
        join papers p on p.id = c.paper_id and p.status = 'published' and p.current_version = c.version
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        cross join lateral unnest(to_tsvector(${textConfigSql(sql`pv.language`)}, ${indexedTextSql()})
                                  || to_tsvector(${textConfigSql(sql`pv.language`)}, pv.title)) u
        where c.field <> 'title'
        order by 1, 2`,
  );
  const texts = await rowsOf<{
    id: string;
    field: string;
    content: string;
    title: string;
    lexemes: string[];
    title_lexemes: string[];
  }>(
    ctx.db,
    sql`select c.id::text as id, c.field, ${indexedTextSql()} as content, pv.title,
               ${lexemeSequence(sql`to_tsvector(${textConfigSql(sql`pv.language`)}, ${indexedTextSql()})`)} as lexemes,
               ${lexemeSequence(sql`to_tsvector(${textConfigSql(sql`pv.language`)}, pv.title)`)} as title_lexemes
        from chunks c
        join papers p on p.id = c.paper_id and p.status = 'published' and p.current_version = c.version
        join paper_versions pv on pv.paper_id = c.paper_id and pv.version = c.version
        where c.field <> 'title'`,
  );
  const gramDf = new Map<number, number>();
  for (const t of texts) {
    const counts = countFeatures(t.content, t.lexemes);
    countFeatures(t.title, t.title_lexemes, counts);
    for (const g of counts.keys()) gramDf.set(g, (gramDf.get(g) ?? 0) + 1);
  }
  const length = postings.reduce((sum, p) => sum + Number(p.tf), 0);
  const termDf = new Map<string, number>();
  for (const p of postings) termDf.set(p.term, (termDf.get(p.term) ?? 0) + 1);
  return { postings, chunks: texts.length, length, gramDf, termDf };
}

async function actualIndex() {
  const postings = await rowsOf<{ term: string; chunk_id: string; tf: number }>(
    ctx.db,
    sql`select term, chunk_id::text as chunk_id, tf
        from ${postingsOf(sql`array(select term from search_terms)`)} p order by 1, 2`,
  );
  // Blocks: parallel arrays of at most 128 postings in chunk order, within [first, last],
  // and a lexeme's blocks over disjoint ranges.
  const blocks = await rowsOf<{
    term: string;
    first: string;
    last: string;
    ids: string[];
    tfs: number[];
    lengths: number[];
  }>(
    ctx.db,
    sql`select term, first_chunk::text as first, last_chunk::text as last, chunk_ids::text[] as ids,
               tfs, lengths from search_blocks order by term, first_chunk`,
  );
  let previous: { term: string; last: bigint } | undefined;
  for (const b of blocks) {
    const ids = b.ids.map((id) => BigInt(id));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(128);
    expect(b.tfs.length).toBe(ids.length);
    expect(b.lengths.length).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(BigInt(b.first) <= ids[0]! && ids[ids.length - 1]! <= BigInt(b.last)).toBe(true);
    if (previous?.term === b.term) expect(BigInt(b.first) > previous.last).toBe(true);
    previous = { term: b.term, last: BigInt(b.last) };
  }
  const [stats] = await rowsOf<{ chunks: string; length: string }>(
    ctx.db,
    sql`select coalesce(sum(chunks), 0)::text as chunks, coalesce(sum(length), 0)::text as length
        from search_stats`,
  );
  const [rows] = await rowsOf<{ n: string; length: string }>(
    ctx.db,
    sql`select count(*)::text as n, coalesce(sum(length), 0)::text as length from search_chunks`,
  );
  const grams = await rowsOf<{ gram: number; df: number }>(
    ctx.db,
    sql`select gram, df from search_grams`,
  );
  const terms = await rowsOf<{ term: string; df: number }>(
    ctx.db,
    sql`select term, df from search_terms`,
  );
  return {
    postings,
    chunks: Number(stats?.chunks),
    length: Number(stats?.length),
    rowCount: Number(rows?.n),
    rowLength: Number(rows?.length),
    gramDf: new Map(grams.map((g) => [Number(g.gram), Number(g.df)])),
    termDf: new Map(terms.map((t) => [t.term, Number(t.df)])),
  };
}

async function expectConsistent() {
  const [want, got] = await Promise.all([expectedIndex(), actualIndex()]);
  expect(got.postings.map((p) => [p.term, p.chunk_id, Number(p.tf)])).toEqual(
    want.postings.map((p) => [p.term, p.chunk_id, Number(p.tf)]),
  );
  expect(got.chunks).toBe(want.chunks);
  expect(got.rowCount).toBe(want.chunks);
  expect(got.length).toBe(want.length);
  expect(got.rowLength).toBe(want.length);
  expect(got.gramDf).toEqual(want.gramDf);
  expect(got.termDf).toEqual(want.termDf);
  return want;
}

async function setStatus(paperId: string, status: "withdrawn" | "removed" | "published") {
  await ctx.db.execute(sql`update papers set status = ${status} where id = ${paperId}`);
}

describe("the search index follows publication", () => {
  it("indexes every chunk of a new paper in the publishing transaction", async () => {
    const { paper_id } = await publishPaper(ctx, {
      title: "Glacier mass balance in the Alps",
      abstract:
        "We measure glacier mass balance with repeated surveys and find the glaciers thinning every year, most of all at low altitude.",
    });
    const want = await expectConsistent();
    expect(want.chunks).toBeGreaterThan(1);
    const [row] = await rowsOf<{ n: string }>(
      ctx.db,
      sql`select count(*)::text as n from search_chunks where paper_id = ${paper_id}`,
    );
    expect(Number(row?.n)).toBe(want.chunks);
  });

  it("replaces the old version's chunks when a new version is published", async () => {
    const { paper_id } = await publishPaper(ctx);
    const before = await rowsOf<{ chunk_id: string }>(
      ctx.db,
      sql`select chunk_id::text as chunk_id from search_chunks where paper_id = ${paper_id}`,
    );
    const v2 = await publishVersion(ctx, {
      ...paperInput({ title: "Sea ice albedo feedback, revised" }),
      paperId: paper_id,
      changelog: "rewrote everything",
    });
    expect(v2.outcome).toBe("published");
    const after = await rowsOf<{ chunk_id: string; version: number }>(
      ctx.db,
      sql`select chunk_id::text as chunk_id, version from search_chunks where paper_id = ${paper_id}`,
    );
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => Number(r.version) === 2)).toBe(true);
    const old = new Set(before.map((r) => r.chunk_id));
    expect(after.some((r) => old.has(r.chunk_id))).toBe(false);
    await expectConsistent();
  });

  it("takes a withdrawn paper out of every statistic, and puts it back when reinstated", async () => {
    const { paper_id } = await publishPaper(ctx);
    const full = await actualIndex();
    await setStatus(paper_id, "withdrawn");
    const change = await unindexPaper(ctx, paper_id);
    expect(change.removed).toBeGreaterThan(0);
    const without = await expectConsistent();
    expect(without.chunks).toBe(full.chunks - change.removed);

    await setStatus(paper_id, "published");
    const back = await reindexPaper(ctx, paper_id);
    expect(back).toEqual({ removed: 0, added: change.removed });
    await expectConsistent();
  });

  it("reindexPaper is idempotent and unindexes papers that are not published", async () => {
    const { paper_id } = await publishPaper(ctx);
    const once = await reindexPaper(ctx, paper_id);
    expect(once.removed).toBe(once.added);
    await expectConsistent();
    await setStatus(paper_id, "removed");
    const hidden = await reindexPaper(ctx, paper_id);
    expect(hidden).toEqual({ removed: once.added, added: 0 });
    expect(await unindexPaper(ctx, paper_id)).toEqual({ removed: 0, added: 0 });
    await expectConsistent();
  });

  it("knows which languages hold searchable chunks, as papers come and go", async () => {
    await publishPaper(ctx);
    expect([...(await searchableLanguages(ctx.db))]).toEqual(["en"]);
    const spanish =
      "Medimos el balance de masa de los glaciares de los Andes con campañas repetidas y encontramos que los glaciares pierden espesor cada año, sobre todo a baja altitud, durante las dos últimas décadas de observación.";
    const { paper_id } = await publishPaper(ctx, {
      title: "Balance de masa de los glaciares andinos",
      abstract: spanish,
      body: `## Introducción\n\n${spanish} Los resultados de este trabajo muestran que la pérdida es mayor en las cuencas del norte.\n`,
    });
    const [row] = await rowsOf<{ language: string }>(
      ctx.db,
      sql`select language from paper_versions where paper_id = ${paper_id}`,
    );
    expect(row?.language).toBe("es");
    expect([...(await searchableLanguages(ctx.db))].sort()).toEqual(["en", "es"]);
    await setStatus(paper_id, "withdrawn");
    await unindexPaper(ctx, paper_id);
    expect([...(await searchableLanguages(ctx.db))]).toEqual(["en"]);
    await expectConsistent();
  });

  it("rebuilds, one paper per batch, exactly the index publication maintained", async () => {
    await publishPaper(ctx);
    const { paper_id } = await publishPaper(ctx);
    await setStatus(paper_id, "withdrawn");
    await unindexPaper(ctx, paper_id);
    const vectors = async () =>
      rowsOf<{ chunk_id: string; grams: string }>(
        ctx.db,
        sql`select chunk_id::text as chunk_id, grams::text as grams from search_chunks order by 1`,
      );
    const before = await actualIndex();
    const stored = await vectors();
    const [published] = await rowsOf<{ n: string }>(
      ctx.db,
      sql`select count(*)::text as n from papers where status = 'published'`,
    );
    const seen: number[] = [];
    const built = await rebuildSearchIndex(ctx, {
      batch: 1,
      onProgress: (p) => seen.push(p.papers),
    });
    expect(built.papers).toBe(Number(published?.n));
    expect(built.chunks).toBe(before.rowCount);
    expect(seen).toEqual(Array.from({ length: built.papers }, (_, i) => i + 1));
    expect(await actualIndex()).toEqual(before);
    expect(await vectors()).toEqual(stored);
    await expectConsistent();
  });

  it("rebuilds blocks and dfs row for row as SQL packing cuts the same postings", async () => {
    // Enough chunks sharing lexemes for several full blocks of 128, and a new version of an
    // early paper: its chunks get the highest ids while the rebuild reads papers by id.
    const first = await publishPaper(ctx);
    for (let i = 0; i < 70; i++) await publishPaper(ctx);
    await publishVersion(ctx, {
      ...paperInput({ title: "Glacier mass balance, revised again" }),
      paperId: first.paper_id,
      changelog: "new data",
    });
    await rebuildSearchIndex(ctx, { batch: 16 });
    const blocks = () =>
      rowsOf<Record<string, string>>(
        ctx.db,
        sql`select term, first_chunk::text as f, last_chunk::text as l, chunk_ids::text as c,
                   tfs::text as t, lengths::text as n, pg_column_size(b.*)::text as bytes
            from search_blocks b order by term, first_chunk`,
      );
    const terms = () =>
      rowsOf<Record<string, string>>(
        ctx.db,
        sql`select term, df::text as df from search_terms order by term`,
      );
    const built = await blocks();
    const builtTerms = await terms();
    expect(built.some((b) => b.c?.split(",").length === 128)).toBe(true);
    expect(new Set(built.map((b) => b.term)).size).toBeLessThan(built.length);
    // The same postings packed by the SQL the rebuild used before (ADR 0038).
    await withTransaction(ctx.db, async (tx) => {
      await tx.execute(
        sql`create temp table blocks_staged on commit drop as
            select b.term, x.chunk_id, x.tf, x.length
            from search_blocks b cross join lateral unnest(b.chunk_ids, b.tfs, b.lengths)
              as x(chunk_id, tf, length)`,
      );
      await tx.execute(sql`truncate search_blocks, search_terms`);
      await tx.execute(
        sql`insert into search_blocks (term, first_chunk, last_chunk, chunk_ids, tfs, lengths)
            select term, min(chunk_id), max(chunk_id), array_agg(chunk_id order by chunk_id),
                   array_agg(tf order by chunk_id), array_agg(length order by chunk_id)
            from (select p.*, (row_number() over (partition by term order by chunk_id) - 1)
                               / 128 as block
                  from blocks_staged p) x
            group by term, block
            order by term, 2`,
      );
      await tx.execute(
        sql`insert into search_terms (term, df)
            select term, sum(cardinality(chunk_ids))::int from search_blocks group by term order by term`,
      );
    });
    expect(await blocks()).toEqual(built);
    expect(await terms()).toEqual(builtTerms);
    await expectConsistent();
  });

  it("packs unpacked postings into blocks, and keeps them exact through withdrawal and reinstatement", async () => {
    const first = await publishPaper(ctx);
    const second = await publishPaper(ctx, {
      title: "Glacier mass balance in the Andes",
      abstract:
        "Repeated glacier surveys in the Andes show mass balance falling at low altitude, and glacier thinning every year.",
    });
    const unpacked = async () =>
      Number(
        (
          await rowsOf<{ n: string }>(ctx.db, sql`select count(*)::text as n from search_postings`)
        )[0]?.n,
      );
    expect(await unpacked()).toBeGreaterThan(0);
    const before = await actualIndex();
    expect(await withTransaction(ctx.db, (tx) => packPostings(tx))).toBe(true);
    expect(await unpacked()).toBe(0);
    expect(await actualIndex()).toEqual(before);
    await expectConsistent();
    // A packed paper withdrawn leaves the blocks; reinstated (old, lower chunk ids) it is
    // unpacked again, and packing re-blocks the ranges it falls into.
    await setStatus(first.paper_id, "withdrawn");
    await unindexPaper(ctx, first.paper_id);
    await expectConsistent();
    await setStatus(first.paper_id, "published");
    await reindexPaper(ctx, first.paper_id);
    await expectConsistent();
    await withTransaction(ctx.db, (tx) => packPostings(tx));
    expect(await unpacked()).toBe(0);
    await expectConsistent();
    // A new version replaces packed postings with unpacked ones.
    await publishVersion(ctx, {
      ...paperInput({ title: "Glacier mass balance, revised" }),
      paperId: second.paper_id,
      changelog: "new data",
    });
    await expectConsistent();
  });

  it("is rebuilt at start-up when its format changed, with progress, and equal to what publication kept", async () => {
    await publishPaper(ctx);
    const before = await actualIndex();
    await setMeta(ctx.db, "index_format", "quire-search/6");
    const lines: { msg: string; papers?: number; total?: number }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const report = await prepareSearch({ ...ctx, logger: createLogger("info", sink) });
    expect(report.rebuilt).toBe(true);
    expect(await getMeta(ctx.db, "index_format")).toBe(INDEX_FORMAT);
    const progress = lines.filter((l) => l.msg === "building the search index");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.papers).toBe(progress.at(-1)?.total);
    expect(await actualIndex()).toEqual(before);
  });

  it("rolls the index back with a failed transaction", async () => {
    const { paper_id } = await publishPaper(ctx);
    const before = await actualIndex();
    await expect(
      ctx.db.transaction(async (tx) => {
        await unindexPaper({ ...ctx, db: tx as unknown as typeof ctx.db }, paper_id);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await actualIndex()).toEqual(before);
  });
});

describe("captions in the index", () => {
  const body = [
    "## Results",
    "Island surveys counted marsupials at dawn (Figure [1](#figure-1)).",
    "![Figure 1: Quokka density by island.](figures/quokka.png) {#figure-1}",
    "Table: Table 1: Wombat burrow depths. {#table-1}",
    "| island | depth |\n| --- | --- |\n| Rottnest | 1.2 |",
    "",
  ].join("\n\n");

  async function chunksOf(paperId: string) {
    return rowsOf<{
      id: string;
      chunk_index: number;
      field: string;
      start: number;
      end: number;
      section: string | null;
      content: string;
      indexed: string;
    }>(
      ctx.db,
      sql`select c.id::text as id, c.chunk_index, c.field, c.start, c."end", c.section, c.content,
                 ${indexedTextSql()} as indexed
          from chunks c where c.paper_id = ${paperId} order by c.chunk_index`,
    );
  }

  async function postingChunks(term: string): Promise<string[]> {
    const rows = await rowsOf<{ chunk_id: string }>(
      ctx.db,
      sql`select chunk_id::text as chunk_id from ${postingsOf(sql`array[${term}]::text[]`)} p`,
    );
    return rows.map((r) => r.chunk_id).sort();
  }

  it("indexes a caption once: as its caption chunk, blanked out of the body chunk around it", async () => {
    const { paper_id } = await publishPaper(ctx, { body });
    const rows = await chunksOf(paper_id);
    const captions = rows.filter((r) => r.field === "caption");
    expect(captions.map((r) => r.content)).toEqual([
      "Figure 1: Quokka density by island.",
      "Table 1: Wombat burrow depths.",
    ]);
    expect(await postingChunks("quokka")).toEqual([captions[0]?.id]);
    expect(await postingChunks("wombat")).toEqual([captions[1]?.id]);
    // The body chunk keeps its words and its length; only the captions' code points are spaces.
    for (const chunk of rows.filter((r) => r.field === "body")) {
      const points = [...chunk.content];
      for (const caption of captions) {
        for (
          let i = Math.max(caption.start, chunk.start);
          i < Math.min(caption.end, chunk.end);
          i++
        ) {
          points[i - chunk.start] = " ";
        }
      }
      expect(chunk.indexed).toBe(points.join(""));
    }
    for (const chunk of rows.filter((r) => r.field !== "body")) {
      expect(chunk.indexed).toBe(chunk.content);
    }
    expect((await postingChunks("marsupi")).length).toBe(1);
    await expectConsistent();
  });

  it("a rebuild adds the caption chunks of versions stored before captions were chunks", async () => {
    const { paper_id } = await publishPaper(ctx, { body });
    const before = (await chunksOf(paper_id)).map(({ id: _, ...rest }) => rest);
    await ctx.db.execute(
      sql`delete from chunks where paper_id = ${paper_id} and field = 'caption'`,
    );
    const built = await rebuildSearchIndex(ctx);
    expect(built.captions).toBe(2);
    expect((await chunksOf(paper_id)).map(({ id: _, ...rest }) => rest)).toEqual(before);
    await expectConsistent();
    expect((await rebuildSearchIndex(ctx)).captions).toBe(0);
    await expectConsistent();
  });
});

describe("BM25 in SQL", () => {
  const query = "glacier mass balance surveys at low altitude";
  const params = { k1: 1.2, b: 0.5, postingsBudget: 1_000_000 };

  /** BM25 of every chunk, from the recomputed postings: the reference. */
  async function reference() {
    const want = await expectedIndex();
    const [{ terms } = { terms: [] as string[] }] = await rowsOf<{ terms: string[] }>(
      ctx.db,
      // The query as typed is analysed in English, Spanish and unstemmed; its terms are the union.
      sql`select array(select lexeme from unnest(to_tsvector('english', ${query}))
                       union select lexeme from unnest(to_tsvector('spanish', ${query}))
                       union select lexeme from unnest(to_tsvector('simple', ${query}))) as terms`,
    );
    const lengths = new Map<string, number>();
    for (const p of want.postings) {
      lengths.set(p.chunk_id, (lengths.get(p.chunk_id) ?? 0) + Number(p.tf));
    }
    const avg = want.length / want.chunks;
    const scores = new Map<string, number>();
    const df = new Map<string, number>();
    for (const term of terms) {
      const list = want.postings.filter((p) => p.term === term);
      if (list.length > 0) df.set(term, list.length);
      for (const p of list) {
        const idf = bm25Idf(want.chunks, list.length);
        const s = bm25Term(idf, Number(p.tf), lengths.get(p.chunk_id)!, avg, params);
        scores.set(p.chunk_id, (scores.get(p.chunk_id) ?? 0) + s);
      }
    }
    return { want, scores, df };
  }

  it("equals a reference computation over the stored statistics", async () => {
    const { want, scores } = await reference();
    const result = await bm25Candidates(ctx.db, query, params, 1000, [
      "english",
      "spanish",
      "simple",
    ]);
    expect(result.chunks).toBe(want.chunks);
    expect(result.exhaustive).toBe(true);
    expect(result.hits.length).toBe(scores.size);
    for (const hit of result.hits) {
      expect(hit.score).toBeCloseTo(scores.get(String(hit.chunkId))!, 9);
    }
    const best = [...scores].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]));
    expect(result.hits.map((h) => String(h.chunkId))).toEqual(best.map(([id]) => id));
    const top3 = await bm25Candidates(ctx.db, query, params, 3, ["english", "spanish", "simple"]);
    expect(top3.hits).toEqual(result.hits.slice(0, 3));
  });

  it("under a small postings budget scans only the rarest term, and still scores every term", async () => {
    const { scores, df } = await reference();
    const rarest = [...df].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))[0]!;
    const pruned = await bm25Candidates(ctx.db, query, { ...params, postingsBudget: 1 }, 1000, [
      "english",
      "spanish",
      "simple",
    ]);
    expect(pruned.exhaustive).toBe(false);
    const withRarest = await rowsOf<{ chunk_id: string }>(
      ctx.db,
      sql`select chunk_id::text as chunk_id from ${postingsOf(sql`array[${rarest[0]}]`)} p`,
    );
    expect(pruned.hits.map((h) => String(h.chunkId)).sort()).toEqual(
      withRarest.map((r) => r.chunk_id).sort(),
    );
    for (const hit of pruned.hits) {
      expect(hit.score).toBeCloseTo(scores.get(String(hit.chunkId))!, 9);
    }
  });

  it("scores candidates found elsewhere on the same scale", async () => {
    const { scores } = await reference();
    const result = await bm25Candidates(ctx.db, query, params, 5, ["english", "spanish", "simple"]);
    const ids = [...scores.keys()].map(Number);
    const again = await bm25Scores(ctx.db, result, ids, params);
    for (const id of ids) expect(again.get(id)).toBeCloseTo(scores.get(String(id))!, 9);
  });

  it("scores a synonym group as one term: term and document frequencies summed", async () => {
    const want = await expectedIndex();
    const english = "glacier surveys at low altitude";
    const group = ["glacier", "surveys"];
    const lengths = new Map<string, number>();
    for (const p of want.postings) {
      lengths.set(p.chunk_id, (lengths.get(p.chunk_id) ?? 0) + Number(p.tf));
    }
    const avg = want.length / want.chunks;
    // The reference: {glacier, survey} one term, low and altitud on their own.
    const scores = new Map<string, number>();
    const add = (lexemes: string[]) => {
      const list = want.postings.filter((p) => lexemes.includes(p.term));
      const tf = new Map<string, number>();
      for (const p of list) tf.set(p.chunk_id, (tf.get(p.chunk_id) ?? 0) + Number(p.tf));
      const idf = bm25Idf(want.chunks, Math.min(want.chunks, list.length));
      for (const [chunk, f] of tf) {
        const s = bm25Term(idf, f, lengths.get(chunk)!, avg, params);
        scores.set(chunk, (scores.get(chunk) ?? 0) + s);
      }
      return list.length;
    };
    // Both lexemes occur, so the group's document frequency is a real sum.
    expect(want.postings.some((p) => p.term === "glacier")).toBe(true);
    expect(want.postings.some((p) => p.term === "survey")).toBe(true);
    add(["glacier", "survey"]);
    add(["low"]);
    add(["altitud"]);
    const stats = await bm25Statistics(ctx.db, english, ["english"], [group]);
    expect(stats.members.get("{glacier|survey}")).toEqual(["glacier", "survey"]);
    expect([...stats.idf.keys()].sort()).toEqual(["altitud", "low", "{glacier|survey}"]);
    for (const budget of [1_000_000, 1]) {
      const result = await bm25Search(ctx.db, stats, { ...params, postingsBudget: budget }, 1000);
      expect(result.hits.length).toBeGreaterThan(0);
      for (const hit of result.hits) {
        expect(hit.score).toBeCloseTo(scores.get(String(hit.chunkId))!, 9);
      }
      if (budget > 1) expect(result.hits.length).toBe(scores.size);
      const again = await bm25Scores(ctx.db, result, [...scores.keys()].map(Number), params);
      for (const [id, score] of scores) expect(again.get(Number(id))).toBeCloseTo(score, 9);
    }
  });

  it("answers a query with no indexable words with no hits", async () => {
    const result = await bm25Candidates(ctx.db, "the of and", params, 10);
    expect(result.hits).toEqual([]);
    expect(result.idf.size).toBe(0);
    expect(result.chunks).toBeGreaterThan(0);
  });
});
