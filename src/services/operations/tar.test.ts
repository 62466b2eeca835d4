/** @module The backups' tar: a directory tree round-trips through tar.gz; truncation, damage and escaping names are errors. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import {
  extractTarGz,
  listArchive,
  readRange,
  sha256Range,
  tarGzDirectory,
  writeArchive,
} from "./tar.ts";

const root = mkdtempSync(join(tmpdir(), "quire-tar-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(): string {
  const dir = join(root, "tree");
  mkdirSync(join(dir, "base", "5"), { recursive: true });
  mkdirSync(join(dir, "pg_tblspc"));
  writeFileSync(join(dir, "PG_VERSION"), "18\n");
  writeFileSync(join(dir, "empty"), "");
  writeFileSync(
    join(dir, "base", "5", "1259"),
    Buffer.alloc(200_000).map((_, i) => i % 256),
  );
  return dir;
}

describe("tar", () => {
  it("round-trips a directory tree, empty directories and files included", async () => {
    const dir = tree();
    const file = join(root, "tree.tar.gz");
    const packed = await tarGzDirectory(dir, file);
    expect(packed.bytes).toBe(statSync(file).size);
    expect(await sha256Range(file, { offset: 0, size: packed.bytes })).toBe(packed.sha256);
    const out = join(root, "out");
    await extractTarGz(file, { offset: 0, size: packed.bytes }, out);
    expect(statSync(join(out, "pg_tblspc")).isDirectory()).toBe(true);
    expect(readFileSync(join(out, "empty")).length).toBe(0);
    expect(readFileSync(join(out, "base", "5", "1259"))).toEqual(
      readFileSync(join(dir, "base", "5", "1259")),
    );

    const archive = join(root, "outer.tar");
    await writeArchive(archive, [
      { name: "manifest.json", data: Buffer.from("{}\n") },
      { name: "data.tar.gz", path: file },
    ]);
    const entries = listArchive(archive);
    expect(entries.map((e) => e.name)).toEqual(["manifest.json", "data.tar.gz"]);
    expect(readRange(archive, entries[0]!).toString()).toBe("{}\n");
    expect(await sha256Range(archive, entries[1]!)).toBe(packed.sha256);
  });

  it("refuses a truncated archive, a damaged header and a name that escapes", async () => {
    const archive = join(root, "outer.tar");
    const bytes = readFileSync(archive);
    writeFileSync(join(root, "short.tar"), bytes.subarray(0, 700));
    expect(() => listArchive(join(root, "short.tar"))).toThrow(/truncated/);
    const damaged = Buffer.from(bytes);
    damaged[10] = 0x41;
    writeFileSync(join(root, "damaged.tar"), damaged);
    expect(() => listArchive(join(root, "damaged.tar"))).toThrow(/damaged/);

    // A hand-made tar.gz whose only entry is named ../escaped.
    const evil = join(root, "evil");
    mkdirSync(evil);
    writeFileSync(join(evil, "x"), "x");
    await tarGzDirectory(evil, join(root, "evil.tar.gz"));
    const { gunzipSync } = await import("node:zlib");
    const raw = gunzipSync(readFileSync(join(root, "evil.tar.gz")));
    raw.write("../escaped\0", 0, "utf8");
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (raw[i] ?? 0);
    raw.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
    const evilFile = join(root, "evil2.tar.gz");
    writeFileSync(evilFile, gzipSync(raw));
    await expect(
      extractTarGz(evilFile, { offset: 0, size: statSync(evilFile).size }, join(root, "evil-out")),
    ).rejects.toThrow(/refusing the name/);

    const cut = join(root, "cut.tar.gz");
    const whole = readFileSync(join(root, "tree.tar.gz"));
    writeFileSync(cut, whole.subarray(0, whole.length - 30));
    await expect(
      extractTarGz(cut, { offset: 0, size: statSync(cut).size }, join(root, "cut-out")),
    ).rejects.toThrow();
  });
});
