/**
 * @module Test support: a strict reader of the Prometheus text exposition format (0.0.4), so
 * tests check what a scraper would accept, and read samples by name and labels.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric family name → its TYPE. */
  types: Map<string, string>;
  /** The value of the one sample with this name whose labels include `labels`, or undefined. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample with this name whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

/** Parses an exposition; throws on any line a scraper would reject. */
export function parsePrometheus(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    const where = `line ${index + 1}: ${JSON.stringify(line)}`;
    if (line === "") continue;
    if (line.startsWith("#")) {
      const [, kind, name, rest] = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line) ?? [];
      if (!kind) continue; // a plain comment
      if (!name || !NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      if (kind === "TYPE") {
        if (!TYPES.has(rest ?? "")) throw new Error(`bad type, ${where}`);
        if (types.has(name)) throw new Error(`second TYPE for ${name}, ${where}`);
        types.set(name, rest as string);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample, ${where}`);
    const [, name, labelText, valueText] = match as unknown as [string, string, string, string];
    const labels: Record<string, string> = {};
    if (labelText) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < labelText.length) {
        const at = LABEL.lastIndex;
        const label = LABEL.exec(labelText);
        if (!label || label.index !== at) throw new Error(`bad labels, ${where}`);
        const [, key, raw] = label as unknown as [string, string, string];
        if (key in labels) throw new Error(`label ${key} twice, ${where}`);
        labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
      }
    }
    const value = parseFloatLikeGo(valueText);
    if (value === undefined) throw new Error(`bad value, ${where}`);
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count|total)$/, "");
    if (!types.has(family) && !types.has(name)) throw new Error(`sample before its TYPE, ${where}`);
    samples.push({ name, labels, value });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
  return {
    samples,
    types,
    find,
    value(name, labels) {
      const found = find(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`);
      return found[0]?.value;
    },
  };
}

/**
 * A sample value as Prometheus reads it (Go's strconv.ParseFloat): decimals, exponents, and
 * NaN / Inf / Infinity in any letter case (prom-client writes NaN as "Nan").
 */
function parseFloatLikeGo(text: string): number | undefined {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) {
    if (special[2]?.toLowerCase() === "nan") return special[1] ? undefined : Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}
