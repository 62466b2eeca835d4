/**
 * @module Query translation for cross-lingual search: long-lived Apertium pipelines (en↔es)
 * fed one query at a time in null-flush mode.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

/** Languages search analyses and translates between. */
const SEARCH_LANGUAGES = ["en", "es"] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

/** Apertium's names of the two directions. */
const MODES: Record<`${SearchLanguage}-${SearchLanguage}`, string | undefined> = {
  "en-es": "eng-spa",
  "es-en": "spa-eng",
  "en-en": undefined,
  "es-es": undefined,
};

/** How to turn cross-lingual search on, for /readyz, /llms.txt and the log. */
export const CROSS_LINGUAL_HOWTO =
  "install Apertium's English-Spanish pair: `apt install apertium-en-es` (Debian, Ubuntu), " +
  "`brew install apertium` plus the eng-spa pair on macOS, or your distribution's apertium " +
  "and apertium-eng-spa packages; then restart Quire";

interface TranslatorStatus {
  status: "ok" | "failing";
  pairs: string[];
  /** Translations that failed or timed out since the last success. */
  consecutive_failures: number;
}

export interface Translator {
  /** `from`→`to` translation of `text`; null when it failed or took too long (search goes on without it). */
  translate(text: string, from: SearchLanguage, to: SearchLanguage): Promise<string | null>;
  /**
   * Every translation the bilingual dictionary offers for each content word of `text`
   * (`from`→`to`), one list per source word in text order, words it does not know as
   * themselves; null when it failed or took too long. Optional: a translator without a
   * dictionary stage leaves it out, and search uses `translate` alone.
   */
  senses?(text: string, from: SearchLanguage, to: SearchLanguage): Promise<Sense[] | null>;
  status(): TranslatorStatus;
  /** Starts the pipelines now (they load in about a second) so the first search does not wait. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** One source word's dictionary translations (`unknown`: the dictionary has none). */
interface Sense {
  source: string;
  translations: string[];
  unknown: boolean;
}

export interface ApertiumOptions {
  /** The PATH to look for `apertium` in (default: this process's). */
  path?: string;
  /** A translation slower than this is abandoned and its pipeline restarted. */
  timeoutMs?: number;
}

/** The sentence end sent after every query, and how it comes back. */
const END = ".";
const END_OF_ANSWER = /\s*\.$/;

/** Characters of Apertium's stream format (and controls): never sent, replaced by spaces. */
const STREAM_SYNTAX = /[\p{Cc}^$@*/\\<>[\]{}#~|]+/gu;

/**
 * Finds Apertium with both directions of the en–es pair and returns a translator that keeps
 * one pipeline per direction alive for the life of the process (and, started on first use,
 * one per direction cut after the bilingual lookup, for `senses`), or null when Apertium or the
 * pair is missing. Each pipeline is the pair's mode in null-flush form
 * (`apertium-wblank-mode -z`), every stage unbuffered (`stdbuf -o0`: lttoolbox 3.7's
 * bilingual lookup does not flush on `\0` by itself), so a query written with a trailing
 * `\0` comes back as one `\0`-terminated answer in milliseconds, with no process started per
 * query. Nothing is run until the first translation (or `warm()`): finding it only looks at
 * files, so a server pays nothing for it before it listens.
 */
export function findApertium(options: ApertiumOptions = {}): Translator | null {
  const path = options.path ?? process.env.PATH ?? "";
  const apertium = which("apertium", path);
  const wblank = which("apertium-wblank-mode", path);
  const stdbuf = which("stdbuf", path);
  if (!apertium || !wblank || !stdbuf) return null;
  const modesDir = join(dirname(dirname(realpathSync(apertium))), "share", "apertium", "modes");
  const scripts = new Map<string, () => string>();
  const senseScripts = new Map<string, () => string>();
  for (const [pair, mode] of Object.entries(MODES)) {
    if (!mode) continue;
    const file = join(modesDir, `${mode}.mode`);
    if (!existsSync(file)) return null;
    // Resolved when the pipeline first starts (warm() or the first search), not here: it
    // runs a process, and a server finds Apertium before it listens.
    const stages = () => {
      const pipeline = execFileSync(wblank, ["-z", file], {
        encoding: "utf8",
        env: { PATH: path },
        timeout: 10_000,
      }).trim();
      if (pipeline === "") throw new Error(`apertium-wblank-mode printed nothing for ${file}`);
      // Each stage of `a | b | c` runs unbuffered; the mode's $1/$2 are lt-proc's and the
      // tagger's options: -n (no unknown-word marks), none.
      return pipeline.split(" | ").map((stage) => `${stdbuf} -o0 ${stage}`);
    };
    scripts.set(pair, () => stages().join(" | "));
    // The same pipeline cut after its bilingual lookup (`lt-proc -b`): each tagged source
    // word with every translation the dictionary has for it, before lexical selection and
    // transfer pick one.
    senseScripts.set(pair, () => {
      const all = stages();
      const bilingual = all.findIndex((stage) => / -b /.test(stage) && /lt-proc/.test(stage));
      if (bilingual < 0) throw new Error(`no bilingual lookup stage in ${file}`);
      return all.slice(0, bilingual + 1).join(" | ");
    });
  }
  const timeoutMs = options.timeoutMs ?? 3000;
  const pipes = new Map(
    [...scripts].map(([pair, script]) => [pair, new Pipeline(script, path, timeoutMs)]),
  );
  const sensePipes = new Map(
    [...senseScripts].map(([pair, script]) => [pair, new Pipeline(script, path, timeoutMs)]),
  );
  let failures = 0;
  /**
   * `text` through one of `from`→`to`'s pipelines, its output read by `parse`; null when the
   * pair has no such pipeline, the text is empty once stream syntax is taken out, or the
   * pipeline failed or took too long (counted in `status`).
   */
  const run = async <T>(
    through: Map<string, Pipeline>,
    text: string,
    from: SearchLanguage,
    to: SearchLanguage,
    parse: (out: string) => T,
  ): Promise<T | null> => {
    const pipe = through.get(`${from}-${to}`);
    const clean = text.replace(STREAM_SYNTAX, " ").replace(/\s+/g, " ").trim();
    if (!pipe || clean === "") return null;
    try {
      // In null-flush mode the pipeline drops the tail of the last word unless a
      // punctuation token follows it ("modelos 3D y 2D" came back as "Models 3D and 2"):
      // a full stop is sent after the query (and taken off a translation).
      const out = parse(await pipe.translate(`${clean} ${END}`));
      failures = 0;
      return out;
    } catch {
      failures++;
      return null;
    }
  };
  return {
    async translate(text, from, to) {
      const out = await run(pipes, text, from, to, (answer) =>
        answer.replace(/\s+/g, " ").trim().replace(END_OF_ANSWER, ""),
      );
      return out === "" ? null : out;
    },
    senses: (text, from, to) => run(sensePipes, text, from, to, parseSenses),
    status: () => ({
      status: failures === 0 ? "ok" : "failing",
      pairs: [...pipes.keys()],
      consecutive_failures: failures,
    }),
    async warm() {
      await Promise.all([
        this.translate("search", "en", "es"),
        this.translate("búsqueda", "es", "en"),
        this.senses?.("búsqueda", "es", "en"),
      ]);
    },
    async close() {
      await Promise.all([...pipes.values(), ...sensePipes.values()].map((p) => p.close()));
    },
  };
}

/** Source parts of speech whose words carry a query's meaning (not prepositions, articles …). */
const CONTENT_TAGS = new Set(["n", "np", "adj", "vblex", "vbmod", "adv", "num"]);

/**
 * The content words of an Apertium bilingual-lookup stream (`^src<tags>/tr1<tags>/tr2<tags>$`
 * units), each with its distinct translation lemmas; unknown words (`^*word/*word$`) as
 * themselves.
 */
function parseSenses(stream: string): Sense[] {
  const senses: Sense[] = [];
  for (const match of stream.matchAll(/\^((?:\\.|[^$\\])*)\$/g)) {
    const parts = match[1]!.split(/(?<!\\)\//);
    const source = parts[0] ?? "";
    if (source.startsWith("*")) {
      const word = source.slice(1).replace(/\\/g, "");
      if (/\p{L}/u.test(word)) senses.push({ source: word, translations: [word], unknown: true });
      continue;
    }
    const tag = /<([^>]+)>/.exec(source)?.[1];
    if (!tag || !CONTENT_TAGS.has(tag)) continue;
    const translations = [
      ...new Set(
        parts
          .slice(1)
          .map((t) =>
            t
              .replace(/<[^>]*>/g, "")
              .replace(/[#\\]/g, "")
              .replace(/[+_]/g, " ")
              .trim(),
          )
          .filter((t) => t !== "" && !t.startsWith("@")),
      ),
    ];
    if (translations.length > 0) {
      senses.push({ source: source.replace(/<.*$/, ""), translations, unknown: false });
    }
  }
  return senses;
}

function which(command: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

const START_GRACE_MS = 15_000;

interface Pending {
  resolve: (text: string) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One long-lived pipeline. Answers come back in the order queries went in, so replies are
 * matched to a FIFO of pending calls. A timeout or an exit fails whatever is pending and
 * drops the process (by its own pid); the next call starts a fresh one.
 */
class Pipeline {
  private child: ChildProcess | null = null;
  private pending: Pending[] = [];
  private buffer = "";
  private closed = false;
  /** Whether the running process has answered once (its dictionaries are loaded). */
  private answered = false;
  private command: string | undefined;

  /** `script` gives the pipeline's shell command; it is asked once, at the first start. */
  constructor(
    private readonly script: () => string,
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {}

  translate(text: string): Promise<string> {
    if (this.closed) return Promise.reject(new Error("translator closed"));
    // A fresh pipeline loads its dictionaries first (about a second, more on a busy host):
    // every query until its first answer gets the grace, not only the one that starts it (a
    // search arriving while warm() is loading would otherwise time out behind it).
    const allowed = this.timeoutMs + (this.child && this.answered ? 0 : START_GRACE_MS);
    const child = this.child ?? this.start();
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error("translation timed out")), allowed);
      this.pending.push({ resolve, reject, timer });
      child.stdin?.write(`${text}\0`);
    });
  }

  private start(): ChildProcess {
    this.command ??= this.script();
    const child = spawn("bash", ["-c", this.command, "apertium", "-n", ""], {
      env: { PATH: this.path, LC_ALL: "C.UTF-8" },
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.child = child;
    this.answered = false;
    this.buffer = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (data: string) => {
      this.buffer += data;
      let end = this.buffer.indexOf("\0");
      while (end >= 0) {
        const answer = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        const next = this.pending.shift();
        this.answered = true;
        if (next) {
          clearTimeout(next.timer);
          next.resolve(answer);
        }
        end = this.buffer.indexOf("\0");
      }
    });
    child.stdin?.on("error", () => {});
    child.on("error", () => this.fail(new Error("apertium could not start"), child));
    child.on("exit", () => this.fail(new Error("apertium exited"), child));
    return child;
  }

  private fail(error: Error, which: ChildProcess | null = this.child): void {
    if (which !== this.child) return;
    const child = this.child;
    this.child = null;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    if (child && child.exitCode === null && child.pid) {
      // The pipeline is bash's process group of stages: end bash; its stages see EOF.
      child.stdin?.end();
      child.kill();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    this.fail(new Error("translator closed"));
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
  }
}
