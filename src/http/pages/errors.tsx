/** @module Error pages in the page's language (and the HTML 404/405 for browsers). */
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./layout.tsx";
import { type Page, pageFor, setPageHeaders } from "./page.ts";

const KNOWN = [400, 401, 403, 404, 405, 413, 415, 429, 500] as const;
type Known = (typeof KNOWN)[number];

export async function renderErrorPage(
  p: Page,
  status: number,
  extra: { headers?: Record<string, string> } = {},
): Promise<Response> {
  const { t } = p;
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
        <p id="error-message">{t.errorPage[known]}</p>
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
