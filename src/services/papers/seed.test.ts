/**
 * The sample papers' committed files agree with each other, so `npm start` seeds them on a
 * machine without LaTeXML and without converting anything: each bundle is its source folder
 * packed, and each LaTeX bundle has a saved conversion of exactly that archive.
 * (samples.latex.test.ts checks the saved conversions against a fresh one.)
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { folderEntries, stableZip } from "../../testing/bundles.ts";
import {
  isLatexSource,
  sampleConversions,
  sampleLines,
  sampleSources,
  sha256Of,
} from "../../testing/samples.ts";
import { prepareSource, SourceRefused } from "../files/index.ts";

describe("the sample papers' source bundles", () => {
  const sources = sampleSources();

  it("are named by papers.jsonl, one line each", () => {
    const named = sampleLines()
      .map((l) => l.source)
      .filter((s) => s !== undefined)
      .sort();
    expect(named).toEqual(sources.map((s) => `sources/${s.name}.zip`).sort());
    expect(sources.length).toBeGreaterThanOrEqual(2);
  });

  it.each(sources.map((s) => [s.name, s] as const))(
    "%s: the committed archive is its folder packed (npm run samples:convert)",
    (_name, source) => {
      const packed = stableZip(folderEntries(source.folder));
      expect(sha256Of(new Uint8Array(readFileSync(source.archive)))).toBe(sha256Of(packed));
    },
  );

  it("include one from LaTeX, loaded from its saved conversion: same text, the figures it shows, the sources kept", async () => {
    const latex = sources.filter((s) => isLatexSource(folderEntries(s.folder)));
    expect(latex.length).toBeGreaterThanOrEqual(1);
    for (const source of latex) {
      const archive = new Uint8Array(readFileSync(source.archive));
      const saved = await sampleConversions(sha256Of(archive));
      expect(saved, `${source.name} has no saved conversion of its archive`).not.toBeNull();
      const prepared = await prepareSource(archive, { saved: sampleConversions });
      // Not converted: a saved conversion takes no time.
      expect(prepared.convertMs).toBe(0);
      expect(prepared.kind).toBe("latex");
      expect(prepared.body).toBe(saved?.body);
      const roles = prepared.files.map((f) => [f.name, f.role]);
      expect(roles.filter(([, role]) => role === "figure").length).toBeGreaterThanOrEqual(2);
      expect(roles).toContainEqual(["main.tex", "source"]);
    }
  });

  it("need no converter only on a hit: another archive, or another main file, without one is refused as LaTeX this server cannot convert", async () => {
    const [source] = sources.filter((s) => isLatexSource(folderEntries(s.folder)));
    if (!source) throw new Error("no LaTeX sample");
    const archive = new Uint8Array(readFileSync(source.archive));
    const misses = [
      prepareSource(archive, { saved: async () => null }),
      prepareSource(archive, { main: "other.tex", saved: sampleConversions }),
    ];
    for (const miss of misses) {
      const error = await miss.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SourceRefused);
      expect((error as SourceRefused).refusal).toEqual({ code: "latex_unavailable" });
    }
  });
});
