/** @module Error pages in the page's language (and the HTML 404/405 for browsers). */
import type { Context } from "hono";
import type { DomainError, FieldIssue } from "../../services/errors.ts";
import { NOT_UTF8 } from "../body-limit.ts";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./layout.tsx";
import { type Page, pageFor, renderDomainError, setPageHeaders } from "./page.ts";

const KNOWN = [400, 401, 403, 404, 405, 413, 415, 429, 500, 503] as const;
type Known = (typeof KNOWN)[number];

export async function renderErrorPage(
  p: Page,
  status: number,
  extra: { headers?: Record<string, string>; issues?: FieldIssue[]; detail?: string } = {},
): Promise<Response> {
  const { t } = p;
  const fields = [...new Set((extra.issues ?? []).map((i) => i.name))];
  const known: Known = (KNOWN as readonly number[]).includes(status)
    ? (status as Known)
    : status >= 500
      ? 500
      : 400;
  const requestId = p.c.get("requestId");
  return renderPage(p, {
    title: t.errorPage.title(status),
    status,
    ...(extra.headers ? { headers: extra.headers } : {}),
    body: (
      <div class="narrow">
        <h1>{t.errorPage.title(status)}</h1>
        <p id="error-message">{extra.detail ?? t.errorPage[known]}</p>
        {fields.length > 0 ? (
          <p id="error-fields">
            {(extra.issues ?? []).some((i) => i.message === NOT_UTF8.message)
              ? t.errorPage.notUtf8Fields
              : t.errorPage.fields}{" "}
            {fields.map((name, i) => (
              <>
                {i > 0 ? ", " : ""}
                <code>{name}</code>
              </>
            ))}
          </p>
        ) : null}
        {status >= 500 && requestId ? (
          <p class="muted">{t.errorPage.requestId(requestId)}</p>
        ) : null}
        <p>
          <a href={p.href("/")}>{t.errorPage.home}</a>
        </p>
      </div>
    ),
  });
}

/** Paths of the machine front ends (API, MCP, feeds, docs, operations); the rest is the site. */
const MACHINE_PATH =
  /^\/(?:api|mcp|oai|feed\.atom|llms(?:-full)?\.txt|openapi\.json|docs|healthz|readyz|metrics|\.well-known)(?:[/.]|$)/;

/** Whether a request is for the site (an error answers with a page, not problem+json). */
export function isSiteRequest(c: Context<AppEnv>): boolean {
  return !MACHINE_PATH.test(c.req.path) || wantsHtml(c);
}

/**
 * The error page for a domain error thrown outside a page handler (a URL refused before
 * routing, the database gone while looking up the session). Signed out: it must render even
 * when the database cannot answer.
 */
export async function sitePageError(c: Context<AppEnv>, error: DomainError): Promise<Response> {
  setPageHeaders(c);
  return renderDomainError(await pageFor(c, {}, { signedOut: true }), error);
}

/** Whether a request is a browser's asking for a page (not for the API). */
export function wantsHtml(c: Context<AppEnv>): boolean {
  if (c.req.path === "/api" || c.req.path.startsWith("/api/")) return false;
  return (c.req.header("accept") ?? "").toLowerCase().includes("text/html");
}

/** The HTML answer for an unknown page or a wrong method, in the path's language. */
export async function pageNotFound(
  c: Context<AppEnv>,
  status: 404 | 405,
  headers: Record<string, string> = {},
): Promise<Response> {
  setPageHeaders(c);
  return renderErrorPage(await pageFor(c), status, { headers });
}
