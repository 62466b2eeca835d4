/** @module getFile: one stored file's content, while a published paper's version uses it. */
import { and, eq, exists, sql } from "drizzle-orm";
import { files, papers, versionFiles } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";

export interface StoredFile {
  sha256: string;
  mediaType: string;
  size: number;
  /** Absent when only the headers were asked for. */
  content?: Uint8Array;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * A file is served while at least one version of a published paper names it: withdrawing
 * or removing the paper (the only one using it) stops it at once, with no copy to chase.
 * `content: false` answers conditional requests without reading the bytes.
 */
export async function getFile(
  ctx: ServiceContext,
  input: { sha256: string; content?: boolean },
): Promise<StoredFile> {
  if (!SHA256.test(input.sha256)) throw new NotFound(`No file has the hash "${input.sha256}".`);
  const db = publicReadDb(ctx);
  const visible = exists(
    db
      .select({ one: sql`1` })
      .from(versionFiles)
      .innerJoin(papers, eq(papers.id, versionFiles.paperId))
      .where(and(eq(versionFiles.sha256, files.sha256), eq(papers.status, "published"))),
  );
  const [row] = await db
    .select({
      sha256: files.sha256,
      mediaType: files.mediaType,
      size: files.size,
      ...(input.content === false ? {} : { content: files.content }),
    })
    .from(files)
    .where(and(eq(files.sha256, input.sha256), visible))
    .limit(1);
  if (!row) throw new NotFound(`No file has the hash "${input.sha256}".`);
  return row;
}
