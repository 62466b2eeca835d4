/**
 * @module /moderation (the queue of held and flagged papers), /moderation/log and
 * /moderation/agents, for owners with the moderator role. Everyone else gets a 404 (the
 * pages' existence is not advertised); signed-out visitors are sent to sign in.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ServiceContext } from "../../services/context.ts";
import { Conflict, Invalid, NotFound } from "../../services/errors.ts";
import { approvePaper } from "../../services/moderation/approve-paper.ts";
import { isModerator } from "../../services/moderation/authorize.ts";
import { clearPaperFlag } from "../../services/moderation/clear-flag.ts";
import { getModeratedAgent } from "../../services/moderation/get-agent.ts";
import { listModerationEvents } from "../../services/moderation/list-events.ts";
import { listModerationQueue } from "../../services/moderation/queue.ts";
import { reinstateAgent } from "../../services/moderation/reinstate-agent.ts";
import { rejectPaper } from "../../services/moderation/reject-paper.ts";
import { removePaper } from "../../services/moderation/remove-paper.ts";
import {
  MODERATION_REASON_MAX,
  type ModeratedAgent,
  type ModerationEvent,
  OPERATOR_REASONS,
  type PaperActionInput,
  type QueuePaper,
} from "../../services/moderation/schemas.ts";
import { suspendAgent } from "../../services/moderation/suspend-agent.ts";
import type { AppEnv } from "../env.ts";
import { formatDate } from "./i18n/index.ts";
import { CsrfField, ErrorSummary, Field, renderPage } from "./layout.tsx";
import { type Page, registerPage, renderError } from "./page.ts";
import { ReasonText, reasonHeadline, reasonWords } from "./screening-reasons.tsx";

type PaperAction = "approve" | "reject" | "clear" | "remove";

/** Papers shown per queue, and abstract excerpts, keep the page light (< 100 KB) when full. */
const QUEUE_PAGE_SIZE = 15;
const ABSTRACT_EXCERPT = 300;

function excerpt(text: string): string {
  const chars = [...text];
  return chars.length <= ABSTRACT_EXCERPT ? text : `${chars.slice(0, ABSTRACT_EXCERPT).join("")}…`;
}
type AgentAction = "suspend" | "reinstate";
type Done = keyof Page["t"]["moderation"]["done"];

/** URL segment → action, the service verb that does it and the notice shown after. */
const PAPER_ACTIONS: Record<
  string,
  {
    action: PaperAction;
    run: (ctx: ServiceContext, input: PaperActionInput) => Promise<unknown>;
    done: Done;
  }
> = {
  approve: { action: "approve", run: approvePaper, done: "approved" },
  reject: { action: "reject", run: rejectPaper, done: "rejected" },
  "clear-flag": { action: "clear", run: clearPaperFlag, done: "cleared" },
  remove: { action: "remove", run: removePaper, done: "removed" },
};
const SEGMENT: Record<PaperAction, string> = {
  approve: "approve",
  reject: "reject",
  clear: "clear-flag",
  remove: "remove",
};

interface PageError {
  /** The id of the field at fault (a reason input); absent for a page-wide message. */
  field?: string;
  message: string;
}

interface PageState {
  status?: number;
  error?: PageError;
}

/** Signed out: sign in first. Signed in without the role: the same 404 as an unknown page. */
function guard(p: Page, next: string): Response | Promise<Response> | null {
  if (!p.session) {
    const status = p.c.req.method === "GET" ? 302 : 303;
    return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=${next}`, status);
  }
  if (!isModerator(p.ctx)) return renderError(p, 404);
  return null;
}

/** The field message for a refused reason, or null when the refusal is about something else. */
function reasonError(p: Page, error: Invalid): string | null {
  const issue = error.issues.find((i) => i.name === "reason");
  if (!issue) return null;
  const e = p.t.moderation.errors;
  if (issue.message === "is required") return e.reasonRequired;
  if (issue.message.startsWith("must be at most")) return e.reasonTooLong(MODERATION_REASON_MAX);
  return e.reasonInvalid;
}

function DoneNotice({ p }: { p: Page }) {
  const done = p.c.req.query("done");
  const notices = p.t.moderation.done;
  if (!done || !Object.hasOwn(notices, done)) return null;
  return (
    <p class="notice" role="status" id="notice">
      {notices[done as Done]}
    </p>
  );
}

/**
 * One moderation action on its target: a paper in the queue (at the version shown) or an
 * agent. `subject` (the title or the name) names the target on the button for screen readers.
 */
type ModerationAction =
  | { kind: "paper"; action: PaperAction; id: string; version: number; subject: string }
  | { kind: "agent"; action: AgentAction; id: string; subject: string };

/**
 * The id of an action's reason field. The POST handlers name the same field when they refuse
 * the reason, so the message lands next to it.
 */
function reasonFieldId(act: Pick<ModerationAction, "kind" | "action" | "id">): string {
  return act.kind === "paper" ? `${act.action}-${act.id}` : `${act.action}-agent`;
}

/** Where an action's form posts. */
function actionPath(act: ModerationAction): string {
  return act.kind === "paper"
    ? `/moderation/papers/${act.id}/${SEGMENT[act.action]}`
    : `/moderation/agents/${act.id}/${act.action}`;
}

/**
 * The form of any moderation action (remove, approve, reject or clear a paper's flag;
 * suspend or reinstate an agent): a required reason and the button. A paper's form carries
 * the version the moderator saw, so acting on a newer one is a conflict.
 */
function ActionForm({ p, act, state }: { p: Page; act: ModerationAction; state: PageState }) {
  const { action } = act;
  const t = p.t.moderation.actions;
  const id = reasonFieldId(act);
  const error = state.error?.field === id ? state.error.message : undefined;
  const danger = action === "remove" || action === "reject" || action === "suspend";
  return (
    <form method="post" action={p.href(actionPath(act))} class="mod-action" id={`form-${id}`}>
      <CsrfField p={p} />
      {act.kind === "paper" ? (
        <input type="hidden" name="version" value={String(act.version)} />
      ) : null}
      <Field
        id={id}
        name="reason"
        label={t.reasonFor[action]}
        value={error ? (p.form.reason ?? "") : ""}
        error={error}
        maxlength={MODERATION_REASON_MAX}
        autocomplete="off"
      />
      <button
        type="submit"
        class={danger ? "danger" : undefined}
        aria-label={t.on(t[action], act.subject)}
      >
        {t[action]}
      </button>
    </form>
  );
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

function AgentLookup({ p, value, error }: { p: Page; value: string; error?: string | undefined }) {
  const t = p.t.moderation.agents;
  return (
    <form method="get" action={p.href("/moderation/agents")} class="narrow" id="agent-lookup">
      <Field
        id="agent-id"
        name="id"
        label={t.lookupLabel}
        hint={t.lookupHint}
        value={value}
        error={error}
        maxlength={64}
        autocomplete="off"
      />
      <button type="submit" class="secondary">
        {t.lookup}
      </button>
    </form>
  );
}

function SectionLinks({ p }: { p: Page }) {
  const t = p.t.moderation;
  const links = [
    { path: "/moderation", label: t.title },
    { path: "/moderation/log", label: t.logLink },
    { path: "/moderation/agents", label: t.agentsLink },
  ];
  return (
    <nav aria-label={t.sections} class="mod-nav">
      <ul class="inline-list">
        {links.map((l) => (
          <li>
            <a href={p.href(l.path)} aria-current={p.path === l.path ? "page" : undefined}>
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

async function queuePage(p: Page, state: PageState = {}): Promise<Response> {
  const t = p.t.moderation;
  const queue = await listModerationQueue(p.ctx, { limit: QUEUE_PAGE_SIZE });
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
        <section aria-labelledby="agents-title" id="agents">
          <h2 id="agents-title">{t.agentsLink}</h2>
          <p>{t.agents.intro}</p>
          <AgentLookup p={p} value="" />
        </section>
      </>
    ),
  });
}

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

async function agentPage(p: Page, agentId: string, state: PageState = {}): Promise<Response> {
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

function actorName(p: Page, event: ModerationEvent): string {
  return event.actor_owner_id === null && event.actor === "operator"
    ? p.t.moderation.log.operator
    : event.actor;
}

/** "published → removed, version 1" from an entry's details, when they say so. */
function detailsText(p: Page, details: unknown): string {
  const t = p.t.moderation.log;
  if (!details || typeof details !== "object") return "";
  const d = details as { from?: unknown; to?: unknown; version?: unknown };
  const parts: string[] = [];
  if (typeof d.from === "string" && typeof d.to === "string" && d.from !== d.to) {
    parts.push(t.change(t.states[d.from] ?? d.from, t.states[d.to] ?? d.to));
  }
  if (typeof d.version === "number") parts.push(t.versionOf(d.version));
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
  return <code>{event.target_id}</code>;
}

async function logPage(p: Page): Promise<Response> {
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
            maxlength={64}
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

function parseVersion(value: string | undefined): number | undefined | null {
  if (value === undefined || value === "") return undefined;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}

export function registerModerationPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/moderation", (p) => guard(p, "/moderation") ?? queuePage(p));

  registerPage(app, "POST", "/moderation/papers/:id/:action", async (p) => {
    const blocked = guard(p, "/moderation");
    if (blocked) return blocked;
    const entry = PAPER_ACTIONS[p.c.req.param("action") ?? ""];
    const version = parseVersion(p.form.version);
    if (!entry) return renderError(p, 404);
    if (version === null) return renderError(p, 400);
    const paperId = p.c.req.param("id") ?? "";
    try {
      await entry.run(p.ctx, { paperId, reason: p.form.reason ?? "", version });
    } catch (error) {
      if (error instanceof Invalid) {
        const message = reasonError(p, error);
        if (!message) return renderError(p, 400);
        return queuePage(p, {
          status: 400,
          error: {
            field: reasonFieldId({ kind: "paper", action: entry.action, id: paperId }),
            message,
          },
        });
      }
      if (error instanceof Conflict) {
        return queuePage(p, { status: 409, error: { message: p.t.moderation.errors.stale } });
      }
      throw error;
    }
    return p.c.redirect(`${p.href("/moderation")}?done=${entry.done}`, 303);
  });

  registerPage(app, "GET", "/moderation/log", (p) => guard(p, "/moderation/log") ?? logPage(p));

  registerPage(
    app,
    "GET",
    "/moderation/agents",
    (p) => guard(p, "/moderation/agents") ?? agentPage(p, (p.c.req.query("id") ?? "").trim()),
  );

  registerPage(app, "POST", "/moderation/agents/:id/:action", async (p) => {
    const blocked = guard(p, "/moderation/agents");
    if (blocked) return blocked;
    const action = p.c.req.param("action");
    if (action !== "suspend" && action !== "reinstate") return renderError(p, 404);
    const agentId = p.c.req.param("id") ?? "";
    const run = action === "suspend" ? suspendAgent : reinstateAgent;
    try {
      await run(p.ctx, { agentId, reason: p.form.reason ?? "" });
    } catch (error) {
      if (error instanceof Invalid) {
        const message = reasonError(p, error);
        if (!message) return renderError(p, 400);
        const field = reasonFieldId({ kind: "agent", action, id: agentId });
        return agentPage(p, agentId, { status: 400, error: { field, message } });
      }
      if (error instanceof Conflict) {
        // Reinstating a still-suspended agent fails only when its owner is unverified.
        const now = await getModeratedAgent(p.ctx, { agentId });
        const e = p.t.moderation.errors;
        const message =
          action === "reinstate" && now.status === "suspended" ? e.ownerUnverified : e.stale;
        return agentPage(p, agentId, { status: 409, error: { message } });
      }
      throw error;
    }
    const done: Done = action === "suspend" ? "suspended" : "reinstated";
    return p.c.redirect(
      `${p.href("/moderation/agents")}?id=${encodeURIComponent(agentId)}&done=${done}`,
      303,
    );
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

/** A log entry's reason: a moderator's own words, or the operator's default in the page's language. */
function eventReason(p: Page, e: ModerationEvent): string {
  if (e.actor !== "operator") return e.reason;
  const defaults = p.t.moderation.log.operatorReasons;
  for (const key of Object.keys(OPERATOR_REASONS) as (keyof typeof OPERATOR_REASONS)[]) {
    if (e.reason === OPERATOR_REASONS[key]) return defaults[key];
  }
  return e.reason;
}
