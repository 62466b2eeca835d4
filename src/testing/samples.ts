/** @module The committed sample papers as tests read them: papers.jsonl, the source bundles and the saved conversions. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../paths.ts";
import { savedConversions } from "../services/files/index.ts";
import type { Entries } from "./bundles.ts";

const SAMPLES = fromRoot("samples");

/** One line of samples/papers.jsonl (the fields tests look at). */
export interface SampleLine {
  title?: string;
  abstract?: string;
  source?: string;
}

export function sampleLines(): SampleLine[] {
  return readFileSync(join(SAMPLES, "papers.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SampleLine);
}

/** The source folders of samples/sources/, each with the archive packed from it. */
export function sampleSources(): { name: string; folder: string; archive: string }[] {
  const root = join(SAMPLES, "sources");
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({
      name: e.name,
      folder: join(root, e.name),
      archive: join(root, `${e.name}.zip`),
    }));
}

/** Whether bundle entries hold a LaTeX paper (a `.tex` file with `\documentclass`). */
export function isLatexSource(entries: Entries): boolean {
  return Object.entries(entries).some(
    ([path, content]) =>
      path.endsWith(".tex") && /\\documentclass/.test(Buffer.from(content).toString("utf8")),
  );
}

/** The committed conversions (samples/converted/), as the seeder reads them. */
export const sampleConversions = savedConversions(join(SAMPLES, "converted"));

export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Every sample's title: the line's own, or for a LaTeX bundle without one, its `\title`. */
export async function sampleTitles(): Promise<string[]> {
  const titles: string[] = [];
  for (const line of sampleLines()) {
    if (line.title !== undefined || line.source === undefined) {
      titles.push(line.title ?? "");
      continue;
    }
    const archive = new Uint8Array(readFileSync(join(SAMPLES, line.source)));
    const saved = await sampleConversions(sha256Of(archive));
    if (!saved) throw new Error(`no saved conversion of ${line.source}`);
    titles.push(saved.title);
  }
  return titles;
}
