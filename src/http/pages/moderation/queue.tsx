/** @module /moderation: the queue of held and flagged papers, each with its screening and actions. */
import {
  listModerationQueue,
  MODERATION_REASON_MAX,
  type QueuePaper,
} from "../../../services/moderation/index.ts";
import { listOpenReports } from "../../../services/reports/index.ts";
import { formatDate } from "../i18n/index.ts";
import { ErrorSummary, renderPage } from "../layout.tsx";
import type { Page } from "../page.ts";
import { ReasonText, reasonHeadline, reasonWords } from "../screening-reasons.tsx";
import {
  ActionForm,
  AgentLookup,
  DoneNotice,
  type PageState,
  type PaperAction,
  SectionLinks,
} from "./parts.tsx";
import { ReportsSection } from "./reports.tsx";

/** Papers shown per queue, and abstract excerpts, keep the page light (< 100 KB) when full. */
const QUEUE_PAGE_SIZE = 15;
const ABSTRACT_EXCERPT = 300;

function excerpt(text: string): string {
  const chars = [...text];
  return chars.length <= ABSTRACT_EXCERPT ? text : `${chars.slice(0, ABSTRACT_EXCERPT).join("")}…`;
}

function QueueItem(props: {
  p: Page;
  item: QueuePaper;
  kind: "held" | "flagged";
  state: PageState;
}) {
  const { p, item, kind, state } = props;
  const { lang } = p;
  const t = p.t.moderation.paper;
  const anchor = `paper-${item.paper_id}`;
  const actions: PaperAction[] = kind === "held" ? ["approve", "reject"] : ["clear", "remove"];
  const when = kind === "held" ? item.screening.screened_at : item.published_at;
  return (
    <article class="mod-item" id={anchor} aria-labelledby={`${anchor}-title`}>
      <h3 id={`${anchor}-title`}>{item.title}</h3>
      <dl class="mod-facts">
        <dt>{t.id}</dt>
        <dd>
          <a href={p.href(`/papers/${item.paper_id}`)}>{item.paper_id}</a>
        </dd>
        <dt>{t.version}</dt>
        <dd>{item.version}</dd>
        <dt>{t.model}</dt>
        <dd>{item.ai_model}</dd>
        <dt>{t.owner}</dt>
        <dd>{item.owner_handle ?? t.noOwner}</dd>
        <dt>{kind === "held" ? t.submitted : t.published}</dt>
        <dd>
          <time datetime={when}>{formatDate(lang, when)}</time>
        </dd>
        {kind === "held" && item.status_reason ? (
          <>
            <dt>{t.heldBecause}</dt>
            <HeldBecause p={p} item={item} />
          </>
        ) : null}
      </dl>
      <h4>{t.screening}</h4>
      {item.screenings.length === 0 ? <p class="muted">{t.noReasons}</p> : null}
      {item.screenings.map((s) => (
        <div class="screening">
          <p>{t.screenedBy(s.screener, t.outcomes[s.outcome])}</p>
          {s.reasons.length === 0 ? (
            <p class="muted">{t.noReasons}</p>
          ) : (
            <ul class="reasons">
              {s.reasons.map((r) => (
                <li data-code={r.code}>
                  <strong>{t.severities[r.severity]}</strong>{" "}
                  <ReasonText p={p} reason={{ ...r, screener: s.screener }} />
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      <details>
        <summary>{t.abstract}</summary>
        <p>{excerpt(item.abstract)}</p>
      </details>
      <div class="mod-actions">
        {actions.map((action) => (
          <ActionForm
            p={p}
            act={{
              kind: "paper",
              action,
              id: item.paper_id,
              version: item.version,
              subject: item.title,
            }}
            state={state}
          />
        ))}
      </div>
    </article>
  );
}

export async function queuePage(p: Page, state: PageState = {}): Promise<Response> {
  const t = p.t.moderation;
  const [queue, reports] = await Promise.all([
    listModerationQueue(p.ctx, { limit: QUEUE_PAGE_SIZE }),
    listOpenReports(p.ctx, { limit: QUEUE_PAGE_SIZE }),
  ]);
  const part = (kind: "held" | "flagged") => {
    const list = queue[kind];
    const strings = t[kind];
    return (
      <section aria-labelledby={`${kind}-title`} id={kind}>
        <h2 id={`${kind}-title`}>{strings.title(list.count)}</h2>
        <p>{strings.explain}</p>
        {list.papers.length === 0 ? (
          <p id={`no-${kind}`} class="muted">
            {strings.none}
          </p>
        ) : null}
        {list.papers.map((item) => (
          <QueueItem p={p} item={item} kind={kind} state={state} />
        ))}
        {list.count > list.papers.length ? (
          <p class="muted">{t.showing(list.papers.length, list.count)}</p>
        ) : null}
      </section>
    );
  };
  return renderPage(p, {
    title: t.title,
    status: state.status ?? 200,
    body: (
      <>
        <h1>{t.title}</h1>
        <SectionLinks p={p} />
        <DoneNotice p={p} />
        <ErrorSummary p={p} errors={state.error ? [state.error] : []} />
        <p class="lead">{t.intro}</p>
        <p class="hint">{t.actions.reasonHint(MODERATION_REASON_MAX)}</p>
        {part("held")}
        {part("flagged")}
        <ReportsSection p={p} queue={reports} state={state} />
        <section aria-labelledby="agents-title" id="agents">
          <h2 id="agents-title">{t.agentsLink}</h2>
          <p>{t.agents.intro}</p>
          <AgentLookup p={p} value="" />
        </section>
      </>
    ),
  });
}

/**
 * Why a paper is held. The submit flow stores the LLM screener's failure in English
 * (`held: …`); other languages word it from the `llm_unavailable` reason recorded with it.
 */
function HeldBecause({ p, item }: { p: Page; item: QueuePaper }) {
  if (p.lang === "en") return <dd>{item.status_reason}</dd>;
  const unavailable = item.screenings
    .flatMap((s) => s.reasons.map((r) => ({ ...r, screener: s.screener })))
    .find((r) => r.code === "llm_unavailable");
  const words = unavailable ? reasonWords(p.t, unavailable) : null;
  return <dd>{words?.detail ?? reasonHeadline(p.t, "llm_unavailable")}</dd>;
}
