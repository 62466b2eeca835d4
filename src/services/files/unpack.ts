/**
 * @module Unpacking a source bundle (.zip or .tar.gz) in memory, bounded: entry count, the
 * size of each file and of all of them as actually inflated, and only plain relative paths
 * (no absolute path, no `..`, no links, no devices).
 */
import { gunzipSync } from "node:zlib";
import { Unzip, UnzipInflate, UnzipPassThrough } from "fflate";
import { extract } from "tar-stream";
import { Invalid } from "../errors.ts";
import { BUNDLE_LIMITS, isIgnored } from "./limits.ts";
import { refuseSource as refuse } from "./refusal.ts";

/** Paths to contents, in the bundle's order. */
export type Bundle = Map<string, Uint8Array>;

/**
 * A bundle entry's path, normalized (`./a//b` → `a/b`), or a refusal: absolute paths, drive
 * letters, backslashes, `..` and control characters never name a file here.
 */
export function safePath(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(raw))
    refuse(
      { code: "bad_path", path: raw, why: "character" },
      `the path "${raw}" has a forbidden character`,
    );
  if (raw.startsWith("/") || /^[a-z]:/i.test(raw))
    refuse({ code: "bad_path", path: raw, why: "absolute" }, `the path "${raw}" is absolute`);
  const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === ".."))
    refuse({ code: "bad_path", path: raw, why: "leaves" }, `the path "${raw}" leaves the bundle`);
  const path = parts.join("/");
  if (path.length > BUNDLE_LIMITS.pathMax) {
    refuse(
      { code: "bad_path", path: `${path.slice(0, 40)}…`, why: "long" },
      `the path "${path.slice(0, 40)}…" is longer than ${BUNDLE_LIMITS.pathMax} characters`,
    );
  }
  return path;
}

class Budget {
  entries = 0;
  total = 0;
  entry(): void {
    if (++this.entries > BUNDLE_LIMITS.entriesMax) {
      refuse(
        { code: "too_many_entries", max: BUNDLE_LIMITS.entriesMax },
        `it has more than ${BUNDLE_LIMITS.entriesMax} entries`,
      );
    }
  }
  grow(path: string, size: number, by: number): void {
    if (size > BUNDLE_LIMITS.fileMax) {
      refuse(
        { code: "file_too_large", path, max: BUNDLE_LIMITS.fileMax },
        `"${path}" is larger than ${BUNDLE_LIMITS.fileMax} bytes unpacked`,
      );
    }
    this.total += by;
    if (this.total > BUNDLE_LIMITS.totalMax) {
      refuse(
        { code: "total_too_large", max: BUNDLE_LIMITS.totalMax },
        `its files are larger than ${BUNDLE_LIMITS.totalMax} bytes unpacked`,
      );
    }
  }
}

/** The bundle's kind from its first bytes: zip (`PK\3\4`) or gzip (`1f 8b`, a .tar.gz). */
export async function unpackBundle(bytes: Uint8Array): Promise<Bundle> {
  if (bytes.byteLength > BUNDLE_LIMITS.compressedMax) {
    refuse(
      { code: "too_large", max: BUNDLE_LIMITS.compressedMax },
      `it is larger than ${BUNDLE_LIMITS.compressedMax} bytes`,
    );
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return unzip(bytes);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return untar(gunzipBounded(bytes));
  refuse({ code: "not_archive" }, "it is neither a .zip nor a .tar.gz archive");
}

function add(bundle: Bundle, path: string, content: Uint8Array): void {
  if (isIgnored(path)) return;
  if (bundle.has(path)) refuse({ code: "duplicate", path }, `"${path}" appears twice`);
  bundle.set(path, content);
}

function unzip(bytes: Uint8Array): Bundle {
  const bundle: Bundle = new Map();
  const budget = new Budget();
  const pending: Array<{ path: string; chunks: Uint8Array[] }> = [];
  const unzipper = new Unzip((file) => {
    budget.entry();
    if (file.name.endsWith("/")) {
      safePath(file.name);
      return;
    }
    const path = safePath(file.name);
    // Zip has no portable link flag; fflate gives regular contents, and the names are checked.
    const entry = { path, chunks: [] as Uint8Array[] };
    pending.push(entry);
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (error) {
        refuse(
          { code: "unreadable", format: "zip", detail: `${path}: ${error.message}` },
          `"${path}" could not be inflated (${error.message})`,
        );
      }
      size += chunk.byteLength;
      budget.grow(path, size, chunk.byteLength);
      entry.chunks.push(chunk);
      if (final) add(bundle, path, concat(entry.chunks, size));
    };
    file.start();
  });
  unzipper.register(UnzipInflate);
  unzipper.register(UnzipPassThrough);
  try {
    // Fed in slices, so inflating stops at the first slice that breaks a bound.
    const step = 64 * 1024;
    for (let at = 0; at < bytes.byteLength; at += step) {
      unzipper.push(bytes.subarray(at, at + step), at + step >= bytes.byteLength);
    }
  } catch (error) {
    if (error instanceof Invalid) throw error;
    const detail = (error as Error).message;
    refuse(
      { code: "unreadable", format: "zip", detail },
      `it is not a readable zip archive (${detail})`,
    );
  }
  return bundle;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A tar of more than the total bound (plus its headers) is refused before it is all inflated. */
function gunzipBounded(bytes: Uint8Array): Uint8Array {
  const limit = BUNDLE_LIMITS.totalMax + (BUNDLE_LIMITS.entriesMax + 2) * 1024 + 10240;
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      refuse(
        { code: "total_too_large", max: BUNDLE_LIMITS.totalMax },
        `its files are larger than ${BUNDLE_LIMITS.totalMax} bytes unpacked`,
      );
    }
    const detail = (error as Error).message;
    refuse(
      { code: "unreadable", format: "gzip", detail },
      `it is not a readable gzip file (${detail})`,
    );
  }
}

async function untar(tar: Uint8Array): Promise<Bundle> {
  const bundle: Bundle = new Map();
  const budget = new Budget();
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on("entry", (header, stream, next) => {
      // Destroying the extractor destroys the entry too; its error is the extractor's.
      stream.on("error", () => {});
      try {
        budget.entry();
        if (header.type === "directory") {
          safePath(header.name);
          stream.resume();
          stream.on("end", next);
          return;
        }
        if (header.type !== "file" && header.type !== "contiguous-file") {
          refuse(
            { code: "not_plain_file", path: header.name, type: String(header.type) },
            `"${header.name}" is a ${header.type}; only plain files and folders are allowed`,
          );
        }
        const path = safePath(header.name);
        budget.grow(path, header.size ?? 0, 0);
        const chunks: Uint8Array[] = [];
        let size = 0;
        stream.on("data", (data: unknown) => {
          const chunk = data as Uint8Array;
          size += chunk.byteLength;
          try {
            budget.grow(path, size, chunk.byteLength);
          } catch (error) {
            ex.destroy(error as Error);
            return;
          }
          chunks.push(chunk);
        });
        stream.on("end", () => {
          try {
            add(bundle, path, concat(chunks, size));
            next();
          } catch (error) {
            ex.destroy(error as Error);
          }
        });
      } catch (error) {
        ex.destroy(error as Error);
      }
    });
    ex.on("finish", resolve);
    ex.on("error", reject);
  });
  ex.end(Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength));
  try {
    await done;
  } catch (error) {
    if (error instanceof Invalid) throw error;
    const detail = (error as Error).message;
    refuse(
      { code: "unreadable", format: "tar", detail },
      `it is not a readable tar archive (${detail})`,
    );
  }
  return bundle;
}
