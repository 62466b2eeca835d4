/** @module Start-up checks of the search index: format, embedding model, HNSW index. */
import { sql } from "drizzle-orm";
import { getMeta, rowsOf, setMeta } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { ensureHnswIndex } from "./dense.ts";
import { enqueueEmbeddings, INDEX_FORMAT, rebuildSearchIndex } from "./indexing.ts";

/** Papers between two progress lines of a start-up rebuild. */
const PROGRESS_EVERY = 5_000;

export interface PrepareReport {
  /** The lexical index was (re)built because it was missing or of another format. */
  rebuilt: boolean;
  /** The configured embedding model differs from the one the stored vectors came from. */
  previousModel: string | null;
  /** Chunks queued for embedding because they lack a vector from the configured model. */
  queued: number;
}

interface ModelMeta {
  model: string;
  dims?: number;
}

/**
 * Run once per process before serving. Builds the lexical index when it is missing or was
 * written by another format (an upgraded archive, a changed analyser), so search never
 * silently serves a partial index. With an embedder configured, it notices a change of
 * model (the stored vectors name theirs), queues every searchable chunk that lacks a vector
 * from the configured model (the worker fills them in; `quire reindex` does it now, with
 * progress) and makes sure the HNSW index for the model's dimension exists.
 */
export async function prepareSearch(ctx: ServiceContext): Promise<PrepareReport> {
  const report: PrepareReport = { rebuilt: false, previousModel: null, queued: 0 };
  const format = await getMeta<string>(ctx.db, "index_format");
  if (format !== INDEX_FORMAT) {
    const [row] = await rowsOf<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from papers where status = 'published'`,
    );
    if (Number(row?.n ?? 0) > 0) {
      ctx.logger.warn(
        { found: format ?? null, expected: INDEX_FORMAT, papers: Number(row?.n) },
        "building the search index (missing or of another format)",
      );
      let logged = 0;
      const built = await rebuildSearchIndex(ctx, {
        onProgress: (p) => {
          if (p.papers - logged < PROGRESS_EVERY && p.papers < p.total) return;
          logged = p.papers;
          ctx.logger.info({ ...p }, "building the search index");
        },
      });
      ctx.logger.info({ ...built }, "search index built");
      report.rebuilt = true;
    } else {
      await setMeta(ctx.db, "index_format", INDEX_FORMAT);
    }
  }
  const embedder = ctx.embedder;
  if (!embedder) return report;
  const stored = await getMeta<ModelMeta>(ctx.db, "embedding_model");
  if (stored && stored.model !== embedder.model) {
    report.previousModel = stored.model;
    ctx.logger.warn(
      { previous: stored.model, configured: embedder.model },
      "the embedding model changed: dense search uses only vectors of the configured model; " +
        "chunks are queued for re-embedding (run `quire reindex` to do it now, with progress)",
    );
  }
  report.queued = await enqueueEmbeddings(ctx.db, { model: embedder.model });
  const dims = stored?.model === embedder.model ? stored.dims : undefined;
  if (dims) await ensureHnswIndex(ctx.db, dims);
  await setMeta(
    ctx.db,
    "embedding_model",
    dims ? { model: embedder.model, dims } : { model: embedder.model },
  );
  if (report.queued > 0) {
    ctx.logger.info(
      { queued: report.queued, model: embedder.model },
      "chunks queued for embedding",
    );
  }
  return report;
}
