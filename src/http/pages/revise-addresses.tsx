/**
 * @module The revision form's "addresses" field: the reviews of the version being revised,
 * each a checkbox, so the new version can say which reviews its changes answer.
 */
import type { Child } from "hono/jsx";
import { listReviews } from "../../services/contributions/index.ts";
import { formatDate } from "./i18n/index.ts";
import type { Page } from "./page.ts";

/** How many reviews of each kind the form lists: a version with more is not a revision form's case. */
const LISTED = 50;

const FIELD_PREFIX = "address-";

interface Addressable {
  id: string;
  who: string;
  advisory: boolean;
  version: number;
  created_at: string;
}

/** The reviews of `paperId`'s version `version`, people's first, oldest first within each. */
async function addressableReviews(p: Page, paperId: string, version: number) {
  const list = await listReviews(p.ctx, { paperId: `${paperId}v${version}`, limit: LISTED });
  const out: Addressable[] = [];
  for (const r of list.human?.reviews ?? []) {
    out.push({
      id: r.id,
      who: r.author.owner_handle,
      advisory: false,
      version,
      created_at: r.created_at,
    });
  }
  for (const r of list.ai_advisory?.reviews ?? []) {
    out.push({ id: r.id, who: r.author.name, advisory: true, version, created_at: r.created_at });
  }
  return out;
}

/** The review ids ticked on a submitted form (`address-{id}` fields). */
export function chosenAddresses(form: Record<string, string>): string[] {
  return Object.keys(form)
    .filter((k) => k.startsWith(FIELD_PREFIX))
    .map((k) => k.slice(FIELD_PREFIX.length));
}

/** The fieldset, with the choices of `form` kept (a failed POST shows them again). */
export async function addressesField(
  p: Page,
  paper: { id: string; version: number },
  form: Record<string, string>,
  error: string | undefined,
): Promise<Child> {
  const d = p.t.discussion;
  const reviews = await addressableReviews(p, paper.id, paper.version);
  const chosen = new Set(chosenAddresses(form));
  return (
    <fieldset class="field addresses-field" id="paper-addresses" tabindex={-1}>
      <legend>{d.addressesLegend}</legend>
      <p class="hint" id="paper-addresses-hint">
        {d.addressesHint}
      </p>
      {error ? (
        <p class="field-error" id="paper-addresses-error">
          {error}
        </p>
      ) : null}
      {reviews.length === 0 ? (
        <p id="no-addressable-reviews">{d.noReviewsToAddress}</p>
      ) : (
        <ul class="plain-list">
          {reviews.map((r) => (
            <li>
              <label>
                <input
                  type="checkbox"
                  name={`${FIELD_PREFIX}${r.id}`}
                  value="1"
                  checked={chosen.has(r.id)}
                />{" "}
                {d.reviewBy(r.who, r.version)}
                {r.advisory ? ` · ${p.t.reading.aiLabel}` : ""} ·{" "}
                <time datetime={r.created_at}>{formatDate(p.lang, r.created_at)}</time>{" "}
                <a href={`${p.href(`/papers/${paper.id}`)}#${r.id}`}>{r.id}</a>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
