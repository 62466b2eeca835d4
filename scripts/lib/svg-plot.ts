/**
 * @module A small SVG line-and-marker chart for the sample papers' figures (scripts/samples-figures.ts):
 * axes with ticks, linear or log y, series as lines or markers, a legend. No dependencies, and
 * the same input always gives the same bytes.
 */

interface Series {
  label: string;
  points: readonly (readonly [number, number])[];
  color: string;
  /** `line` (default), `markers`, or `steps` (a step function, drawn flat between points). */
  style?: "line" | "markers" | "steps";
  dashed?: boolean;
}

export interface Chart {
  /** The figure's text alternative (the SVG's `<title>`). */
  title: string;
  xLabel: string;
  yLabel: string;
  x: { min: number; max: number; ticks: number[] };
  y: { min: number; max: number; ticks: number[]; log?: boolean };
  series: Series[];
  /** Horizontal reference lines (a nominal level), drawn dotted and labelled. */
  hlines?: { y: number; label: string }[];
  legend?: "top-right" | "bottom-right" | "top-left" | "bottom-left";
}

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { left: 72, right: 20, top: 20, bottom: 56 };

function num(n: number): string {
  return Number(n.toFixed(2)).toString();
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function tickLabel(value: number): string {
  if (Math.abs(value) >= 1000 || (Math.abs(value) < 0.01 && value !== 0)) {
    return value.toExponential(0).replace("e+", "e");
  }
  return Number(value.toPrecision(6)).toString();
}

/** The chart as an SVG document (640 × 400 user units, DejaVu Sans or any sans-serif). */
export function renderChart(chart: Chart): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => MARGIN.left + ((x - chart.x.min) / (chart.x.max - chart.x.min)) * plotW;
  const ty = (y: number) => (chart.y.log ? Math.log10(y) : y);
  const yMin = ty(chart.y.min);
  const yMax = ty(chart.y.max);
  const sy = (y: number) => MARGIN.top + plotH - ((ty(y) - yMin) / (yMax - yMin)) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`,
  );
  out.push(`<title>${escapeXml(chart.title)}</title>`);
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  // Grid and ticks.
  for (const t of chart.x.ticks) {
    const x = num(sx(t));
    out.push(
      `<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + plotH}" stroke="#e4e4e4"/>`,
      `<text x="${x}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${tickLabel(t)}</text>`,
    );
  }
  for (const t of chart.y.ticks) {
    const y = num(sy(t));
    out.push(
      `<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + plotW}" y2="${y}" stroke="#e4e4e4"/>`,
      `<text x="${MARGIN.left - 8}" y="${num(sy(t) + 4)}" text-anchor="end">${tickLabel(t)}</text>`,
    );
  }
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333333"/>`,
    `<text x="${num(MARGIN.left + plotW / 2)}" y="${HEIGHT - 14}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(18 ${num(MARGIN.top + plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  for (const h of chart.hlines ?? []) {
    const y = num(sy(h.y));
    out.push(
      `<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + plotW}" y2="${y}" stroke="#555555" stroke-dasharray="2 3"/>`,
    );
  }
  const labels: string[] = [];
  for (const h of chart.hlines ?? []) {
    labels.push(
      `<rect x="${num(MARGIN.left + plotW - 10 - h.label.length * 7.4)}" y="${num(sy(h.y) + 4)}" width="${num(h.label.length * 7.4 + 6)}" height="17" fill="#ffffff" fill-opacity="0.85"/>`,
      `<text x="${MARGIN.left + plotW - 6}" y="${num(sy(h.y) + 17)}" text-anchor="end" fill="#555555">${escapeXml(h.label)}</text>`,
    );
  }
  const clip = `plot-area`;
  out.push(
    `<clipPath id="${clip}"><rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}"/></clipPath>`,
  );
  for (const s of chart.series) {
    const pts = s.points.filter(([, y]) => !chart.y.log || y > 0);
    if (s.style === "markers") {
      const dots = pts
        .map(([x, y]) => `<circle cx="${num(sx(x))}" cy="${num(sy(y))}" r="3.5"/>`)
        .join("");
      out.push(`<g fill="${s.color}" clip-path="url(#${clip})">${dots}</g>`);
      continue;
    }
    const coords: string[] = [];
    pts.forEach(([x, y], i) => {
      if (s.style === "steps" && i > 0)
        coords.push(`${num(sx(x))},${num(sy(pts[i - 1]?.[1] ?? y))}`);
      coords.push(`${num(sx(x))},${num(sy(y))}`);
    });
    out.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="1.8"${s.dashed ? ' stroke-dasharray="6 4"' : ""} clip-path="url(#${clip})" points="${coords.join(" ")}"/>`,
    );
  }
  out.push(...labels);
  // Legend.
  const corner = chart.legend ?? "top-right";
  const rows = chart.series.length;
  const boxW = 16 + Math.max(...chart.series.map((s) => s.label.length)) * 7.4 + 40;
  const boxH = rows * 20 + 10;
  const bx = corner.endsWith("right") ? MARGIN.left + plotW - boxW - 10 : MARGIN.left + 10;
  const by = corner.startsWith("top") ? MARGIN.top + 10 : MARGIN.top + plotH - boxH - 10;
  out.push(
    `<rect x="${num(bx)}" y="${num(by)}" width="${num(boxW)}" height="${boxH}" fill="#ffffff" fill-opacity="0.9" stroke="#bbbbbb"/>`,
  );
  chart.series.forEach((s, i) => {
    const y = by + 18 + i * 20;
    const sample =
      s.style === "markers"
        ? `<circle cx="${num(bx + 22)}" cy="${num(y - 4)}" r="3.5" fill="${s.color}"/>`
        : `<line x1="${num(bx + 8)}" y1="${num(y - 4)}" x2="${num(bx + 36)}" y2="${num(y - 4)}" stroke="${s.color}" stroke-width="1.8"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`;
    out.push(sample, `<text x="${num(bx + 44)}" y="${num(y)}">${escapeXml(s.label)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
