/**
 * The LaTeX sample papers' committed conversions (samples/converted/, which `npm start` seeds
 * from) are what the real converter makes of their committed bundles today. Needs LaTeXML and
 * bubblewrap, like every `*.latex.test.ts`. Nothing is normalized but the conversion time:
 * the Markdown leaves out LaTeXML's dated page footer, and figures are re-encoded without
 * metadata, so two conversions of one archive give the same text and the same bytes.
 * When this fails after a change to a sample, `npm run samples:convert` rewrites them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { folderEntries } from "../../testing/bundles.ts";
import {
  isLatexSource,
  sampleConversions,
  sampleSources,
  sha256Of,
} from "../../testing/samples.ts";
import { convertLatexSource, findLatexml } from "./index.ts";

/** The converter as a server with the default LATEX_TIMEOUT_SECONDS finds it. */
const converter = findLatexml({ timeoutSeconds: loadConfig({}).LATEX_TIMEOUT_SECONDS });

const latex = sampleSources().filter((s) => isLatexSource(folderEntries(s.folder)));

describe("the LaTeX sample papers", () => {
  it("are there", () => {
    expect(latex.length).toBeGreaterThanOrEqual(1);
  });

  it.each(latex.map((s) => [s.name, s] as const))(
    "%s: the committed conversion is a fresh conversion of the committed archive (else: npm run samples:convert)",
    async (_name, source) => {
      const archive = new Uint8Array(readFileSync(source.archive));
      const saved = await sampleConversions(sha256Of(archive));
      expect(saved, "no saved conversion of this archive").not.toBeNull();
      if (!converter) throw new Error("LaTeXML, bubblewrap and prlimit are not installed");
      const fresh = await convertLatexSource(archive, { latex: converter });
      const comparable = (c: typeof fresh) => ({
        main: c.main,
        title: c.title,
        abstract: c.abstract,
        body: c.body,
        warnings: c.warnings,
        figures: c.figures.map((f) => ({ name: f.name, mediaType: f.mediaType, sha256: f.sha256 })),
      });
      expect(comparable(saved as typeof fresh)).toEqual(comparable(fresh));
    },
    120_000,
  );
});
