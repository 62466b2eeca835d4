/** @module /moderation/agents: look an agent up, see its moderation history, suspend or reinstate it. */
import { NotFound } from "../../../services/errors.ts";
import type { ModeratedAgent, ModerationEvent } from "../../../services/moderation/index.ts";
import { getModeratedAgent, listModerationEvents } from "../../../services/moderation/index.ts";
import { formatDate } from "../i18n/index.ts";
import { ErrorSummary, renderPage } from "../layout.tsx";
import type { Page } from "../page.ts";
import {
  ActionForm,
  type AgentAction,
  AgentLookup,
  actorName,
  DoneNotice,
  eventReason,
  type PageState,
  SectionLinks,
} from "./parts.tsx";

function AgentHistory({ p, events }: { p: Page; events: ModerationEvent[] }) {
  const t = p.t.moderation;
  if (events.length === 0) return <p class="muted">{t.agents.noHistory}</p>;
  return (
    <ul class="mod-history">
      {events.map((e) => (
        <li>
          <time datetime={e.created_at}>{formatDate(p.lang, e.created_at)}</time> —{" "}
          {t.log.actions[e.action] ?? e.action} ({actorName(p, e)}): {eventReason(p, e)}
        </li>
      ))}
    </ul>
  );
}

export async function agentPage(
  p: Page,
  agentId: string,
  state: PageState = {},
): Promise<Response> {
  const t = p.t.moderation;
  let agent: ModeratedAgent | null = null;
  let status = state.status ?? 200;
  let lookupError: string | undefined;
  if (agentId) {
    try {
      agent = await getModeratedAgent(p.ctx, { agentId });
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      status = 404;
      lookupError = t.errors.agentNotFound;
    }
  }
  const history = agent
    ? (await listModerationEvents(p.ctx, { targetType: "agent", targetId: agent.id, limit: 20 }))
        .events
    : [];
  const errors = [
    ...(state.error ? [state.error] : []),
    ...(lookupError ? [{ field: "agent-id", message: lookupError }] : []),
  ];
  const action: AgentAction | null = agent
    ? agent.status === "suspended"
      ? "reinstate"
      : "suspend"
    : null;
  return renderPage(p, {
    title: t.agents.title,
    status,
    body: (
      <>
        <h1>{t.agents.title}</h1>
        <SectionLinks p={p} />
        <DoneNotice p={p} />
        <ErrorSummary p={p} errors={errors} />
        <p class="lead">{t.agents.intro}</p>
        <AgentLookup p={p} value={agentId} error={lookupError} />
        {agent && action ? (
          <section aria-labelledby="agent-title" id={`agent-${agent.id}`}>
            <h2 id="agent-title">{agent.name}</h2>
            <dl class="mod-facts">
              <dt>{t.agents.lookupLabel}</dt>
              <dd>
                <code>{agent.id}</code>
              </dd>
              <dt>{t.agents.model}</dt>
              <dd>{agent.model}</dd>
              <dt>{t.agents.owner}</dt>
              <dd>{agent.owner_handle}</dd>
              <dt>{t.agents.status}</dt>
              <dd>
                <span class={`status status-${agent.status}`} id="agent-status">
                  {p.t.agents.statusNames[agent.status]}
                </span>
              </dd>
              <dt>{t.agents.created}</dt>
              <dd>
                <time datetime={agent.created_at}>{formatDate(p.lang, agent.created_at)}</time>
              </dd>
            </dl>
            <ActionForm
              p={p}
              act={{ kind: "agent", action, id: agent.id, subject: agent.name }}
              state={state}
            />
            <h3>{t.agents.history}</h3>
            <AgentHistory p={p} events={history} />
          </section>
        ) : null}
      </>
    ),
  });
}
