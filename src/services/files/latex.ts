/**
 * @module LaTeX to HTML by LaTeXML (`latexmlc`, arXiv's converter) inside a bubblewrap sandbox:
 * a fresh mount namespace with only `/usr` (read-only) and the unpacked bundle, no network,
 * no other process, no environment, under a time, memory and file-size limit (ADR 0046).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { refuseSource, type SourceRefusal, SourceRefused } from "./refusal.ts";
import type { Bundle } from "./unpack.ts";

const LATEXMLC = "/usr/bin/latexmlc";
const BWRAP = "/usr/bin/bwrap";
const PRLIMIT = "/usr/bin/prlimit";

/** How to install what LaTeX conversion needs (said on the submit page and by /readyz). */
export const LATEX_HOWTO = "install the Debian packages latexml and bubblewrap";

/** Bounds of one conversion besides its time. */
const LATEX_LIMITS = {
  /** Address space of the converter, bytes. */
  memoryBytes: 2 * 1024 * 1024 * 1024,
  /** Largest file the converter may write, bytes. */
  fileBytes: 100 * 1024 * 1024,
} as const;

/** Whether this machine can convert LaTeX: LaTeXML, bubblewrap and prlimit are installed. */
function latexAvailable(): boolean {
  return existsSync(LATEXMLC) && existsSync(BWRAP) && existsSync(PRLIMIT);
}

/**
 * The LaTeX converter a server found at start-up (ServiceContext.latex). Without one, LaTeX
 * bundles are refused and Markdown bundles still work; /readyz and the submit page say so.
 */
export interface LatexConverter {
  /** Seconds one conversion may take before it is stopped and the bundle refused. */
  readonly timeoutSeconds: number;
  convert(bundle: Bundle, main: string): Promise<LatexOutput>;
}

/**
 * LaTeXML in its sandbox when this machine has it (Debian latexml, bubblewrap and prlimit),
 * else null, as Apertium is found for cross-lingual search. `timeoutSeconds` bounds each
 * conversion (LATEX_TIMEOUT_SECONDS).
 */
export function findLatexml(options: { timeoutSeconds: number }): LatexConverter | null {
  if (!latexAvailable()) return null;
  const { timeoutSeconds } = options;
  return { timeoutSeconds, convert: (bundle, main) => convertLatex(bundle, main, timeoutSeconds) };
}

interface LatexOutput {
  /** LaTeXML's HTML5 with presentation MathML and TeX annotations. */
  html: string;
  /** Files of the bundle after conversion (LaTeXML may add converted images). */
  files: Bundle;
  /** Converter messages worth showing (missing macros and the like). */
  warnings: string[];
  /** Milliseconds the sandboxed conversion took. */
  ms: number;
}

/**
 * The main file: the one named, else `main.tex`/`ms.tex`/`paper.tex`, else the only `.tex`
 * with `\documentclass`. Several candidates and none named is refused with their names.
 */
export function findMainTex(bundle: Bundle, named?: string): string {
  if (named) {
    if (!bundle.has(named)) {
      refuse(
        { code: "main_missing", path: named },
        `the main file "${named}" is not in the bundle`,
      );
    }
    return named;
  }
  const roots = [...bundle.keys()].filter(
    (p) => p.toLowerCase().endsWith(".tex") && /\\documentclass/.test(decode(bundle.get(p))),
  );
  if (roots.length === 1 && roots[0]) return roots[0];
  for (const name of ["main.tex", "ms.tex", "paper.tex"]) if (roots.includes(name)) return name;
  if (roots.length === 0)
    refuse({ code: "no_main" }, "no .tex file in the bundle has \\documentclass");
  refuse(
    { code: "several_main", paths: roots },
    `several .tex files have \\documentclass (${roots.join(", ")}); name the main one`,
  );
}

function decode(bytes: Uint8Array | undefined): string {
  return bytes ? new TextDecoder().decode(bytes) : "";
}

const LATEX_LEAD = "The LaTeX source was refused";

function refuse(refusal: SourceRefusal, message: string): never {
  refuseSource(refusal, message, LATEX_LEAD);
}

/**
 * Converts the bundle once, at submission. The sandbox sees `/usr` read-only (the converter
 * and its Perl), the bundle at `/work` (read-write: LaTeXML writes its output and cache
 * there), an empty `/tmp`, and nothing else — no `/etc`, no `/home`, no network, no other
 * process — so `\input{/etc/passwd}` finds no file and the converter's own fetches have no
 * network. LaTeXML has no shell escape (`\write18` is ignored). A bundle it cannot convert, a
 * missing file, a timeout or the memory limit refuse the submission with the converter's
 * message (SourceRefused, a client's input: never a server fault).
 */
async function convertLatex(bundle: Bundle, main: string, seconds: number): Promise<LatexOutput> {
  const dir = await mkdtemp(join(tmpdir(), "quire-latex-"));
  try {
    for (const [path, bytes] of bundle) {
      await mkdir(join(dir, dirname(path)), { recursive: true });
      await writeFile(join(dir, path), bytes);
    }
    const started = performance.now();
    const { code, output } = await runSandboxed(dir, seconds, [
      LATEXMLC,
      "--format=html5",
      "--pmml",
      "--mathtex",
      "--nodefaultresources",
      "--nocomments",
      `--timeout=${seconds}`,
      "--dest=/work/.quire-out/index.html",
      "--log=/work/.quire-out/latexml.log",
      `/work/${main}`,
    ]);
    const ms = performance.now() - started;
    const errors = output.split("\n").filter((l) => /^(Error|Fatal):/.test(l));
    const html = await readFile(join(dir, ".quire-out", "index.html"), "utf8").catch(() => null);
    const missing = errors.filter((l) => l.startsWith("Error:missing_file"));
    if (code !== 0 || html === null || missing.length > 0) {
      const timeout =
        code === 137 || code === 124 || errors.some((l) => l.startsWith("Fatal:timeout"));
      const why = timeout ? `the conversion took longer than ${seconds} s and was stopped` : "";
      const lines = (missing.length > 0 ? missing : errors).slice(0, 5).map(tidy);
      const detail = lines.join("; ") || `the converter stopped (exit ${code})`;
      refuse(
        { code: "converter", timeout, seconds, detail },
        [why, detail].filter(Boolean).join("; "),
      );
    }
    return {
      html,
      files: await readTree(join(dir, ".quire-out")),
      warnings: errors.slice(0, 10).map(tidy),
      ms,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A converter message without the sandbox's paths. */
function tidy(line: string): string {
  return line.replaceAll("/work/", "").replace(/\s+/g, " ").trim().slice(0, 300);
}

async function readTree(root: string): Promise<Bundle> {
  const out: Bundle = new Map();
  const walk = async (rel: string) => {
    for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && (await stat(join(root, path))).size <= LATEX_LIMITS.fileBytes) {
        out.set(path, await readFile(join(root, path)));
      }
    }
  };
  await walk("");
  return out;
}

/** The bubblewrap command line: what the converter can see, and nothing else. */
export function sandboxArgs(dir: string, command: string[]): string[] {
  return [
    `--as=${LATEX_LIMITS.memoryBytes}`,
    `--fsize=${LATEX_LIMITS.fileBytes}`,
    "--nofile=256",
    BWRAP,
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    "--setenv",
    "PATH",
    "/usr/bin",
    "--setenv",
    "HOME",
    "/tmp",
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--symlink",
    "usr/bin",
    "/bin",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--bind",
    dir,
    "/work",
    "--chdir",
    "/work",
    "--",
    ...command,
  ];
}

/** Runs a command in the sandbox with `dir` as `/work`; never throws for the command's failure. */
export function runSandboxed(
  dir: string,
  seconds: number,
  command: string[],
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      PRLIMIT,
      sandboxArgs(dir, command),
      {
        // LaTeXML stops itself at `seconds` (--timeout); this is the backstop.
        timeout: seconds * 1000 + 5000,
        killSignal: "SIGKILL",
        maxBuffer: 4 * 1024 * 1024,
        env: {},
      },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        if (error && typeof error.code !== "number" && !error.killed) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") {
            const message = `the LaTeX converter is not installed: ${LATEX_HOWTO}`;
            reject(new SourceRefused({ code: "latex_unavailable" }, message, LATEX_LEAD));
            return;
          }
        }
        const code = error
          ? error.killed
            ? 137
            : typeof error.code === "number"
              ? error.code
              : 1
          : 0;
        resolve({ code, output });
      },
    );
  });
}
