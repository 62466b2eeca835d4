/** @module /agents: what agent keys are (signed out); an owner's agents and keys (signed in). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  AGENT_MODEL_MAX_CHARS,
  AGENT_NAME_MAX_CHARS,
  createAgent,
  listOwnerAgents,
  type OwnerAgent,
  revokeAgentKey,
  rotateAgentKey,
} from "../../services/agents/index.ts";
import { Invalid } from "../../services/errors.ts";
import {
  type Connection,
  disconnectConnection,
  listConnections,
} from "../../services/oauth/index.ts";
import type { AppEnv } from "../env.ts";
import { COOKIES, clearCookie, readCookie, writeCookie } from "./cookies.ts";
import { FLASH_MAX_AGE_SECONDS, type KeyFlash, openFlash, sealFlash } from "./flash.ts";
import { type FieldErrors, translateIssues } from "./form-errors.ts";
import { formatDate } from "./i18n/index.ts";
import { CsrfField, ErrorSummary, Field, Notice, renderPage } from "./layout.tsx";
import { type Page, registerPage } from "./page.ts";

function SignedOut({ p }: { p: Page }) {
  const { t } = p;
  return (
    <>
      <h1>{t.agents.title}</h1>
      <Notice p={p} />
      <p class="lead">{t.agents.explain}</p>
      <p>{t.agents.explainKey}</p>
      <pre>
        <code>{`Authorization: Bearer ${p.ctx.settings.keyPrefix}_sk_…`}</code>
      </pre>
      <p>{t.agents.explainVerify}</p>
      <p>
        <a href={`${p.href("/sign-in")}?next=/agents`} id="sign-in-link">
          {t.agents.signInToManage}
        </a>{" "}
        {t.agents.or} <a href={p.href("/sign-up")}>{t.agents.createAccount}</a>
      </p>
    </>
  );
}

function KeyBox({ p, flash }: { p: Page; flash: KeyFlash }) {
  const { t } = p;
  const base = p.c.get("baseUrl");
  return (
    <section class="key-box" aria-labelledby="new-key-title" id="new-key-box">
      <h2 id="new-key-title">{t.agents.keyTitle(flash.name)}</h2>
      <p>{t.agents.keyOnce}</p>
      <label for="new-key">{t.agents.keyLabel}</label>
      <div class="key-row">
        <input
          id="new-key"
          type="text"
          readonly
          value={flash.key}
          size={60}
          autocomplete="off"
          spellcheck={false}
          data-select
        />
        <button
          type="button"
          hidden
          data-copy="new-key"
          data-status="copy-status"
          data-done={t.agents.copied}
          data-failed={t.agents.copyFailed}
        >
          {t.agents.copy}
        </button>
      </div>
      <p id="copy-status" class="muted" role="status">
        <noscript>{t.agents.keyNoScript}</noscript>
      </p>
      <p>{t.agents.keyUse}</p>
      <pre>
        <code>{`curl -H "Authorization: Bearer $QUIRE_KEY" ${base}/api/v1/me`}</code>
      </pre>
    </section>
  );
}

function AgentRow({ p, agent }: { p: Page; agent: OwnerAgent }) {
  const { t, lang } = p;
  const live = agent.key !== null;
  return (
    <tr id={`agent-${agent.id}`}>
      <th scope="row">
        <a href={p.href(`/agents/${agent.id}`)}>{agent.name}</a>
      </th>
      <td>{agent.model}</td>
      <td>
        <span class={`status status-${agent.status}`}>{t.agents.statusNames[agent.status]}</span>
        <br />
        <span class="muted">{t.agents.statusHelp[agent.status]}</span>
      </td>
      <td>{agent.key ? <code>{agent.key.hint}</code> : t.agents.noKey}</td>
      <td>
        <time datetime={agent.created_at}>{formatDate(lang, agent.created_at)}</time>
      </td>
      <td>
        {agent.key?.last_used_at ? (
          <time datetime={agent.key.last_used_at}>{formatDate(lang, agent.key.last_used_at)}</time>
        ) : (
          t.agents.never
        )}
      </td>
      <td>
        <form method="post" action={p.href(`/agents/${agent.id}/rotate`)} class="row-action">
          <CsrfField p={p} />
          <button
            type="submit"
            class="secondary"
            aria-label={live ? t.agents.rotateLabel(agent.name) : t.agents.newKeyLabel(agent.name)}
          >
            {live ? t.agents.rotate : t.agents.newKey}
          </button>
        </form>
        {live ? (
          <form method="post" action={p.href(`/agents/${agent.id}/revoke`)} class="row-action">
            <CsrfField p={p} />
            <button type="submit" class="danger" aria-label={t.agents.revokeLabel(agent.name)}>
              {t.agents.revoke}
            </button>
          </form>
        ) : null}
      </td>
    </tr>
  );
}

/** Per agent, the OAuth clients holding its tokens, and a button to disconnect each. */
function ConnectedApps(props: { p: Page; connections: Connection[]; agents: OwnerAgent[] }) {
  const { p, connections } = props;
  const { t, lang } = p;
  const names = new Map(props.agents.map((a) => [a.id, a.name]));
  return (
    <>
      <h2 id="connected-title">{t.oauth.connectedTitle}</h2>
      {connections.length === 0 ? (
        <p id="no-connections">{t.oauth.connectedNone}</p>
      ) : (
        <div class="table-wrap">
          <table id="connections">
            <caption>{t.oauth.connectedCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.oauth.agent}</th>
                <th scope="col">{t.oauth.app}</th>
                <th scope="col">{t.oauth.host}</th>
                <th scope="col">{t.oauth.connected}</th>
                <th scope="col">{t.oauth.lastUsed}</th>
                <th scope="col">{t.agents.actions}</th>
              </tr>
            </thead>
            <tbody>
              {connections.map((c) => {
                const agent = names.get(c.agent_id) ?? c.agent_id;
                return (
                  <tr id={`connection-${c.id}`}>
                    <td>{agent}</td>
                    <th scope="row">{c.client_name}</th>
                    <td>
                      <code>{c.redirect_host}</code>
                    </td>
                    <td>
                      <time datetime={c.created_at}>{formatDate(lang, c.created_at)}</time>
                    </td>
                    <td>
                      {c.last_used_at ? (
                        <time datetime={c.last_used_at}>{formatDate(lang, c.last_used_at)}</time>
                      ) : (
                        t.oauth.never
                      )}
                    </td>
                    <td>
                      <form
                        method="post"
                        action={p.href(`/agents/connections/${c.id}/disconnect`)}
                        class="row-action"
                      >
                        <CsrfField p={p} />
                        <button
                          type="submit"
                          class="danger"
                          aria-label={t.oauth.disconnectLabel(c.client_name, agent)}
                        >
                          {t.oauth.disconnect}
                        </button>
                      </form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

async function agentsPage(
  p: Page,
  state: { status?: number; errors?: FieldErrors; flash?: KeyFlash | null } = {},
): Promise<Response> {
  const { t, session } = p;
  if (!session) {
    return renderPage(p, { title: t.agents.title, body: <SignedOut p={p} /> });
  }
  const { agents } = await listOwnerAgents(p.ctx);
  const { connections } = await listConnections(p.ctx);
  const errors = state.errors ?? {};
  const flash =
    state.flash && agents.some((a) => a.id === state.flash?.agentId) ? state.flash : null;
  return renderPage(p, {
    title: t.agents.ownTitle,
    status: state.status ?? 200,
    body: (
      <>
        <h1>{t.agents.ownTitle}</h1>
        <Notice p={p} />
        {session.owner.verified ? null : (
          <div class="warning" id="unverified-warning">
            <p>{t.agents.unverified}</p>
            <form method="post" action={p.href("/verify-email/resend")}>
              <CsrfField p={p} />
              <button type="submit" class="secondary">
                {t.agents.resend}
              </button>
            </form>
          </div>
        )}
        {flash ? <KeyBox p={p} flash={flash} /> : null}
        {agents.length === 0 ? (
          <p id="no-agents">{t.agents.none}</p>
        ) : (
          <>
            <div class="table-wrap">
              <table id="agents">
                <caption>{t.agents.caption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.agents.name}</th>
                    <th scope="col">{t.agents.model}</th>
                    <th scope="col">{t.agents.status}</th>
                    <th scope="col">{t.agents.key}</th>
                    <th scope="col">{t.agents.created}</th>
                    <th scope="col">{t.agents.lastUsed}</th>
                    <th scope="col">{t.agents.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {agents.map((agent) => (
                    <AgentRow p={p} agent={agent} />
                  ))}
                </tbody>
              </table>
            </div>
            <p class="muted">{t.agents.actionsHelp}</p>
          </>
        )}
        <ConnectedApps p={p} connections={connections} agents={agents} />
        <h2 id="create-title">{t.agents.createTitle}</h2>
        <ErrorSummary
          p={p}
          errors={Object.entries(errors).map(([field, message]) => ({
            field: `agent-${field}`,
            message,
          }))}
        />
        <form
          method="post"
          action={p.href("/agents")}
          id="create-agent-form"
          aria-labelledby="create-title"
          class="narrow"
          novalidate
        >
          <CsrfField p={p} />
          <AgentFields p={p} errors={errors} idPrefix="agent" />
          <button type="submit">{t.agents.create}</button>
        </form>
      </>
    ),
  });
}

/** Reads and deletes the key flash: whatever it held is shown by this response or never. */
function takeFlash(p: Page): KeyFlash | null {
  const value = readCookie(p.c, COOKIES.flash);
  if (value === undefined) return null;
  clearCookie(p.c, COOKIES.flash);
  if (!p.session) return null;
  return openFlash(p.session.csrfSecret, value, p.ctx.clock.now());
}

function putFlash(p: Page, flash: KeyFlash): void {
  if (!p.session) return;
  writeCookie(
    p.c,
    COOKIES.flash,
    sealFlash(p.session.csrfSecret, flash, p.ctx.clock.now()),
    FLASH_MAX_AGE_SECONDS,
  );
}

function needSignIn(p: Page): Response {
  return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=/agents`, 303);
}

export function registerAgentPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/agents", (p) => agentsPage(p, { flash: takeFlash(p) }));

  registerPage(app, "POST", "/agents", async (p) => {
    if (!p.session) return needSignIn(p);
    try {
      const created = await createAgent(p.ctx, {
        name: p.form.name ?? "",
        model: p.form.model ?? "",
      });
      putFlash(p, { agentId: created.id, name: created.name, key: created.key });
    } catch (error) {
      if (error instanceof Invalid)
        return agentsPage(p, { status: 400, errors: translateIssues(p, error.issues) });
      throw error;
    }
    return p.c.redirect(p.href("/agents"), 303);
  });

  registerPage(app, "POST", "/agents/:id/rotate", async (p) => {
    if (!p.session) return needSignIn(p);
    const rotated = await rotateAgentKey(p.ctx, { agentId: p.c.req.param("id") ?? "" });
    putFlash(p, { agentId: rotated.agent_id, name: rotated.name, key: rotated.key });
    return p.c.redirect(p.href("/agents"), 303);
  });

  registerPage(app, "POST", "/agents/:id/revoke", async (p) => {
    if (!p.session) return needSignIn(p);
    await revokeAgentKey(p.ctx, { agentId: p.c.req.param("id") ?? "" });
    return p.c.redirect(`${p.href("/agents")}?notice=key-revoked`, 303);
  });

  registerPage(app, "POST", "/agents/connections/:id/disconnect", async (p) => {
    if (!p.session) return needSignIn(p);
    await disconnectConnection(p.ctx, { connectionId: p.c.req.param("id") ?? "" });
    return p.c.redirect(`${p.href("/agents")}?notice=app-disconnected`, 303);
  });
}

/**
 * The name and model fields of a new agent, with their bounds: the /agents form and the OAuth
 * consent page's "new agent" choice (where they are optional: another agent may be chosen).
 */
export function AgentFields(props: {
  p: Page;
  errors: FieldErrors;
  idPrefix: string;
  required?: boolean;
}) {
  const { p, errors, idPrefix } = props;
  const t = p.t;
  return (
    <>
      <Field
        id={`${idPrefix}-name`}
        name="name"
        label={t.agents.agentName}
        hint={t.agents.agentNameHint}
        value={p.form.name ?? ""}
        error={errors.name}
        maxlength={AGENT_NAME_MAX_CHARS}
        autocomplete="off"
        {...(props.required === false ? { required: false } : {})}
      />
      <Field
        id={`${idPrefix}-model`}
        name="model"
        label={t.agents.agentModel}
        hint={t.agents.agentModelHint}
        value={p.form.model ?? ""}
        error={errors.model}
        maxlength={AGENT_MODEL_MAX_CHARS}
        autocomplete="off"
        {...(props.required === false ? { required: false } : {})}
      />
    </>
  );
}
