/**
 * @module `npm run samples:convert`: rebuilds what the sample papers with a source bundle are
 * seeded from. Each folder of samples/sources/ is packed into the archive papers.jsonl names
 * (`samples/sources/<name>.zip`, the same bytes for the same files); a LaTeX one is converted
 * by the real converter (LaTeXML in its sandbox, so this needs the Debian packages latexml and
 * bubblewrap) into samples/converted/<name>/, which the seeder reads instead of converting.
 * Run it after changing a sample's source; samples.latex.test.ts fails while the committed
 * conversion differs from a fresh one.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { fromRoot } from "../src/paths.ts";
import {
  convertLatexSource,
  findLatexml,
  LATEX_HOWTO,
  saveConversion,
} from "../src/services/files/index.ts";
import { folderEntries, stableZip } from "../src/testing/bundles.ts";

const SOURCES = fromRoot("samples/sources");
const CONVERTED = fromRoot("samples/converted");

function converterVersion(): string {
  // latexmlc says its version on stderr.
  const run = spawnSync("/usr/bin/latexmlc", ["--VERSION"], { encoding: "utf8" });
  const out = `${run.stdout}${run.stderr}`;
  const version = /LaTeXML version ([\w.-]+)/.exec(out)?.[1];
  return version ? `LaTeXML ${version}` : "LaTeXML";
}

// The converter as a server finds it at start-up; only its own setting applies here.
const { LATEX_TIMEOUT_SECONDS } = loadConfig({
  LATEX_TIMEOUT_SECONDS: process.env.LATEX_TIMEOUT_SECONDS,
});
const converter = findLatexml({ timeoutSeconds: LATEX_TIMEOUT_SECONDS });

const names = readdirSync(SOURCES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
mkdirSync(CONVERTED, { recursive: true });
const latex = new Set<string>();
for (const name of names) {
  const entries = folderEntries(join(SOURCES, name));
  const archive = stableZip(entries);
  writeFileSync(join(SOURCES, `${name}.zip`), archive);
  console.log(`packed samples/sources/${name}.zip (${archive.byteLength} bytes)`);
  const isLatex = Object.entries(entries).some(
    ([path, bytes]) =>
      path.endsWith(".tex") && /\\documentclass/.test(Buffer.from(bytes).toString("utf8")),
  );
  if (!isLatex) continue;
  latex.add(name);
  if (!converter) {
    throw new Error(`converting ${name} needs LaTeXML: ${LATEX_HOWTO}`);
  }
  const conversion = await convertLatexSource(archive, { latex: converter });
  await saveConversion(
    join(CONVERTED, name),
    {
      archive: `sources/${name}.zip`,
      archiveSha256: createHash("sha256").update(archive).digest("hex"),
      converter: converterVersion(),
    },
    conversion,
  );
  console.log(
    `converted ${name} in ${(conversion.convertMs / 1000).toFixed(1)} s: ${conversion.figures.length} figures, ${conversion.warnings.length} warnings`,
  );
  for (const warning of conversion.warnings) console.log(`  ${warning}`);
}
// A conversion whose source is gone goes too.
for (const entry of readdirSync(CONVERTED, { withFileTypes: true })) {
  if (entry.isDirectory() && !latex.has(entry.name)) {
    rmSync(join(CONVERTED, entry.name), { recursive: true, force: true });
    console.log(`removed samples/converted/${entry.name}`);
  }
}
