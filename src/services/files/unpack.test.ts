import { describe, expect, it } from "vitest";
import { makeTarGz, makeZip } from "../../testing/bundles.ts";
import { Invalid } from "../errors.ts";
import { BUNDLE_LIMITS } from "./limits.ts";
import { safePath, unpackBundle } from "./unpack.ts";

async function refusal(bytes: Uint8Array | Promise<Uint8Array>): Promise<string> {
  try {
    await unpackBundle(await bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(Invalid);
    return (error as Invalid).message;
  }
  throw new Error("the bundle was accepted");
}

const MB = 1024 * 1024;

describe("unpackBundle", () => {
  it("unpacks a zip and a tar.gz to the same files, leaving build litter out", async () => {
    const entries = {
      "main.tex": "\\documentclass{article}",
      "figs/a.png": "png",
      "main.aux": "x",
    };
    for (const archive of [makeZip(entries), await makeTarGz(entries)]) {
      const bundle = await unpackBundle(archive);
      expect([...bundle.keys()].sort()).toEqual(["figs/a.png", "main.tex"]);
      expect(new TextDecoder().decode(bundle.get("main.tex"))).toBe("\\documentclass{article}");
    }
  });

  it("refuses what is not a zip or a tar.gz", async () => {
    expect(await refusal(new TextEncoder().encode("plain text"))).toMatch(
      /neither a \.zip nor a \.tar\.gz/,
    );
    expect(await refusal(Uint8Array.from([0x1f, 0x8b, 1, 2, 3]))).toMatch(/gzip/);
  });

  it("stops a zip bomb at the per-file bound, whatever the archive declares", async () => {
    // 11 MiB of zeros compress to a few KiB.
    const bomb = makeZip({ "zeros.csv": new Uint8Array(BUNDLE_LIMITS.fileMax + MB) });
    expect(bomb.byteLength).toBeLessThan(100 * 1024);
    expect(await refusal(bomb)).toMatch(/"zeros\.csv" is larger than/);
    const tarBomb = makeTarGz({ "zeros.csv": new Uint8Array(BUNDLE_LIMITS.fileMax + MB) });
    expect(await refusal(tarBomb)).toMatch(/"zeros\.csv" is larger than/);
  });

  it("stops many files at the total bound", async () => {
    const entries = Object.fromEntries(
      Array.from({ length: 7 }, (_, i) => [`part${i}.csv`, new Uint8Array(9 * MB)]),
    );
    expect(await refusal(makeZip(entries))).toMatch(/its files are larger than/);
  });

  it("refuses more entries than the bound", async () => {
    const entries = Object.fromEntries(
      Array.from({ length: BUNDLE_LIMITS.entriesMax + 1 }, (_, i) => [`f${i}.txt`, "x"]),
    );
    expect(await refusal(makeZip(entries))).toMatch(/more than 300 entries/);
  });

  it("refuses path traversal, absolute paths and links", async () => {
    expect(await refusal(makeZip({ "../evil.tex": "x" }))).toMatch(/leaves the bundle/);
    expect(await refusal(makeZip({ "a/../../evil.tex": "x" }))).toMatch(/leaves the bundle/);
    expect(await refusal(makeTarGz({ "/etc/evil.tex": "x" }))).toMatch(/is absolute/);
    expect(
      await refusal(makeTarGz([{ name: "passwd.tex", type: "symlink", linkname: "/etc/passwd" }])),
    ).toMatch(/is a symlink/);
    expect(
      await refusal(makeTarGz([{ name: "h.tex", type: "link", linkname: "../../etc/passwd" }])),
    ).toMatch(/is a link/);
    expect(await refusal(makeZip({ "a\\..\\b.tex": "x" }))).toMatch(/forbidden character/);
  });

  it("refuses a name given twice", async () => {
    expect(
      await refusal(
        makeTarGz([
          { name: "a.tex", content: "1" },
          { name: "./a.tex", content: "2" },
        ]),
      ),
    ).toMatch(/appears twice/);
  });
});

describe("safePath", () => {
  it("normalizes harmless spellings", () => {
    expect(safePath("./figs//a.png")).toBe("figs/a.png");
  });
});
