/** @module getPaper: one paper with its current (or a named) version. */
import { publicReadDb, type ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { listVersionFiles } from "../files/index.ts";
import { parsePaperRef } from "../ids.ts";
import { addressesOf } from "./addresses.ts";
import { selectDetail } from "./hot-reads.ts";
import { summarise } from "./review-summary.ts";
import type { PaperDetail } from "./schemas.ts";
import { toListItem } from "./summary.ts";
import { canSeePaper } from "./visibility.ts";

export interface GetPaperInput {
  /** `YYMM.NNNNN` or `YYMM.NNNNNvN`. */
  id: string;
}

/**
 * Returns the paper and one version: the current one, or the one named by `vN`. A paper
 * the caller may not see, a malformed id and a version that does not exist are all 404.
 */
export async function getPaper(ctx: ServiceContext, input: GetPaperInput): Promise<PaperDetail> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const row = await selectDetail(publicReadDb(ctx), ref.id, ref.version ?? null);
  if (!row || !canSeePaper(ctx.caller, row.summary)) throw paperNotFound(input.id);
  const { summary, head, requested, ownerHandle } = row;
  if (!requested || requested.version > summary.currentVersion) throw paperNotFound(input.id);
  const addresses = requested.version > 1 ? await addressesOf(publicReadDb(ctx), ref.id) : null;
  const files = await listVersionFiles(
    publicReadDb(ctx),
    { paperId: ref.id, version: requested.version },
    ctx.settings.baseUrl,
  );

  return {
    paper: {
      ...toListItem(summary),
      abstract: head.abstract,
      authors: [
        { name: summary.aiModel, kind: "ai", role: "author" },
        ...(ownerHandle
          ? [{ name: ownerHandle, kind: "human" as const, role: "submitter" as const }]
          : []),
      ],
      owner_handle: ownerHandle,
      license: head.license,
      keywords: head.keywords,
      language: head.language,
      versions: row.versions.map((v) => ({
        version: v.version,
        created_at: v.createdAt.toISOString(),
      })),
      reviews: {
        human: summarise(row.reviews.human),
        ai_advisory: summarise(row.reviews.ai_advisory),
      },
    },
    version: {
      version: requested.version,
      title: requested.title,
      abstract: requested.abstract,
      body: requested.body,
      ai_model: requested.aiModel,
      created_at: requested.createdAt.toISOString(),
      changelog: requested.changelog,
      addresses: addresses?.get(requested.version) ?? [],
      files,
    },
  };
}

export function paperNotFound(id: string): NotFound {
  return new NotFound(`No visible paper has the id "${id}".`);
}
