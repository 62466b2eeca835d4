/** @module A paper with figures from a Markdown bundle (PNG, SVG with a script, CSV), published for tests. */
import sharp from "sharp";
import type { ServiceContext } from "../services/context.ts";
import { type PreparedSource, prepareSource } from "../services/files/index.ts";
import { makeZip } from "./bundles.ts";
import { publishPaper } from "./factories.ts";

/** An SVG that would run a script and an event handler if it were ever rendered as a document. */
const SCRIPTED_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" onload="window.__svgRan = 1">
<script>window.__svgRan = 1; alert('svg'); fetch('/api/v1/papers?stolen=1');</script>
<rect width="40" height="20" fill="#369"/></svg>`;

async function plotPng(width = 320, height = 200): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: "#8ab" } })
      .png()
      .toBuffer(),
  );
}

const FIGURE_BODY = `## Results

The estimate settles after a few steps (Figure [1](#figure-1)).

![Figure 1: Estimated gap against steps, with $d=3$.](figures/plot.png) {#figure-1}

![Figure 2: A diagram.](figures/diagram.svg) {#figure-2}

Table: Table 1: Estimates. {#table-1}

| d | estimate |
| --- | --- |
| 3 | 2.831 |

The data are in \`data/estimates.csv\`.
`;

export async function figureBundle(shade = 128): Promise<Uint8Array> {
  return makeZip({
    "paper.md": FIGURE_BODY,
    "figures/plot.png": await plotPng(shade),
    "figures/diagram.svg": SCRIPTED_SVG,
    "data/estimates.csv": "d,estimate\n3,2.831\n",
  });
}

/** Publishes a paper with the figure bundle's body and files; returns its id and files. */
export async function publishFigurePaper(
  ctx: ServiceContext,
  shade = 128,
): Promise<{ paperId: string; source: PreparedSource }> {
  const source = await prepareSource(await figureBundle(shade));
  const result = await publishPaper(ctx, { body: source.body, files: source.files });
  return { paperId: result.paper_id, source };
}
