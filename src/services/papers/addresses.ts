/** @module The reviews a new version says it addresses: checked, stored, and read back. */
import { and, asc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { reviews, versionAddresses } from "../../db/schema/index.ts";
import { Invalid } from "../errors.ts";
import { prefixedIdPattern } from "../ids.ts";

/** At most this many reviews per revision: more is a form gone wrong, not a revision. */
const ADDRESSES_MAX = 100;

const REVIEW_ID = prefixedIdPattern("rev");

const refused = (message: string) =>
  new Invalid("The reviews this version addresses are not valid.", [
    { in: "body", name: "addresses", message },
  ]);

/**
 * The distinct review ids of `ids`, each a visible (not removed) review of `paperId` on a
 * version before `newVersion` (any stored version when null: the check before screening),
 * or a 400 naming `addresses`: a revision can only answer reviews of its own paper's
 * earlier versions.
 */
export async function checkAddresses(
  db: Db,
  paperId: string,
  ids: readonly string[],
  newVersion: number | null,
): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  if (unique.length > ADDRESSES_MAX) throw refused(`at most ${ADDRESSES_MAX} reviews`);
  if (!unique.every((id) => REVIEW_ID.test(id))) throw refused("must be review ids (rev_…)");
  const found = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(
      and(
        inArray(reviews.id, unique),
        eq(reviews.paperId, paperId),
        newVersion === null ? undefined : lt(reviews.paperVersion, newVersion),
        isNull(reviews.removedAt),
      ),
    );
  if (found.length !== unique.length) {
    throw refused("must each be a review of an earlier version of this paper");
  }
  return unique;
}

/** Records that `version` addresses `reviewIds` (inside the version's transaction). */
export async function storeAddresses(
  db: Db,
  paperId: string,
  version: number,
  reviewIds: readonly string[],
): Promise<void> {
  if (reviewIds.length === 0) return;
  await db
    .insert(versionAddresses)
    .values(reviewIds.map((reviewId) => ({ paperId, version, reviewId })));
}

/** Each version of `paperId` → the reviews it addresses, in id order. */
export async function addressesOf(db: Db, paperId: string): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ version: versionAddresses.version, reviewId: versionAddresses.reviewId })
    .from(versionAddresses)
    .where(eq(versionAddresses.paperId, paperId))
    .orderBy(asc(versionAddresses.version), asc(versionAddresses.reviewId));
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.version, [...(out.get(r.version) ?? []), r.reviewId]);
  return out;
}
