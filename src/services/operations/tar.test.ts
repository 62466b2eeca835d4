/** @module The backup archive's tar: what is written reads back; truncation and damage are errors. */
import { describe, expect, it } from "vitest";
import { readTar, writeTar } from "./tar.ts";

const entries = [
  { name: "quire-backup.json", data: Buffer.from('{"format":"quire-backup/1"}\n') },
  { name: "pgdata.tar.gz", data: Buffer.alloc(1500, 7) },
  { name: "empty", data: Buffer.alloc(0) },
];

describe("tar", () => {
  it("reads back what it wrote, in 512-byte blocks", () => {
    const archive = writeTar(entries, new Date("2026-11-22T00:00:00Z"));
    expect(archive.length % 512).toBe(0);
    const read = readTar(archive);
    expect(read.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    for (const [i, e] of read.entries()) expect(Buffer.from(e.data)).toEqual(entries[i]?.data);
  });

  it("refuses a truncated archive and a damaged header", () => {
    const archive = writeTar(entries);
    expect(() => readTar(archive.subarray(0, 1024))).toThrow(/truncated/);
    expect(() => readTar(archive.subarray(0, archive.length - 1024))).toThrow(/truncated/);
    const damaged = Buffer.from(archive);
    damaged[10] = 0x41;
    expect(() => readTar(damaged)).toThrow(/damaged/);
  });
});
