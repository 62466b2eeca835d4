/** @module /moderation/log: every moderation event, newest first, filterable by target. */
import { parsePaperRef } from "../../../services/ids.ts";
import type { ModerationEvent } from "../../../services/moderation/index.ts";
import {
  listModerationEvents,
  MODERATION_ID_MAX_CHARS,
} from "../../../services/moderation/index.ts";
import { formatDate } from "../i18n/index.ts";
import { Field, renderPage } from "../layout.tsx";
import type { Page } from "../page.ts";
import { actorName, eventReason, SectionLinks } from "./parts.tsx";

/** "published → removed, version 1" from an entry's details, when they say so. */
function detailsText(p: Page, details: unknown): string {
  const t = p.t.moderation.log;
  if (!details || typeof details !== "object") return "";
  const d = details as { from?: unknown; to?: unknown; version?: unknown };
  const parts: string[] = [];
  if (typeof d.from === "string" && typeof d.to === "string" && d.from !== d.to) {
    parts.push(t.change(t.states[d.from] ?? d.from, t.states[d.to] ?? d.to));
  }
  const subjects = details as { subjects_from?: unknown; subjects_to?: unknown };
  if (Array.isArray(subjects.subjects_from) && Array.isArray(subjects.subjects_to)) {
    const list = (codes: unknown[]) => codes.map(String).join(", ") || "—";
    parts.push(t.change(list(subjects.subjects_from), list(subjects.subjects_to)));
  }
  if (typeof d.version === "number") parts.push(t.versionOf(d.version));
  const outcome = (details as { outcome?: unknown }).outcome;
  if (typeof outcome === "string") {
    parts.push(t.outcome(p.t.reports.queue.outcomes[outcome] ?? outcome));
  }
  return parts.join(", ");
}

function TargetCell({ p, event }: { p: Page; event: ModerationEvent }) {
  if (event.target_type === "paper") {
    return <a href={p.href(`/papers/${event.target_id}`)}>{event.target_id}</a>;
  }
  if (event.target_type === "agent") {
    return (
      <a href={`${p.href("/moderation/agents")}?id=${encodeURIComponent(event.target_id)}`}>
        {event.target_id}
      </a>
    );
  }
  // A comment or a review: a link to it on its paper, when the entry names the paper.
  const paperId = (event.details as { paper_id?: unknown } | null)?.paper_id;
  if (typeof paperId === "string" && parsePaperRef(paperId)) {
    return (
      <a href={`${p.href(`/papers/${paperId}`)}#${encodeURIComponent(event.target_id)}`}>
        <code>{event.target_id}</code>
      </a>
    );
  }
  return <code>{event.target_id}</code>;
}

export async function logPage(p: Page): Promise<Response> {
  const t = p.t.moderation.log;
  const target = (p.c.req.query("target") ?? "").trim();
  const cursor = p.c.req.query("cursor");
  const { events, next_cursor } = await listModerationEvents(p.ctx, {
    limit: 50,
    ...(cursor ? { cursor } : {}),
    ...(target ? { targetId: target } : {}),
  });
  const base = p.href("/moderation/log");
  const query = (extra: Record<string, string>) =>
    `${base}?${new URLSearchParams({ ...(target ? { target } : {}), ...extra }).toString()}`;
  return renderPage(p, {
    title: t.title,
    body: (
      <>
        <h1>{t.title}</h1>
        <SectionLinks p={p} />
        <p class="lead">{t.intro}</p>
        <form method="get" action={base} class="narrow" id="log-filter">
          <Field
            id="target"
            name="target"
            label={t.filterLabel}
            hint={t.filterHint}
            value={target}
            required={false}
            maxlength={MODERATION_ID_MAX_CHARS}
            autocomplete="off"
          />
          <button type="submit" class="secondary">
            {t.filter}
          </button>{" "}
          {target ? <a href={base}>{t.showAll}</a> : null}
        </form>
        {events.length === 0 ? (
          <p id="no-events">{target ? t.noneFor(target) : t.none}</p>
        ) : (
          <div class="table-wrap">
            <table id="events">
              <caption>{t.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.who}</th>
                  <th scope="col">{t.action}</th>
                  <th scope="col">{t.target}</th>
                  <th scope="col">{t.reason}</th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => {
                  const details = detailsText(p, e.details);
                  return (
                    <tr id={`event-${e.id}`}>
                      <td>
                        <time datetime={e.created_at}>{formatDate(p.lang, e.created_at)}</time>
                      </td>
                      <td>{actorName(p, e)}</td>
                      <td>
                        {t.actions[e.action] ?? e.action}
                        {details ? (
                          <>
                            <br />
                            <span class="muted">{details}</span>
                          </>
                        ) : null}
                      </td>
                      <td>
                        <TargetCell p={p} event={e} />
                      </td>
                      <td class="reason">{eventReason(p, e)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <p class="pager">
          {cursor ? <a href={target ? query({}) : base}>{t.newest}</a> : null}{" "}
          {next_cursor ? (
            <a href={query({ cursor: next_cursor })} rel="next" id="older">
              {t.older}
            </a>
          ) : null}
        </p>
      </>
    ),
  });
}
