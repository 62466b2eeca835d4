/** @module A minimal POSIX (ustar) tar writer and reader for backup archives: regular files only, checked headers. */

export interface TarEntry {
  name: string;
  data: Uint8Array;
}

const BLOCK = 512;
/** ustar's size field holds 11 octal digits. */
const MAX_SIZE = 8 ** 11 - 1;

/** A tar archive of `entries` (mode 0644, owner 0, mtime `mtime`), ending in two zero blocks. */
export function writeTar(entries: TarEntry[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (Buffer.byteLength(entry.name) > 100) throw new Error(`tar: name too long: ${entry.name}`);
    if (entry.data.length > MAX_SIZE) throw new Error(`tar: ${entry.name} is too large`);
    const header = Buffer.alloc(BLOCK);
    header.write(entry.name, 0, 100, "utf8");
    header.write("0000644\0", 100, 8, "ascii");
    header.write("0000000\0", 108, 8, "ascii");
    header.write("0000000\0", 116, 8, "ascii");
    header.write(`${entry.data.length.toString(8).padStart(11, "0")}\0`, 124, 12, "ascii");
    header.write(
      `${Math.floor(mtime.getTime() / 1000)
        .toString(8)
        .padStart(11, "0")}\0`,
      136,
      12,
      "ascii",
    );
    header.write("0", 156, 1, "ascii");
    header.write("ustar\0", 257, 6, "ascii");
    header.write("00", 263, 2, "ascii");
    header.write(`${checksum(header).toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
    parts.push(header, Buffer.from(entry.data));
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/**
 * The regular files of a tar archive. Every header's checksum and the archive's length
 * are checked, so a truncated or damaged file is an error, never a shorter list.
 */
export function readTar(archive: Uint8Array): TarEntry[] {
  const buffer = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const entries: TarEntry[] = [];
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > buffer.length) throw new Error("tar: the archive is truncated");
    const header = buffer.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return entries;
    const stored = Number.parseInt(field(header, 148, 8), 8);
    if (stored !== checksum(header)) throw new Error("tar: a header is damaged (checksum)");
    const name = field(header, 0, 100);
    const size = Number.parseInt(field(header, 124, 12), 8);
    const type = String.fromCharCode(header[156] ?? 0);
    if (!Number.isFinite(size) || size < 0) throw new Error(`tar: bad size for ${name}`);
    const start = offset + BLOCK;
    if (start + size > buffer.length) throw new Error(`tar: ${name} is truncated`);
    if (type === "0" || type === "\0") {
      entries.push({ name, data: buffer.subarray(start, start + size) });
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw
    .subarray(0, end === -1 ? length : end)
    .toString("utf8")
    .trim();
}

/** The header checksum: the byte sum with the checksum field counted as spaces. */
function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum;
}
