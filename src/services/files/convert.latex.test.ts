/**
 * LaTeX sources through the real LaTeXML in the real bubblewrap sandbox. These tests need the
 * Debian packages latexml and bubblewrap (.ci/run installs them) and fail without them.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { fixtureEntries, makeTarGz, makeZip } from "../../testing/bundles.ts";
import { prepareSource } from "./bundle.ts";
import { findLatexml, type LatexConverter, runSandboxed } from "./latex.ts";
import { SourceRefused } from "./refusal.ts";

/** The converter as a server with the default LATEX_TIMEOUT_SECONDS finds it. */
const found = findLatexml({ timeoutSeconds: loadConfig({}).LATEX_TIMEOUT_SECONDS });

function converter(): LatexConverter {
  if (!found) throw new Error("LaTeXML, bubblewrap and prlimit are not installed");
  return found;
}

async function refused(bundle: Uint8Array, latex = converter()): Promise<SourceRefused> {
  try {
    await prepareSource(bundle, { latex });
  } catch (error) {
    expect(error).toBeInstanceOf(SourceRefused);
    return error as SourceRefused;
  }
  throw new Error("the bundle was accepted");
}

async function refusal(bundle: Uint8Array): Promise<string> {
  return (await refused(bundle)).message;
}

const doc = (body: string) =>
  `\\documentclass{article}\n\\begin{document}\n${body}\n\\end{document}\n`;

describe("LaTeX conversion", () => {
  it("has LaTeXML, bubblewrap and prlimit on this machine", () => {
    expect(found).not.toBeNull();
  });

  it("converts the fixture paper: sections, numbered equation and its \\ref, figures, table, theorem, bibliography, footnote", async () => {
    const source = await prepareSource(makeZip(fixtureEntries("spectral")), {
      latex: converter(),
    });
    expect(source.kind).toBe("latex");
    expect(source.title).toBe("Spectral Gaps of Sparse Random Graphs Estimated by Power Iteration");
    expect(source.abstract).toMatch(/^We estimate the spectral gap/);
    const body = source.body;
    expect(body).toContain("## 1 Introduction {#section-1}");
    expect(body).toContain("## 3 Results {#section-3}");
    expect(body).toMatch(/\$\$\n\\lambda\(G\)=.*\\tag\{1\}\n\$\$/);
    expect(body).toContain("Equation ([1](#eq-1))");
    expect(body).toContain(
      "![Figure 1: Estimated gap against the number of power-iteration steps.](<figures/convergence.png>) {#figure-1}",
    );
    expect(body).toContain("{#figure-2}");
    expect(body).toContain("Figure [2](#figure-2)");
    expect(body).toMatch(
      /Table: Table 1: Estimated gaps .*\{#table-1\}\n\n\| \$d\$ \| estimate \| bound \|/,
    );
    expect(body).toMatch(/\*\*Theorem 1\.\*\* \*Let \$x_\{0\}\$/);
    expect(body).toContain("Theorem [1](#theorem-1)");
    expect(body).toContain("\\[[1](#bib-1), [2](#bib-2)\\]");
    expect(body).toMatch(/\\\[1\\\] N\. Alon\. Eigenvalues and expanders.*\{#bib-1\}/);
    expect(body).toContain("[¹](#note-1)");
    expect(body).toContain("¹ All code runs on one CPU core. {#note-1}");
    const byName = new Map(source.files.map((f) => [f.name, f]));
    expect(byName.get("figures/convergence.png")).toMatchObject({
      role: "figure",
      mediaType: "image/png",
    });
    expect(byName.get("figures/histogram.png")).toMatchObject({
      role: "figure",
      mediaType: "image/png",
    });
    expect(byName.get("main.tex")).toMatchObject({
      role: "source",
      mediaType: "application/x-tex",
    });
    expect(source.convertMs).toBeGreaterThan(0);
  }, 120_000);

  it("finds no /etc/passwd to \\input: the sandbox has no /etc, and the bundle is refused with the converter's message", async () => {
    const message = await refusal(
      await makeTarGz({
        "main.tex": doc("Hello \\input{/etc/passwd} and \\input{../../../etc/hostname}"),
      }),
    );
    expect(message).toMatch(/missing_file.*\/etc\/passwd/);
    expect(message).not.toMatch(/root:/);
  }, 120_000);

  it("runs no shell for \\write18, and the text around it converts", async () => {
    const source = await prepareSource(
      makeZip({
        "main.tex": doc("Before. \\immediate\\write18{echo owned > /work/owned.tex} After."),
      }),
      { latex: converter() },
    );
    expect(source.body).toContain("Before.");
    expect(source.body).not.toContain("owned");
    expect(source.files.map((f) => f.name)).toEqual(["main.tex"]);
  }, 120_000);

  it("stops a macro that never ends at the time limit and refuses the bundle, saying so", async () => {
    // A short limit through the converter's own option (LATEX_TIMEOUT_SECONDS on a server),
    // so the test does not wait the production minute; vitest's timeout is the "never hangs".
    const latex = findLatexml({ timeoutSeconds: 3 }) ?? converter();
    const error = await refused(
      makeZip({ "main.tex": doc("Before. \\def\\x{\\relax\\x}\\x After.") }),
      latex,
    );
    expect(error.refusal).toMatchObject({ code: "converter", timeout: true, seconds: 3 });
    expect(error.message).toMatch(/took longer than 3 s and was stopped/);
    expect(error.issues).toEqual([
      { in: "body", name: "source", message: expect.stringMatching(/took longer than 3 s/) },
    ]);
  }, 30_000);

  it("converts a macro that expands into itself, which LaTeXML catches, with its complaint", async () => {
    const latex = findLatexml({ timeoutSeconds: 3 }) ?? converter();
    const source = await prepareSource(
      makeZip({ "main.tex": doc("Before. \\def\\x{\\x}\\x After.") }),
      { latex },
    );
    expect(source.body).toContain("Before.");
    expect(source.warnings.join(" ")).toMatch(/recursion/);
  }, 30_000);

  it("refuses LaTeX, and says why, where the server has no converter", async () => {
    const error = await prepareSource(makeZip({ "main.tex": doc("Hello.") })).catch((e) => e);
    expect(error).toBeInstanceOf(SourceRefused);
    expect((error as SourceRefused).refusal).toEqual({ code: "latex_unavailable" });
  });
});

describe("the sandbox", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "quire-sandbox-test-"));
    await writeFile(join(dir, "inside.txt"), "inside");
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("sees the bundle and /usr, and no /etc, /home, /root or host process", async () => {
    expect((await runSandboxed(dir, 30, ["/usr/bin/cat", "/work/inside.txt"])).output).toContain(
      "inside",
    );
    for (const path of ["/etc/passwd", "/etc/hostname", "/root", "/home", "/var"]) {
      const run = await runSandboxed(dir, 30, ["/usr/bin/ls", path]);
      expect(run.code, path).not.toBe(0);
    }
    const ps = await runSandboxed(dir, 30, ["/usr/bin/ls", "/proc"]);
    const pids = ps.output.split(/\s+/).filter((x) => /^\d+$/.test(x));
    expect(pids.length).toBeLessThanOrEqual(3);
  });

  it("has no network", async () => {
    const run = await runSandboxed(dir, 30, [
      "/usr/bin/perl",
      "-MIO::Socket::INET",
      "-e",
      'IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => 5432, Timeout => 3) ? print "connected" : print "refused"',
    ]);
    expect(run.output).toContain("refused");
  });
});
