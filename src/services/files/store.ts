/** @module A version's files written (content once per sha256) and listed. */

import { z } from "@hono/zod-openapi";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { FILE_ROLES, files, versionFiles } from "../../db/schema/index.ts";
import { pairIn, rowsOf } from "../../db/sql.ts";
import { Unavailable } from "../errors.ts";
import type { PreparedFile } from "./bundle.ts";

const MIB = 1024 * 1024;

/** The file store is at its bound (FILES_MAX_MB): a 503, for the operator to act on. */
export class FilesFull extends Unavailable {}

/**
 * Stores a version's files inside the caller's transaction: each content once (a figure
 * two versions share is one row), then the version's own list under the paper's names.
 *
 * Contents already stored are locked (`for key share`) before the version points at them,
 * so the prune, which deletes contents no version references, cannot remove one in between
 * (it skips locked rows). New contents count against `maxBytes` (FILES_MAX_MB), all stored
 * contents together: past it the version is refused with FilesFull and nothing is written.
 * Two versions stored at the same moment can pass the bound by their own size, no more.
 */
export async function storeVersionFiles(
  db: Db,
  version: { paperId: string; version: number },
  prepared: readonly PreparedFile[],
  now: Date,
  bound: { maxBytes: number },
): Promise<void> {
  if (prepared.length === 0) return;
  const unique = new Map(prepared.map((f) => [f.sha256, f]));
  const kept = await db
    .select({ sha256: files.sha256 })
    .from(files)
    .where(inArray(files.sha256, [...unique.keys()]))
    .for("key share");
  const stored = new Set(kept.map((r) => r.sha256));
  const added = [...unique.values()].filter((f) => !stored.has(f.sha256));
  const addedBytes = added.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  if (addedBytes > 0) {
    const { bytes } = await filesUsage(db);
    if (bytes + addedBytes > bound.maxBytes) {
      throw new FilesFull(
        `The archive's file store is full: ${mib(bytes)} MiB of its ${mib(bound.maxBytes)} MiB are in use, and this version's new files take ${mib(addedBytes)} MiB. The operator can raise FILES_MAX_MB.`,
        3600,
      );
    }
  }
  for (const f of added) {
    await db
      .insert(files)
      .values({
        sha256: f.sha256,
        mediaType: f.mediaType,
        size: f.bytes.byteLength,
        content: f.bytes,
        createdAt: now,
      })
      .onConflictDoNothing();
  }
  await db.insert(versionFiles).values(
    prepared.map((f, position) => ({
      paperId: version.paperId,
      version: version.version,
      name: f.name,
      role: f.role,
      sha256: f.sha256,
      position,
    })),
  );
}

/**
 * A new version keeps the figures and supplementary files of the version before it (inside
 * the caller's transaction; contents are shared, only the list is written). A LaTeX source
 * stays with the versions it produced.
 */
export async function keepVersionFiles(
  db: Db,
  from: { paperId: string; version: number },
  to: { version: number },
): Promise<void> {
  await db.execute(sql`
    insert into ${versionFiles} (paper_id, version, name, role, sha256, position)
    select paper_id, ${to.version}, name, role, sha256, position
    from ${versionFiles}
    where paper_id = ${from.paperId} and version = ${from.version} and role <> 'source'`);
}

export const VersionFileSchema = z
  .object({
    name: z.string().openapi({
      description: "The path the paper uses for the file (its Markdown names figures by it).",
      example: "figures/convergence.png",
    }),
    role: z.enum(FILE_ROLES).openapi({
      description:
        "`figure` (shown in the text), `supplementary` (data, code) or `source` (the LaTeX source).",
      example: "figure",
    }),
    media_type: z.string().openapi({ description: "IANA media type.", example: "image/png" }),
    size: z.number().int().openapi({ description: "Bytes.", example: 20481 }),
    sha256: z.string().openapi({
      description: "SHA-256 of the content (hex); also its strong ETag.",
      example: "9f2c4e0a1b7d3e5f6a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f",
    }),
    url: z.string().openapi({
      description: "Immutable URL of the content.",
      example:
        "https://quire.example/files/9f2c4e0a1b7d3e5f6a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f",
    }),
  })
  .openapi("VersionFile");
export type VersionFile = z.infer<typeof VersionFileSchema>;

/** Where a file's content is served (relative to the site); the path never changes. */
export function filePath(sha256: string): string {
  return `/files/${sha256}`;
}

const fileColumns = {
  paperId: versionFiles.paperId,
  version: versionFiles.version,
  name: versionFiles.name,
  role: versionFiles.role,
  sha256: versionFiles.sha256,
  mediaType: files.mediaType,
  size: files.size,
};

/** Figures first, then supplementary files, then the source; each in the bundle's order. */
const FILE_ORDER = sql`case ${versionFiles.role} when 'figure' then 0 when 'supplementary' then 1 else 2 end`;

function toVersionFile(
  r: { name: string; role: VersionFile["role"]; sha256: string; mediaType: string; size: number },
  baseUrl: string,
): VersionFile {
  return {
    name: r.name,
    role: r.role,
    media_type: r.mediaType,
    size: r.size,
    sha256: r.sha256,
    url: `${baseUrl}${filePath(r.sha256)}`,
  };
}

/** A version's files in the order the bundle gave them (figures first). */
export async function listVersionFiles(
  db: Db,
  version: { paperId: string; version: number },
  baseUrl: string,
): Promise<VersionFile[]> {
  const rows = await db
    .select(fileColumns)
    .from(versionFiles)
    .innerJoin(files, eq(files.sha256, versionFiles.sha256))
    .where(
      and(eq(versionFiles.paperId, version.paperId), eq(versionFiles.version, version.version)),
    )
    .orderBy(FILE_ORDER, asc(versionFiles.position));
  return rows.map((r) => toVersionFile(r, baseUrl));
}

/**
 * The files of many versions in one query (the dataset export's batches), keyed
 * `paperId + "v" + version`, each list in `listVersionFiles`' order; a version without files
 * has no key.
 */
export async function listFilesOfVersions(
  db: Db,
  versions: readonly { paperId: string; version: number }[],
  baseUrl: string,
): Promise<Map<string, VersionFile[]>> {
  const out = new Map<string, VersionFile[]>();
  if (versions.length === 0) return out;
  const rows = await db
    .select(fileColumns)
    .from(versionFiles)
    .innerJoin(files, eq(files.sha256, versionFiles.sha256))
    .where(
      pairIn(
        [versionFiles.paperId, versionFiles.version],
        [versions.map((v) => v.paperId), "text"],
        [versions.map((v) => v.version), "int4"],
      ),
    )
    .orderBy(
      asc(versionFiles.paperId),
      asc(versionFiles.version),
      FILE_ORDER,
      asc(versionFiles.position),
    );
  for (const r of rows) {
    const key = `${r.paperId}v${r.version}`;
    const list = out.get(key);
    const file = toVersionFile(r, baseUrl);
    if (list) list.push(file);
    else out.set(key, [file]);
  }
  return out;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0);
}

/** How many file contents are stored, and their bytes (what FILES_MAX_MB bounds). */
export async function filesUsage(db: Db): Promise<{ count: number; bytes: number }> {
  const [row] = await rowsOf<{ count: number | string; bytes: number | string }>(
    db,
    sql`select count(*) as count, coalesce(sum(size), 0) as bytes from files`,
  );
  return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}
