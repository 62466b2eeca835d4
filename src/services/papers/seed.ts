/** @module seedSamplePapers: the sample papers, loaded when the archive is empty. */
import { createReadStream } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { papers } from "../../db/schema/index.ts";
import { fromRoot } from "../../paths.ts";
import type { ServiceContext } from "../context.ts";
import { bundleReader, savedConversions } from "../files/index.ts";
import { type ImportSummary, importPapers } from "./import.ts";

const SAMPLE_PAPERS_FILE = fromRoot("samples/papers.jsonl");
/** The LaTeX samples' conversions, made by `npm run samples:convert` and committed. */
const SAMPLE_CONVERSIONS = fromRoot("samples/converted");

/** Loads the samples only into an archive that has never had a paper (of any status). */
export async function seedSamplePapers(ctx: ServiceContext): Promise<ImportSummary | null> {
  const [any] = await ctx.db.select({ id: papers.id }).from(papers).limit(1);
  if (any) return null;
  const lines = createInterface({
    input: createReadStream(SAMPLE_PAPERS_FILE),
    crlfDelay: Infinity,
  });
  // Sample papers with figures name their bundles beside the file (samples/sources/). The
  // LaTeX one is loaded from its saved conversion, so a machine without LaTeXML seeds it too,
  // and no start converts anything; it keeps its sources as a converted import does.
  return importPapers(ctx, lines, () => {}, {
    readSource: bundleReader(dirname(SAMPLE_PAPERS_FILE)),
    savedConversions: savedConversions(SAMPLE_CONVERSIONS),
  });
}
