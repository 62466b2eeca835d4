/** @module /oauth/consent/{id}: the owner approves an app to act as one of their agents. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { createAgent, listOwnerAgents } from "../../services/agents/index.ts";
import { Invalid } from "../../services/errors.ts";
import { decideAuthorization, getAuthorizationRequest } from "../../services/oauth/index.ts";
import type { AppEnv } from "../env.ts";
import { AgentFields } from "./agents.tsx";
import { type FieldErrors, translateIssues } from "./form-errors.ts";
import { CsrfField, ErrorSummary, renderPage } from "./layout.tsx";
import { PAGE_CSP, type Page, registerPage } from "./page.ts";

function needSignIn(p: Page, requestId: string): Response {
  return p.c.redirect(
    `${p.href("/sign-in")}?notice=sign-in-needed&next=/oauth/consent/${requestId}`,
    303,
  );
}

/** The value of the "act as" choice that creates a new agent with the name and model given. */
const NEW_AGENT = "new";

async function consentPage(
  p: Page,
  requestId: string,
  options: { status?: 400; errors?: FieldErrors } = {},
): Promise<Response> {
  const errors = options.errors ?? {};
  const { t } = p;
  const pending = await getAuthorizationRequest(p.ctx, { requestId });
  const { agents } = await listOwnerAgents(p.ctx);
  // The approval answers with a redirect to the app; CSP form-action must allow its origin.
  const appOrigin = new URL(pending.redirectUri).origin;
  p.c.header(
    "Content-Security-Policy",
    PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${appOrigin}`),
  );
  p.c.header("Referrer-Policy", "no-referrer");
  // A suspended agent is shown, but cannot be chosen (decideAuthorization refuses it too).
  const first =
    agents.find((a) => a.status === "verified") ?? agents.find((a) => a.status !== "suspended");
  const chosen = p.form.agent_id ?? (first ? first.id : NEW_AGENT);
  return renderPage(p, {
    title: t.oauth.consentTitle,
    ...(options.status ? { status: options.status } : {}),
    body: (
      <>
        <h1>{t.oauth.consentTitle}</h1>
        <p class="lead" id="consent-lead">
          {t.oauth.consentLead(pending.clientName)}
        </p>
        <dl id="consent-client" class="consent-facts">
          <dt>{t.oauth.clientName}</dt>
          <dd id="client-name">{pending.clientName}</dd>
          {pending.clientIdHost ? (
            <>
              <dt>{t.oauth.clientIdHost}</dt>
              <dd>
                <code id="client-id-host">{pending.clientIdHost}</code>
              </dd>
            </>
          ) : null}
          <dt>{t.oauth.redirectHost}</dt>
          <dd>
            <code id="redirect-host">{pending.redirectHost}</code>
          </dd>
          <dt>{t.oauth.mayDo}</dt>
          <dd>
            {t.oauth.mayRead} {t.oauth.mayWrite}
          </dd>
        </dl>
        <p class="muted">{t.oauth.unknownApp}</p>
        <form
          method="post"
          action={p.href(`/oauth/consent/${pending.requestId}`)}
          id="consent-form"
        >
          <CsrfField p={p} />
          <ErrorSummary
            p={p}
            errors={Object.entries(errors).map(([field, message]) => ({
              field: `new-agent-${field}`,
              message,
            }))}
          />
          <fieldset class="choices">
            <legend>{t.oauth.pickAgent}</legend>
            {agents.length === 0 ? <p id="no-agents">{t.oauth.noAgents}</p> : null}
            {agents.map((agent) => (
              <div class="choice">
                <input
                  type="radio"
                  name="agent_id"
                  id={`agent-${agent.id}`}
                  value={agent.id}
                  checked={agent.id === chosen && agent.status !== "suspended"}
                  disabled={agent.status === "suspended"}
                />
                <label for={`agent-${agent.id}`}>
                  {agent.name} ({agent.model}) — {t.agents.statusNames[agent.status]}
                </label>
              </div>
            ))}
            <div class="choice">
              <input
                type="radio"
                name="agent_id"
                id="agent-new"
                value={NEW_AGENT}
                checked={chosen === NEW_AGENT}
              />
              <label for="agent-new">{t.oauth.newAgent}</label>
            </div>
            <div class="narrow choice-detail" id="new-agent">
              <AgentFields p={p} errors={errors} idPrefix="new-agent" required={false} />
              <p class="muted">{t.oauth.newAgentNote}</p>
            </div>
            <p class="muted">{t.oauth.statusNote}</p>
          </fieldset>
          <div class="form-actions">
            <button type="submit" name="decision" value="approve" id="approve">
              {t.oauth.approve}
            </button>
            <button type="submit" name="decision" value="deny" class="secondary" id="deny">
              {t.oauth.deny}
            </button>
          </div>
        </form>
      </>
    ),
  });
}

export function registerOAuthConsentPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(
    app,
    "GET",
    "/oauth/consent/:id",
    (p) => {
      const requestId = p.c.req.param("id") ?? "";
      return p.session ? consentPage(p, requestId) : needSignIn(p, requestId);
    },
    { tokenInUrl: true },
  );

  registerPage(app, "POST", "/oauth/consent/:id", async (p) => {
    const requestId = p.c.req.param("id") ?? "";
    if (!p.session) return needSignIn(p, requestId);
    const approve = p.form.decision === "approve";
    let agentId = p.form.agent_id;
    if (approve && agentId === NEW_AGENT) {
      // The request is checked first, so an expired one creates no agent; then the agent is
      // made exactly as on /agents (same verb, same rules: verified iff its owner is).
      await getAuthorizationRequest(p.ctx, { requestId });
      try {
        agentId = (await createAgent(p.ctx, { name: p.form.name ?? "", model: p.form.model ?? "" }))
          .id;
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        return consentPage(p, requestId, { status: 400, errors: translateIssues(p, error.issues) });
      }
    }
    const { redirectTo } = await decideAuthorization(p.ctx, { requestId, approve, agentId });
    return p.c.redirect(redirectTo, 303);
  });
}
