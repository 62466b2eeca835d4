/**
 * @module Document translation for Spanish queries, measured (ADR 0034): each English
 * paper's title + abstract translated into Spanish by Apertium (eng-spa, one process for the
 * whole batch), indexed under Spanish analysis (BM25 in this process over PostgreSQL's
 * `spanish` lexemes), and fused with today's ranking of the known-item set's Spanish queries.
 * A trial, not the product: nothing here is stored in the archive.
 *
 *   npm run eval:doc-translation                    # dev half (the half to choose on)
 *   npm run eval:doc-translation -- --half test     # the test half, read once for a choice
 *   npm run eval:doc-translation -- --smoke         # 5 queries over their papers + 40 others
 *
 * Environment: as eval:arxiv (eval/lib/database.ts); EVAL_DATABASE_URL of a database
 * eval:arxiv filled reuses its import. Needs Apertium's en-es pair; without it (or with
 * CROSS_LINGUAL=off) it says so and measures nothing.
 *
 * Rankings, per query, at the paper level (passages grouped by paper as the site shows them):
 * - today: searchChunks as the product runs it (Apertium on the query, the glossary);
 * - query translation without the glossary: the query replaced by Apertium's English;
 * - doc: BM25 (k1 0.9, b 0.4, as the product) of the query's Spanish lexemes over the papers'
 *   Spanish translations;
 * - fusions of a query-side ranking with doc: CombSUM of z-scores (a paper missing from a
 *   list gets that list's lowest z), CombMAX, weighted RRF (k 60). The doc ranking joins
 *   only for a query the product finds Spanish (its es→en translation kept): English
 *   queries are answered as today.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { figure, orSmoke, SMOKE, samples } from "../bench/lib/smoke.ts";
import { loadConfig } from "../src/config.ts";
import { pgArray, rowsOf } from "../src/db/sql.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { arxivPapers, type BulkPaper, bulkLoadPapers } from "../src/services/dataset/bulk-load.ts";
import { rebuildSearchIndex } from "../src/services/search/indexing.ts";
import { queryVariants, searchChunks } from "../src/services/search/search.ts";
import { DEFAULT_SEARCH_SETTINGS } from "../src/services/search/settings.ts";
import { log, withEvalDatabase } from "./lib/database.ts";

const ARXIV = new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const SET = new URL("./sets/arxiv-known-item.tsv", import.meta.url);
const at = process.argv.indexOf("--half");
const HALF = at > 0 ? process.argv[at + 1] : "dev";
if (HALF !== "dev" && HALF !== "test" && HALF !== "all") {
  throw new Error("--half is dev, test or all");
}

interface Item {
  paper: string;
  en: string;
  es: string;
}
interface Scored {
  paper: string;
  s: number;
}

function readSet(): Item[] {
  const [, ...rows] = readFileSync(SET, "utf8").trimEnd().split("\n");
  return rows
    .map((row) => row.split("\t"))
    .map(([paper, en, es]) => ({ paper: paper!, en: en!, es: es! }))
    .filter((_, i) => HALF === "all" || (i % 2 === 0) === (HALF === "dev"));
}

/**
 * The whole batch through one `apertium -u eng-spa` process, one paper a line. Files, not
 * pipes: the apertium script reads /dev/stdin, which cannot be opened on Node's socket.
 */
async function translateAll(texts: string[]): Promise<{ out: string[]; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), "quire-doctr-"));
  try {
    const input = join(dir, "en.txt");
    const output = join(dir, "es.txt");
    writeFileSync(input, `${texts.map((t) => t.replace(/\s+/g, " ").trim()).join("\n")}\n`);
    const started = performance.now();
    const child = spawn("apertium", ["-u", "eng-spa", input, output], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`apertium exited with ${code}`);
    const seconds = (performance.now() - started) / 1000;
    const out = readFileSync(output, "utf8").replace(/\n$/, "").split("\n");
    if (out.length !== texts.length) {
      throw new Error(`apertium returned ${out.length} lines for ${texts.length} papers`);
    }
    return { out, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Term frequencies of each translation under PostgreSQL's Spanish analysis. */
async function spanishTerms(rt: Runtime, docs: string[]): Promise<Map<string, number>[]> {
  const all: Map<string, number>[] = [];
  for (let s = 0; s < docs.length; s += 500) {
    const part = docs.slice(s, s + 500);
    const rows = await rowsOf<{ i: number; lexeme: string; n: number | null }>(
      rt.database.db,
      sql`select t.i::int as i, (unnest(to_tsvector('spanish', t.doc))).lexeme as lexeme,
                 array_length((unnest(to_tsvector('spanish', t.doc))).positions, 1) as n
          from unnest(${pgArray(part, "text")}) with ordinality as t(doc, i)`,
    );
    const local = part.map(() => new Map<string, number>());
    for (const r of rows) local[Number(r.i) - 1]!.set(r.lexeme, Number(r.n ?? 1));
    all.push(...local);
  }
  return all;
}

function bm25Over(ids: string[], tfs: Map<string, number>[]) {
  const { k1, b } = DEFAULT_SEARCH_SETTINGS;
  const len = tfs.map((t) => [...t.values()].reduce((a, c) => a + c, 0));
  const avg = len.reduce((a, c) => a + c, 0) / tfs.length;
  const df = new Map<string, number>();
  for (const t of tfs) for (const k of t.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  return (terms: string[]): Scored[] => {
    const scores = new Map<number, number>();
    for (const term of new Set(terms)) {
      const d = df.get(term);
      if (!d) continue;
      const idf = Math.log(1 + (tfs.length - d + 0.5) / (d + 0.5));
      tfs.forEach((t, i) => {
        const f = t.get(term);
        if (!f) return;
        const norm = f + k1 * (1 - b + (b * len[i]!) / avg);
        scores.set(i, (scores.get(i) ?? 0) + (idf * f * (k1 + 1)) / norm);
      });
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 300)
      .map(([i, s]) => ({ paper: ids[i]!, s }));
  };
}

/** Papers of a search, each at its best passage, with the fused value behind its score. */
async function ranking(ctx: ServiceContext, q: string): Promise<Scored[]> {
  const { a, c } = DEFAULT_SEARCH_SETTINGS.scoreCurves.hybrid;
  const res = await searchChunks(ctx, { q, limit: 20 });
  const out: Scored[] = [];
  for (const r of res.results) {
    if (out.some((o) => o.paper === r.paper_id)) continue;
    const p = Math.min(Math.max(r.score, 1e-12), 1 - 1e-12);
    out.push({ paper: r.paper_id, s: (Math.log(p / (1 - p)) - c) / a });
  }
  return out;
}

function zOf(list: Scored[]): Map<string, number> {
  const n = Math.max(1, list.length);
  const mean = list.reduce((a, x) => a + x.s, 0) / n;
  const sd = Math.sqrt(list.reduce((a, x) => a + (x.s - mean) ** 2, 0) / n) || 1;
  return new Map(list.map((x) => [x.paper, (x.s - mean) / sd]));
}

const sorted = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1]).map((x) => x[0]);

type Fuse = (query: Scored[], doc: Scored[]) => string[];
const FUSIONS: [string, Fuse][] = [
  ["query side alone", (q) => q.map((x) => x.paper)],
  ["doc alone", (_q, d) => d.map((x) => x.paper)],
];
for (const w of [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]) {
  FUSIONS.push([
    `CombSUM w ${w}`,
    (q, d) => {
      const zq = zOf(q);
      const zd = zOf(d);
      const floorQ = Math.min(0, ...zq.values());
      const floorD = Math.min(0, ...zd.values());
      const s = new Map<string, number>();
      for (const p of new Set([...zq.keys(), ...zd.keys()])) {
        s.set(p, (zq.get(p) ?? floorQ) + w * (zd.get(p) ?? floorD));
      }
      return sorted(s);
    },
  ]);
}
for (const w of [0.75, 1, 1.25]) {
  FUSIONS.push([
    `CombMAX w ${w}`,
    (q, d) => {
      const s = new Map(q.map((x) => [x.paper, x.s]));
      for (const [p, v] of zOf(d)) s.set(p, Math.max(s.get(p) ?? -Infinity, w * v));
      return sorted(s);
    },
  ]);
}
for (const w of [0.5, 1]) {
  FUSIONS.push([
    `RRF k 60 w ${w}`,
    (q, d) => {
      const s = new Map<string, number>();
      for (const [i, x] of q.entries()) s.set(x.paper, (s.get(x.paper) ?? 0) + 1 / (61 + i));
      for (const [i, x] of d.slice(0, 100).entries()) {
        s.set(x.paper, (s.get(x.paper) ?? 0) + w / (61 + i));
      }
      return sorted(s);
    },
  ]);
}

function reciprocalRankAt10(ranked: string[], paper: string): number {
  const i = ranked.slice(0, 10).indexOf(paper);
  return i < 0 ? 0 : 1 / (i + 1);
}

async function main(): Promise<void> {
  const items = orSmoke(readSet(), readSet().slice(0, 5));
  const wanted = new Set(items.map((i) => i.paper));
  const all = [...arxivPapers(ARXIV)];
  const corpus: BulkPaper[] = orSmoke(
    all,
    all.filter((p, i) => wanted.has(p.id) || i < 40),
  );
  await withEvalDatabase("doctr", async (env) => {
    const config = loadConfig({
      ...env,
      LOG_LEVEL: "silent",
      SEED_SAMPLES: "false",
      PORT: "0",
      CROSS_LINGUAL: process.env.CROSS_LINGUAL === "off" ? "off" : "auto",
    });
    const rt = await openRuntime(config, createLogger("silent"), { rateLimits: false });
    try {
      const translator = rt.services.translator ?? null;
      if (!translator) {
        log(
          "cross-lingual search is off (Apertium's en-es pair not found, or CROSS_LINGUAL=off): document translation cannot be measured",
        );
        return;
      }
      const [existing] = await rowsOf<{ n: number }>(
        rt.database.db,
        sql`select count(*)::int as n from papers`,
      );
      if (Number(existing?.n ?? 0) === 0) {
        await bulkLoadPapers(rt.services, corpus, { count: corpus.length });
        await rebuildSearchIndex(rt.services);
        await rt.database.db.execute(sql`analyze`);
      }
      const papers = await rowsOf<{ id: string }>(rt.database.db, sql`select id from papers`);
      const present = new Set(papers.map((p) => p.id));
      const docs = corpus.filter((p) => present.has(p.id));
      const load = loadavg()[0]!.toFixed(2);
      const words = docs.reduce((n, p) => n + `${p.title} ${p.abstract}`.split(/\s+/).length, 0);
      const { out, seconds } = await translateAll(docs.map((p) => `${p.title}. ${p.abstract}`));
      const bytes = out.reduce((n, t) => n + Buffer.byteLength(t), 0);
      log(
        `translated ${docs.length} papers (${words} words) in ${seconds.toFixed(1)} s through one apertium eng-spa: ` +
          `${(docs.length / seconds).toFixed(1)} papers/s, ${(words / seconds).toFixed(0)} words/s, ` +
          `${(bytes / docs.length).toFixed(0)} bytes of Spanish a paper (load average ${load} before, ${loadavg()[0]!.toFixed(2)} after)`,
      );
      const docSearch = bm25Over(
        docs.map((p) => p.id),
        await spanishTerms(rt, out),
      );
      const plain = { ...rt.services, translator: undefined };
      const totals = new Map<string, number>();
      const add = (key: string, v: number) => totals.set(key, (totals.get(key) ?? 0) + v);
      let spanishFound = 0;
      for (const item of items) {
        for (const [lang, q] of [
          ["es", item.es],
          ["en", item.en],
        ] as const) {
          const [lex] = await rowsOf<{ l: string[] }>(
            rt.database.db,
            sql`select tsvector_to_array(to_tsvector('spanish', ${q})) as l`,
          );
          const [today, variants, english] = await Promise.all([
            ranking(rt.services, q),
            queryVariants(rt.services, q),
            translator.translate(q, "es", "en"),
          ]);
          const noGlossary = await ranking(plain, english ?? q);
          const doc = docSearch(lex?.l ?? []);
          const spanish = variants.some((v) => v.language === "en");
          if (lang === "es" && spanish) spanishFound++;
          for (const [side, query] of [
            ["today", today],
            ["no glossary", noGlossary],
          ] as const) {
            if (lang === "en" && side === "no glossary") continue;
            for (const [name, fuse] of FUSIONS) {
              const fused = spanish || name === "doc alone" ? fuse(query, doc) : fuse(query, []);
              add(`${lang}|${side}|${name}`, reciprocalRankAt10(fused, item.paper));
            }
          }
        }
      }
      const n = samples("queries", items.length);
      const rows: string[] = [];
      for (const key of totals.keys()) {
        const [lang, side, name] = key.split("|");
        const value = figure(key, totals.get(key)! / n);
        rows.push(
          `| ${lang === "es" ? "Spanish" : "English"} | ${side} | ${name} | ${value.toFixed(3)} |`,
        );
      }
      process.stdout.write(
        [
          "",
          `Document translation, ${docs.length} papers, engine ${rt.database.kind}, ${HALF} half (${n} queries; ${spanishFound} Spanish queries found Spanish)`,
          "",
          "| queries | query side | fusion with the doc ranking | MRR@10 |",
          "|---|---|---|---|",
          ...rows,
          "",
        ].join("\n"),
      );
    } finally {
      await rt.close();
    }
  });
  if (SMOKE) log("smoke run done");
}

await main();
