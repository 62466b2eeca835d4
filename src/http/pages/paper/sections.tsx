/** @module The paper page's version history, related papers, machine-readable links and list pager. */
import type { VersionFile } from "../../../services/files/index.ts";
import { formatDate } from "../i18n/index.ts";
import type { Page } from "../page.ts";
import { AiLabel, textLang } from "../reading-parts.tsx";
import { cursorParam, type PaperData } from "./data.ts";

export function VersionHistory({ p, data }: { p: Page; data: PaperData }) {
  const r = p.t.reading.paper;
  const { detail, versions } = data;
  const id = detail.paper.id;
  return (
    <section aria-labelledby="history-title" id="version-history">
      <h2 id="history-title">{r.history}</h2>
      <ol class="versions" reversed>
        {[...versions.versions].reverse().map((v) => {
          const shownHere = v.version === detail.version.version;
          return (
            <li id={`v${v.version}`}>
              <p>
                {shownHere ? (
                  <strong aria-current="page">{`v${v.version}`}</strong>
                ) : (
                  // The visible "vN" starts the link's name (WCAG 2.5.3, label in name).
                  <a href={p.href(`/papers/${id}v${v.version}`)}>
                    {`v${v.version}`}
                    <span class="visually-hidden">{` (${r.read(v.version)})`}</span>
                  </a>
                )}{" "}
                <time datetime={v.created_at}>{formatDate(p.lang, v.created_at)}</time>
                {v.version === versions.current_version ? ` · ${r.current}` : ""}
                {shownHere ? ` · ${r.reading}` : ""}
              </p>
              <p class="version-title">{v.title}</p>
              <p class="changelog">
                <span class="label">{r.changelog}:</span> {v.changelog ?? r.noChangelog}
              </p>
              {v.addresses.length > 0 ? (
                <p class="addresses" id={`v${v.version}-addresses`}>
                  <span class="label">{`${p.t.discussion.addresses}:`}</span>{" "}
                  {v.addresses.map((rid, i) => (
                    <>
                      {i > 0 ? ", " : ""}
                      <a href={`${p.href(`/papers/${id}`)}#${rid}`}>{rid}</a>
                    </>
                  ))}
                </p>
              ) : null}
              {v.version > 1 ? (
                <p>
                  <a href={`${p.href(`/papers/${id}/diff`)}?from=${v.version - 1}&to=${v.version}`}>
                    {r.compare(v.version - 1, v.version)}
                  </a>
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The version's figures, supplementary files and source, each a link to its immutable URL. */
export function VersionFiles({ p, files }: { p: Page; files: readonly VersionFile[] }) {
  if (files.length === 0) return null;
  const r = p.t.reading.paper;
  return (
    <section aria-labelledby="files-title" id="version-files">
      <h2 id="files-title">{r.files}</h2>
      <p class="muted">{r.filesIntro}</p>
      <ul class="file-list">
        {files.map((f) => (
          <li data-role={f.role}>
            <a href={new URL(f.url).pathname} type={f.media_type}>
              <code>{f.name}</code>
            </a>{" "}
            <span class="muted">
              {r.fileRoles[f.role]} · {f.media_type} · {r.fileSize(f.size)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The papers closest to this one's text (the related papers service), closest first. */
export function RelatedPapers({ p, data }: { p: Page; data: PaperData }) {
  const r = p.t.reading.paper;
  const c = p.t.reading.card;
  return (
    <section aria-labelledby="related-title" id="related-papers">
      <h2 id="related-title">{r.related}</h2>
      {data.related.length === 0 ? (
        <p id="no-related">{r.noRelated}</p>
      ) : (
        <>
          <p class="muted">{r.relatedIntro}</p>
          <ol class="related-list">
            {data.related.map((item) => (
              <li>
                <a href={p.href(`/papers/${item.id}`)} lang={textLang(item.language)}>
                  {item.title}
                </a>
                <br />
                <span class="paper-meta">
                  <AiLabel p={p} /> {c.model}: <span class="model">{item.ai_model}</span>
                  {" · "}
                  {c.published}:{" "}
                  <time datetime={item.published_at}>{formatDate(p.lang, item.published_at)}</time>
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export function MachineLinks({ p, id }: { p: Page; id: string }) {
  const r = p.t.reading.paper;
  const api = `/api/v1/papers/${id}`;
  return (
    <section aria-labelledby="machine-title" id="machine-links">
      <h2 id="machine-title">{r.machine}</h2>
      <ul class="inline-list">
        <li>
          <a href={api} type="application/json">
            {r.json}
          </a>
        </li>
        <li>
          <a href={`${api}?format=jsonld`} type="application/ld+json">
            {r.jsonld}
          </a>
        </li>
        <li>
          <a href={`${api}/context`} type="application/json">
            {r.context}
          </a>
        </li>
        <li>
          <a href={`${api}/related`} type="application/json">
            {r.relatedJson}
          </a>
        </li>
        <li>
          <a
            href={`/papers/${id.replace(/v\d+$/, "")}/discussion.atom`}
            type="application/atom+xml"
            id="discussion-feed"
          >
            {p.t.notifications.feedLink}
          </a>
        </li>
      </ul>
      <p>
        {r.cite}{" "}
        <a href={`${api}?format=bibtex`} type="application/x-bibtex">
          BibTeX
        </a>
        {" · "}
        <a href={`${api}?format=ris`} type="application/x-research-info-systems">
          RIS
        </a>
        {" · "}
        <a href={`${api}?format=csl`} type="application/vnd.citationstyles.csl+json">
          CSL-JSON
        </a>
      </p>
    </section>
  );
}

/** A "next page" link for one list on this page (the other lists start again). */
export function PageLinks({
  p,
  param,
  next,
  anchor,
  more,
  first,
}: {
  p: Page;
  param: string;
  next: string | null;
  anchor: string;
  more: string;
  first: string;
}) {
  const here = p.href(p.path);
  const paged = cursorParam(p, param) !== undefined;
  if (!next && !paged) return null;
  return (
    <nav aria-label={more} class="pager">
      <ul class="inline-list">
        {paged ? (
          <li>
            <a href={`${here}#${anchor}`}>{first}</a>
          </li>
        ) : null}
        {next ? (
          <li>
            <a href={`${here}?${param}=${encodeURIComponent(next)}#${anchor}`} rel="next">
              {more}
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
