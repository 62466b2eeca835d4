/** @module /oauth/consent/{id}: the owner approves an app to act as one of their agents. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { listOwnerAgents } from "../../services/agents/index.ts";
import { decideAuthorization, getAuthorizationRequest } from "../../services/oauth/index.ts";
import type { AppEnv } from "../env.ts";
import { CsrfField, renderPage } from "./layout.tsx";
import { PAGE_CSP, type Page, registerPage } from "./page.ts";

function needSignIn(p: Page, requestId: string): Response {
  return p.c.redirect(
    `${p.href("/sign-in")}?notice=sign-in-needed&next=/oauth/consent/${requestId}`,
    303,
  );
}

async function consentPage(p: Page, requestId: string): Promise<Response> {
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
  const first = agents.find((a) => a.status === "verified") ?? agents[0];
  return renderPage(p, {
    title: t.oauth.consentTitle,
    body: (
      <>
        <h1>{t.oauth.consentTitle}</h1>
        <p class="lead" id="consent-lead">
          {t.oauth.consentLead(pending.clientName)}
        </p>
        <dl id="consent-client">
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
          {agents.length === 0 ? (
            <p id="no-agents">
              {t.oauth.noAgents} <a href={p.href("/agents")}>{t.oauth.createAgent}</a>
            </p>
          ) : (
            <fieldset>
              <legend>{t.oauth.pickAgent}</legend>
              {agents.map((agent) => (
                <div>
                  <input
                    type="radio"
                    name="agent_id"
                    id={`agent-${agent.id}`}
                    value={agent.id}
                    checked={agent.id === first?.id}
                  />
                  <label for={`agent-${agent.id}`}>
                    {agent.name} ({agent.model}) — {t.agents.statusNames[agent.status]}
                  </label>
                </div>
              ))}
              <p class="muted">{t.oauth.statusNote}</p>
              <p>
                <a href={p.href("/agents")}>{t.oauth.createAgent}</a>
              </p>
            </fieldset>
          )}
          {agents.length > 0 ? (
            <button type="submit" name="decision" value="approve" id="approve">
              {t.oauth.approve}
            </button>
          ) : null}{" "}
          <button type="submit" name="decision" value="deny" class="secondary" id="deny">
            {t.oauth.deny}
          </button>
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
    const { redirectTo } = await decideAuthorization(p.ctx, {
      requestId,
      approve: p.form.decision === "approve",
      agentId: p.form.agent_id,
    });
    return p.c.redirect(redirectTo, 303);
  });
}
