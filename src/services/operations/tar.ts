/** @module A small streaming POSIX (ustar) tar for backups: directories and regular files, checked headers, nothing held whole in memory. */
import { createHash } from "node:crypto";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { join, normalize, sep } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

const BLOCK = 512;
/** ustar's size field holds 11 octal digits. */
const MAX_SIZE = 8 ** 11 - 1;

export interface ArchiveEntry {
  name: string;
  /** Where the entry's data starts in the file, and its length. */
  offset: number;
  size: number;
}

/** A ustar header block: type "0" (file) or "5" (directory). */
function header(name: string, size: number, type: "0" | "5", mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  if (size > MAX_SIZE) throw new Error(`tar: ${name} is too large`);
  const h = Buffer.alloc(BLOCK);
  const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, "0")}\0`;
  h.write(name, 0, 100, "utf8");
  h.write(octal(type === "5" ? 0o700 : 0o600, 8), 100, 8, "ascii");
  h.write(octal(0, 8), 108, 8, "ascii");
  h.write(octal(0, 8), 116, 8, "ascii");
  h.write(octal(size, 12), 124, 12, "ascii");
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12, "ascii");
  h.write(type, 156, 1, "ascii");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  h.write(`${checksum(h).toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The header checksum: the byte sum with the checksum field counted as spaces. */
function checksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] ?? 0);
  return sum;
}

function field(h: Buffer, start: number, length: number): string {
  const raw = h.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw
    .subarray(0, end === -1 ? length : end)
    .toString("utf8")
    .trim();
}

interface Parsed {
  name: string;
  size: number;
  type: string;
}

/** A header's fields, or null for an end-of-archive (zero) block; throws on damage. */
function parse(h: Buffer): Parsed | null {
  if (h.every((b) => b === 0)) return null;
  if (Number.parseInt(field(h, 148, 8), 8) !== checksum(h)) {
    throw new Error("tar: a header is damaged (checksum)");
  }
  const prefix = field(h, 345, 155);
  const name = field(h, 0, 100);
  const size = Number.parseInt(field(h, 124, 12) || "0", 8);
  if (!Number.isFinite(size) || size < 0) throw new Error(`tar: bad size for ${name}`);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    size,
    type: String.fromCharCode(h[156] ?? 0),
  };
}

/** Directories and files under `dir`, parents first, in name order (so archives are stable). */
async function* tarStream(dir: string, mtime: Date): AsyncGenerator<Buffer> {
  const walk = function* (
    rel: string,
  ): Generator<{ rel: string; directory: boolean; size: number }> {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const stat = statSync(join(dir, path));
      if (stat.isDirectory()) {
        yield { rel: path, directory: true, size: 0 };
        yield* walk(path);
      } else if (stat.isFile()) yield { rel: path, directory: false, size: stat.size };
    }
  };
  for (const entry of walk("")) {
    if (entry.directory) {
      yield header(`${entry.rel}/`, 0, "5", mtime);
      continue;
    }
    yield header(entry.rel, entry.size, "0", mtime);
    let sent = 0;
    for await (const chunk of createReadStream(join(dir, entry.rel))) {
      sent += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (sent !== entry.size) throw new Error(`tar: ${entry.rel} changed while it was archived`);
    yield padding(entry.size);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Writes `dir` as a gzip-compressed tar to `file`; its length and SHA-256. */
export async function tarGzDirectory(
  dir: string,
  file: string,
  mtime = new Date(),
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(
    Readable.from(tarStream(dir, mtime)),
    createGzip(),
    tap,
    createWriteStream(file, { mode: 0o600 }),
  );
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * Unpacks a gzip-compressed tar (bytes `offset` to `offset + size` of `file`) into the new
 * directory `into`. Only directories and regular files; a name that would land outside
 * `into`, a damaged header or a short archive is an error.
 */
export async function extractTarGz(
  file: string,
  range: { offset: number; size: number },
  into: string,
): Promise<void> {
  mkdirSync(into, { mode: 0o700 });
  const target = (name: string) => {
    const clean = normalize(name.replace(/^\/+/, ""));
    if (clean === "." || clean.startsWith("..") || clean.split(sep).includes("..")) {
      throw new Error(`tar: refusing the name ${name}`);
    }
    return join(into, clean);
  };
  let pending: Buffer = Buffer.alloc(0);
  let current: { fd: number | null; left: number; pad: number } | null = null;
  let ended = false;
  const input = createReadStream(file, {
    start: range.offset,
    end: range.offset + range.size - 1,
  }).pipe(createGunzip());
  for await (const chunk of input) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (!ended) {
      if (current) {
        if (current.left > 0) {
          const take = Math.min(current.left, pending.length);
          if (take === 0) break;
          if (current.fd !== null) writeSync(current.fd, pending, 0, take);
          pending = pending.subarray(take);
          current.left -= take;
          if (current.left > 0) break;
          if (current.fd !== null) closeSync(current.fd);
        }
        if (pending.length < current.pad) break;
        pending = pending.subarray(current.pad);
        current = null;
      }
      if (pending.length < BLOCK) break;
      const entry = parse(pending.subarray(0, BLOCK));
      pending = pending.subarray(BLOCK);
      if (!entry) {
        ended = true;
        break;
      }
      let fd: number | null = null;
      if (entry.type === "5") mkdirSync(target(entry.name), { recursive: true, mode: 0o700 });
      else if (entry.type === "0" || entry.type === "\0") {
        fd = openSync(target(entry.name), "w", 0o600);
        if (entry.size === 0) {
          closeSync(fd);
          fd = null;
        }
      }
      current = { fd, left: entry.size, pad: padding(entry.size).length };
    }
  }
  if (!ended) throw new Error("tar: the archive is truncated");
}

/**
 * Writes a tar of small in-memory entries and files streamed from disk (the backup's
 * manifest and its compressed data directory), ending in two zero blocks.
 */
export async function writeArchive(
  file: string,
  entries: ({ name: string; data: Buffer } | { name: string; path: string })[],
  mtime = new Date(),
): Promise<void> {
  async function* blocks(): AsyncGenerator<Buffer> {
    for (const entry of entries) {
      if ("data" in entry) {
        yield header(entry.name, entry.data.length, "0", mtime);
        yield entry.data;
        yield padding(entry.data.length);
      } else {
        const size = statSync(entry.path).size;
        yield header(entry.name, size, "0", mtime);
        for await (const chunk of createReadStream(entry.path)) yield chunk as Buffer;
        yield padding(size);
      }
    }
    yield Buffer.alloc(BLOCK * 2);
  }
  await pipeline(Readable.from(blocks()), createWriteStream(file, { mode: 0o600 }));
}

/** The regular files of an archive with where their data lies; headers and length checked. */
export function listArchive(file: string): ArchiveEntry[] {
  const fd = openSync(file, "r");
  try {
    const length = statSync(file).size;
    const entries: ArchiveEntry[] = [];
    const h = Buffer.alloc(BLOCK);
    let offset = 0;
    for (;;) {
      if (offset + BLOCK > length) throw new Error("tar: the archive is truncated");
      readSync(fd, h, 0, BLOCK, offset);
      const entry = parse(h);
      if (!entry) return entries;
      const start = offset + BLOCK;
      if (start + entry.size > length) throw new Error(`tar: ${entry.name} is truncated`);
      if (entry.type === "0" || entry.type === "\0") {
        entries.push({ name: entry.name, offset: start, size: entry.size });
      }
      offset = start + Math.ceil(entry.size / BLOCK) * BLOCK;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads `size` bytes at `offset` of `file` (for an archive's small entries). */
export function readRange(file: string, range: { offset: number; size: number }): Buffer {
  const fd = openSync(file, "r");
  try {
    const out = Buffer.alloc(range.size);
    readSync(fd, out, 0, range.size, range.offset);
    return out;
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 of `size` bytes at `offset` of `file`, streamed. */
export async function sha256Range(
  file: string,
  range: { offset: number; size: number },
): Promise<string> {
  const hash = createHash("sha256");
  if (range.size === 0) return hash.digest("hex");
  for await (const chunk of createReadStream(file, {
    start: range.offset,
    end: range.offset + range.size - 1,
  })) {
    hash.update(chunk as Buffer);
  }
  return hash.digest("hex");
}
