/**
 * @module `npm run samples:figures`: computes what the two sample papers with figures report
 * and draws their figures, into their source folders under samples/sources/:
 *
 * - binomial-coverage (LaTeX): the exact coverage of the Wald and Wilson intervals for a
 *   binomial proportion, summed over the binomial distribution (no simulation), drawn as
 *   PNG (LaTeX includes PNG, not SVG) and written as CSV;
 * - linear-probing (Markdown): probe counts of linear probing measured on tables filled with
 *   a seeded generator, against Knuth's formulas, drawn as SVG and written as CSV.
 *
 * Deterministic: the same script writes the same bytes. It prints the numbers the papers'
 * tables quote. After running it, `npm run samples:convert` repacks the bundles and converts
 * the LaTeX one (docs/files.md, "The sample papers").
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { fromRoot } from "../src/paths.ts";
import { renderChart } from "./lib/svg-plot.ts";

const BINOMIAL = fromRoot("samples/sources/binomial-coverage");
const PROBING = fromRoot("samples/sources/linear-probing");

function write(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  console.log(`wrote ${path}`);
}

async function writePng(path: string, svg: string): Promise<void> {
  const png = await sharp(Buffer.from(svg), { density: 144 })
    .flatten({ background: "#ffffff" })
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
  write(path, png);
}

// ---------------------------------------------------------------- binomial coverage

/** Φ⁻¹(0.975): the 95 % two-sided normal quantile. */
const Z = 1.959963984540054;

type Interval = (k: number, n: number) => [number, number];

const wald: Interval = (k, n) => {
  const p = k / n;
  const half = Z * Math.sqrt((p * (1 - p)) / n);
  return [p - half, p + half];
};

const wilson: Interval = (k, n) => {
  const p = k / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [centre - half, centre + half];
};

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) {
    logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  }
  return logFactorials[n] as number;
}

/** P(X = k) for X ~ Binomial(n, p), in log space so n = 200 and p = 0.99 do not underflow. */
function binomialPmf(k: number, n: number, p: number): number {
  const log =
    logFactorial(n) -
    logFactorial(k) -
    logFactorial(n - k) +
    k * Math.log(p) +
    (n - k) * Math.log1p(-p);
  return Math.exp(log);
}

/** Exact coverage: the probability that the interval computed from X contains p. */
function coverage(interval: Interval, n: number, p: number): number {
  let sum = 0;
  for (let k = 0; k <= n; k++) {
    const [lo, hi] = interval(k, n);
    if (lo <= p && p <= hi) sum += binomialPmf(k, n, p);
  }
  return sum;
}

/** p = 0.001, 0.002, …, 0.999 */
const P_GRID = Array.from({ length: 999 }, (_, i) => (i + 1) / 1000);

function summary(interval: Interval, n: number) {
  const inner = P_GRID.filter((p) => p >= 0.05 - 1e-12 && p <= 0.95 + 1e-12);
  const all = P_GRID.map((p) => coverage(interval, n, p));
  const mid = inner.map((p) => coverage(interval, n, p));
  return {
    mean: all.reduce((a, b) => a + b, 0) / all.length,
    min: Math.min(...mid),
    below: mid.filter((c) => c < 0.93).length / mid.length,
  };
}

async function binomialFigures(): Promise<void> {
  const n = 30;
  const byP = P_GRID.map((p) => [p, coverage(wald, n, p), coverage(wilson, n, p)] as const);
  await writePng(
    join(BINOMIAL, "figures/coverage-n30.png"),
    renderChart({
      title: `Exact coverage for n = ${n}`,
      xLabel: "true proportion p",
      yLabel: "coverage probability",
      x: { min: 0, max: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] },
      y: { min: 0.5, max: 1, ticks: [0.5, 0.6, 0.7, 0.8, 0.9, 1] },
      hlines: [{ y: 0.95, label: "nominal 0.95" }],
      series: [
        { label: "Wald", color: "#c0392b", points: byP.map(([p, w]) => [p, w]) },
        { label: "Wilson", color: "#1f5fa8", points: byP.map(([p, , s]) => [p, s]) },
      ],
      legend: "bottom-right",
    }),
  );

  const p = 0.1;
  const ns = Array.from({ length: 191 }, (_, i) => i + 10);
  const byN = ns.map((m) => [m, coverage(wald, m, p), coverage(wilson, m, p)] as const);
  await writePng(
    join(BINOMIAL, "figures/coverage-p010.png"),
    renderChart({
      title: `Exact coverage at p = ${p}`,
      xLabel: "sample size n",
      yLabel: "coverage probability",
      x: { min: 10, max: 200, ticks: [10, 50, 100, 150, 200] },
      y: { min: 0.7, max: 1, ticks: [0.7, 0.8, 0.9, 1] },
      hlines: [{ y: 0.95, label: "nominal 0.95" }],
      series: [
        { label: "Wald", color: "#c0392b", points: byN.map(([m, w]) => [m, w]) },
        { label: "Wilson", color: "#1f5fa8", points: byN.map(([m, , s]) => [m, s]) },
      ],
      legend: "bottom-right",
    }),
  );

  const rows = ["figure,n,p,wald,wilson"];
  for (const [q, w, s] of byP) rows.push(`1,${n},${q},${w.toFixed(6)},${s.toFixed(6)}`);
  for (const [m, w, s] of byN) rows.push(`2,${m},${p},${w.toFixed(6)},${s.toFixed(6)}`);
  write(join(BINOMIAL, "data/coverage.csv"), `${rows.join("\n")}\n`);

  console.log(
    "\nTable 1 (binomial coverage): n | Wald mean, min, share<0.93 | Wilson mean, min, share<0.93",
  );
  for (const m of [10, 20, 30, 50, 100, 200]) {
    const w = summary(wald, m);
    const s = summary(wilson, m);
    const f = (x: number) => x.toFixed(3);
    console.log(
      `${m} & ${f(w.mean)} & ${f(w.min)} & ${f(w.below)} & ${f(s.mean)} & ${f(s.min)} & ${f(s.below)} \\\\`,
    );
  }
  const at = (m: number, q: number) =>
    `n=${m} p=${q}: Wald ${coverage(wald, m, q).toFixed(4)}, Wilson ${coverage(wilson, m, q).toFixed(4)}`;
  console.log(at(30, 0.1), "|", at(30, 0.2), "|", at(30, 0.5), "|", at(30, 0.01));
  const waldAt = byN.map(([m, w]) => `${m}:${w.toFixed(3)}`);
  console.log("Wald at p=0.1 by n (first 40):", waldAt.slice(0, 40).join(" "));
  const worst = byN.reduce((a, b) => (b[1] < a[1] ? b : a));
  const best = byN.reduce((a, b) => (b[1] > a[1] ? b : a));
  console.log(
    `Wald at p=0.1: lowest ${worst[1].toFixed(4)} at n=${worst[0]}, highest ${best[1].toFixed(4)} at n=${best[0]}`,
  );
  const first95 = byN.find(([, w]) => w >= 0.95);
  console.log(`Wald at p=0.1 first reaches 0.95 at n=${first95?.[0]}`);
  const below = byN.filter(([m, w]) => m >= 100 && w < 0.93).map(([m]) => m);
  console.log(`Wald at p=0.1 below 0.93 for n >= 100: ${below.join(",")}`);
  const edge = byP.filter(([q]) => q < 0.05).reduce((a, b) => (b[2] < a[2] ? b : a));
  console.log(`Wilson at n=${n}, p < 0.05: lowest ${edge[2].toFixed(4)} at p=${edge[0]}`);
  const wilsonRange = byN.map(([, , s]) => s);
  console.log(
    `Wilson at p=0.1: min ${Math.min(...wilsonRange).toFixed(4)}, max ${Math.max(...wilsonRange).toFixed(4)}`,
  );
}

// ---------------------------------------------------------------- linear probing

/** SplitMix32-style generator: small, seeded, the same sequence on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const TABLE_BITS = 16;
const TABLE_SIZE = 1 << TABLE_BITS;
const TABLES = 10;

interface Fill {
  /** Mean probes of a successful search (every stored key looked up once). */
  successful: number;
  /** Mean probes of an unsuccessful search, over every start cell (the empty cell included). */
  unsuccessful: number;
  /** Probe counts of successful searches, for the tail. */
  counts: Uint32Array;
}

/** Fills a table of 2^16 cells to load α with uniformly hashed keys, by linear probing. */
function fillTable(alpha: number, seed: number): Fill {
  const m = TABLE_SIZE;
  const n = Math.round(alpha * m);
  const occupied = new Uint8Array(m);
  const counts = new Uint32Array(n);
  const next = generator(seed);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const home = next() & (m - 1);
    let cell = home;
    while (occupied[cell]) cell = (cell + 1) & (m - 1);
    occupied[cell] = 1;
    const probes = ((cell - home + m) & (m - 1)) + 1;
    counts[i] = probes;
    total += probes;
  }
  // Unsuccessful: from each start, the run of occupied cells up to the first empty one.
  // Walking backwards from an empty cell gives every start's run length in one pass.
  const empty = occupied.indexOf(0);
  let unsuccessful = 0;
  let run = 0;
  for (let step = 0; step < m; step++) {
    const cell = (empty - step + m) & (m - 1);
    run = occupied[cell] ? run + 1 : 0;
    unsuccessful += run + 1;
  }
  return { successful: total / n, unsuccessful: unsuccessful / m, counts };
}

const knuthSuccessful = (a: number) => 0.5 * (1 + 1 / (1 - a));
const knuthUnsuccessful = (a: number) => 0.5 * (1 + 1 / (1 - a) ** 2);

function probingFigures(): void {
  const alphas = Array.from({ length: 18 }, (_, i) => Number(((i + 1) * 0.05).toFixed(2)));
  /** Mean over the tables, and its standard error (the tables are independent). */
  const meanAndError = (values: number[]) => {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
    return { mean, error: Math.sqrt(variance / values.length) };
  };
  const measured = alphas.map((alpha) => {
    const s: number[] = [];
    const u: number[] = [];
    let max = 0;
    for (let t = 0; t < TABLES; t++) {
      const fill = fillTable(alpha, 1000 * Math.round(alpha * 100) + t);
      s.push(fill.successful);
      u.push(fill.unsuccessful);
      for (const c of fill.counts) if (c > max) max = c;
    }
    const succ = meanAndError(s);
    const unsucc = meanAndError(u);
    return {
      alpha,
      successful: succ.mean,
      successfulError: succ.error,
      unsuccessful: unsucc.mean,
      unsuccessfulError: unsucc.error,
      max,
    };
  });
  const curve = (f: (a: number) => number) =>
    Array.from({ length: 181 }, (_, i) => {
      const a = 0.05 + i * 0.005;
      return [a, f(a)] as const;
    });
  write(
    join(PROBING, "figures/probes.svg"),
    renderChart({
      title: "Mean probes per search against load factor",
      xLabel: "load factor α",
      yLabel: "mean probes per search (log scale)",
      x: { min: 0, max: 0.95, ticks: [0, 0.2, 0.4, 0.6, 0.8, 0.9] },
      y: { min: 1, max: 100, ticks: [1, 2, 5, 10, 20, 50, 100], log: true },
      series: [
        {
          label: "unsuccessful, Knuth",
          color: "#c0392b",
          dashed: true,
          points: curve(knuthUnsuccessful),
        },
        {
          label: "unsuccessful, measured",
          color: "#c0392b",
          style: "markers",
          points: measured.map((r) => [r.alpha, r.unsuccessful]),
        },
        {
          label: "successful, Knuth",
          color: "#1f5fa8",
          dashed: true,
          points: curve(knuthSuccessful),
        },
        {
          label: "successful, measured",
          color: "#1f5fa8",
          style: "markers",
          points: measured.map((r) => [r.alpha, r.successful]),
        },
      ],
      legend: "top-left",
    }),
  );

  // The tail: P(a successful search takes more than t probes), pooled over the tables.
  const tails = [0.5, 0.7, 0.9].map((alpha) => {
    const all: number[] = [];
    for (let t = 0; t < TABLES; t++) {
      for (const c of fillTable(alpha, 1000 * Math.round(alpha * 100) + t).counts) all.push(c);
    }
    const limit = 200;
    const histogram = new Float64Array(limit + 2);
    for (const c of all)
      histogram[Math.min(c, limit + 1)] = (histogram[Math.min(c, limit + 1)] ?? 0) + 1;
    const points: [number, number][] = [];
    let above = all.length;
    for (let t = 0; t <= limit; t++) {
      above -= histogram[t] ?? 0;
      points.push([t, above / all.length]);
    }
    return { alpha, points };
  });
  write(
    join(PROBING, "figures/tail.svg"),
    renderChart({
      title: "Tail of the successful-search probe count",
      xLabel: "probes t",
      yLabel: "P(probes > t) (log scale)",
      x: { min: 0, max: 200, ticks: [0, 50, 100, 150, 200] },
      y: { min: 1e-5, max: 1, ticks: [1e-5, 1e-4, 1e-3, 0.01, 0.1, 1], log: true },
      series: [
        { label: "α = 0.5", color: "#1f5fa8", style: "steps", points: tails[0]?.points ?? [] },
        { label: "α = 0.7", color: "#2e8b57", style: "steps", points: tails[1]?.points ?? [] },
        { label: "α = 0.9", color: "#c0392b", style: "steps", points: tails[2]?.points ?? [] },
      ],
      legend: "top-right",
    }),
  );

  const rows = [
    "alpha,successful,successful_se,successful_knuth,unsuccessful,unsuccessful_se,unsuccessful_knuth,max_probes",
  ];
  for (const r of measured) {
    rows.push(
      [
        r.alpha,
        r.successful.toFixed(4),
        r.successfulError.toFixed(4),
        knuthSuccessful(r.alpha).toFixed(4),
        r.unsuccessful.toFixed(4),
        r.unsuccessfulError.toFixed(4),
        knuthUnsuccessful(r.alpha).toFixed(4),
        r.max,
      ].join(","),
    );
  }
  write(join(PROBING, "data/probes.csv"), `${rows.join("\n")}\n`);
  console.log(
    "\nTable 1 (linear probing): α | successful measured, Knuth | unsuccessful measured, Knuth | max",
  );
  for (const r of measured.filter((m) => [0.5, 0.7, 0.8, 0.9].includes(m.alpha))) {
    console.log(
      `| ${r.alpha} | ${r.successful.toFixed(3)} ± ${r.successfulError.toFixed(3)} | ${knuthSuccessful(r.alpha).toFixed(3)} | ${r.unsuccessful.toFixed(3)} ± ${r.unsuccessfulError.toFixed(3)} | ${knuthUnsuccessful(r.alpha).toFixed(2)} | ${r.max} |`,
    );
  }
  for (const t of tails) {
    const at = (x: number) => t.points[x]?.[1]?.toExponential(2);
    console.log(`α=${t.alpha}: P(>10)=${at(10)} P(>50)=${at(50)} P(>100)=${at(100)}`);
  }
}

await binomialFigures();
probingFigures();
