/**
 * @module What every page handler gets (language, messages, session, service context, form)
 * and the one wrapper that registers a page in both languages with its security headers,
 * first-visit language detection, session lookup, form parsing and CSRF check.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ServiceContext } from "../../services/context.ts";
import type { FieldIssue } from "../../services/errors.ts";
import {
  type DomainError,
  domainErrorOf,
  Invalid,
  RateLimited,
  Unavailable,
} from "../../services/errors.ts";
import type { OwnerSession } from "../../services/owners/index.ts";
import { sessionFromToken } from "../../services/owners/index.ts";
import { limitOperation, refusalText } from "../../services/ratelimit/index.ts";
import { textIssues } from "../../services/text.ts";
import { limitBody, utf8BodyIssue } from "../body-limit.ts";
import type { AppEnv } from "../env.ts";
import { statusOfDomainError } from "../problem.ts";
import { COOKIES, clearCookie, readCookie, writeCookie } from "./cookies.ts";
import {
  CSRF_FIELD,
  csrfCookieKey,
  csrfMatches,
  maskCsrf,
  newCsrfCookieValue,
  sessionCsrfKey,
} from "./csrf.ts";
import { renderErrorPage } from "./errors.tsx";
import {
  CATALOGS,
  LANGS,
  type Lang,
  localePath,
  type Messages,
  preferredLang,
  splitLocale,
} from "./i18n/index.ts";

export interface Page {
  c: Context<AppEnv>;
  lang: Lang;
  t: Messages;
  /** The path without its language prefix (`/agents` for `/es/agents`). */
  path: string;
  session: OwnerSession | null;
  /** The request's service context, acting for the signed-in owner (or anonymous). */
  ctx: ServiceContext;
  /** The submitted form fields (POST); strings only. */
  form: Record<string, string>;
  /**
   * Files sent in the fields the page takes files in (PageOptions.fileFields), by field;
   * an empty file input (no file chosen) is absent.
   */
  files: Readonly<Record<string, File>>;
  /** A CSRF token for a form on this page (sets the signed-out cookie when needed). */
  csrfToken(): string;
  /** This page's language version of a language-free path. */
  href(path: string): string;
}

export type PageHandler = (p: Page) => Promise<Response> | Response;

export interface PageOptions {
  /** The page carries a one-time token in its URL: send no Referer anywhere from it. */
  tokenInUrl?: boolean;
  /** A larger cap than MAX_FORM_BYTES for this page's POST body (paper submissions). */
  maxFormBytes?: number;
  /** The page's own answer to a body over the cap (status 413); the generic page otherwise. */
  tooLarge?: PageHandler;
  /** Multipart fields that carry a file (the paper forms' source bundle); others are ignored. */
  fileFields?: readonly string[];
}

/** Form bodies are small; anything larger is refused before it is read (unless a page says). */
export const MAX_FORM_BYTES = 16 * 1024;

const ONE_YEAR = 365 * 24 * 60 * 60;
const CSRF_COOKIE_MAX_AGE = 24 * 60 * 60;

export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function renderError(
  p: Page,
  status: number,
  extra?: { headers?: Record<string, string>; issues?: FieldIssue[]; detail?: string },
): Promise<Response> {
  return renderErrorPage(p, status, extra);
}

export function setPageHeaders(c: Context<AppEnv>, options: PageOptions = {}): void {
  c.header("Content-Security-Policy", PAGE_CSP);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", options.tokenInUrl ? "no-referrer" : "same-origin");
  c.header("Cache-Control", "no-store");
  c.header("Vary", "Accept-Language, Cookie");
}

/**
 * Builds the Page for a request (session looked up; stale session cookies cleared). With
 * `signedOut`, no session is looked up: for error pages that must render without the database.
 */
export async function pageFor(
  c: Context<AppEnv>,
  form: Record<string, string> = {},
  options: { signedOut?: boolean; files?: Record<string, File> } = {},
): Promise<Page> {
  const { lang, path } = splitLocale(c.req.path);
  const base = c.get("ctx");
  const token = options.signedOut ? undefined : readCookie(c, COOKIES.session);
  let session: OwnerSession | null = null;
  if (token !== undefined) {
    session = await sessionFromToken(base, { token });
    if (!session) clearCookie(c, COOKIES.session);
  }
  const ctx: ServiceContext = session
    ? {
        ...base,
        caller: {
          kind: "owner",
          ownerId: session.owner.id,
          handle: session.owner.handle,
          role: session.owner.role,
        },
      }
    : { ...base, caller: { kind: "anonymous" } };
  return {
    c,
    lang,
    t: CATALOGS[lang],
    path,
    session,
    ctx,
    form,
    files: options.files ?? {},
    csrfToken() {
      if (session) return maskCsrf(sessionCsrfKey(session.csrfSecret));
      let key = csrfCookieKey(readCookie(c, COOKIES.csrf));
      if (!key) {
        const value = newCsrfCookieValue();
        writeCookie(c, COOKIES.csrf, value, CSRF_COOKIE_MAX_AGE);
        key = csrfCookieKey(value)!;
      }
      return maskCsrf(key);
    },
    href: (to) => localePath(lang, to),
  };
}

/** Whether a POST carries a valid CSRF token for its session (or signed-out cookie). */
function csrfValid(p: Page): boolean {
  // Browsers say where a request came from; a cross-site form post is refused outright.
  if (p.c.req.header("sec-fetch-site") === "cross-site") return false;
  const token = p.form[CSRF_FIELD];
  if (p.session) return csrfMatches(token, sessionCsrfKey(p.session.csrfSecret));
  const key = csrfCookieKey(readCookie(p.c, COOKIES.csrf));
  return key !== null && csrfMatches(token, key);
}

/**
 * The form fields of a POST: 415 when the body is not a form, 400 when it cannot be read as
 * one (a malformed multipart body, a body cut off) or holds text the archive refuses (the
 * fields are named). Checked before the CSRF token, which is one of the fields.
 */
async function readForm(
  c: Context<AppEnv>,
  fileFields: readonly string[],
): Promise<
  | { form: Record<string, string>; files: Record<string, File> }
  | { status: 400 | 415; issues?: FieldIssue[] }
> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (
    !type.startsWith("application/x-www-form-urlencoded") &&
    !type.startsWith("multipart/form-data")
  ) {
    return { status: 415 };
  }
  let body: Record<string, unknown>;
  try {
    // Bytes are kept or refused: text that is not UTF-8 is a 400, naming the field it can.
    const notUtf8 = await utf8BodyIssue(c, { fileFields });
    if (notUtf8) return { status: 400, issues: [notUtf8] };
    body = await c.req.parseBody();
  } catch (error) {
    c.get("logger")?.info({ err: { message: String(error) } }, "form body could not be read");
    return { status: 400 };
  }
  const form: Record<string, string> = {};
  const files: Record<string, File> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") form[name] = value;
    else if (value instanceof File && fileFields.includes(name) && value.size > 0) {
      files[name] = value;
    }
  }
  const issues = textIssues(form, "body", "body");
  if (issues.length > 0) return { status: 400, issues };
  return { form, files };
}

/**
 * Registers a page at its English path and at `/es` + path. GETs on English paths from a
 * browser with no language cookie yet are redirected to Spanish when Accept-Language
 * prefers it (first visit only: after that the switch decides). POSTs first draw on the
 * rate-limit policy's `form` operation (per address, before the body is read: a 429 page),
 * then must be forms with a valid CSRF token (403 otherwise). Domain errors a handler does not catch become the error
 * page in the page's language; anything else is logged and becomes a 500 page.
 */
export function registerPage(
  app: OpenAPIHono<AppEnv>,
  method: "GET" | "POST",
  path: string,
  handler: PageHandler,
  options: PageOptions = {},
): void {
  for (const lang of LANGS) {
    const run = async (c: Context<AppEnv>) => {
      setPageHeaders(c, options);
      if (method === "GET" && lang === "en" && readCookie(c, COOKIES.lang) === undefined) {
        if (preferredLang(c.req.header("accept-language")) === "es") {
          const url = new URL(c.req.url);
          return c.redirect(`${localePath("es", path)}${url.search}`, 302);
        }
      }
      writeCookie(c, COOKIES.lang, lang, ONE_YEAR);
      let form: Record<string, string> = {};
      let files: Record<string, File> = {};
      if (method === "POST") {
        try {
          await limitOperation(c.get("ctx"), "form", { ip: c.get("clientIp") });
        } catch (error) {
          return errorResponse(await pageFor(c, {}, { signedOut: true }), error);
        }
        const parsed = await readForm(c, options.fileFields ?? []);
        if ("status" in parsed) {
          const p = await pageFor(c, {}, { signedOut: true });
          return renderError(p, parsed.status, parsed.issues ? { issues: parsed.issues } : {});
        }
        form = parsed.form;
        files = parsed.files;
      }
      let p: Page;
      try {
        p = await pageFor(c, form, { files });
      } catch (error) {
        return errorResponse(await pageFor(c, form, { signedOut: true }), error);
      }
      try {
        if (method === "POST" && !csrfValid(p)) {
          p.ctx.logger.warn({ path: c.req.path }, "form refused: missing or wrong CSRF token");
          return await renderError(p, 403);
        }
        return await handler(p);
      } catch (error) {
        return errorResponse(p, error);
      }
    };
    const full = localePath(lang, path);
    if (method === "POST") {
      app.post(
        full,
        limitBody({
          maxSize: options.maxFormBytes ?? MAX_FORM_BYTES,
          onError: async (c) => {
            setPageHeaders(c as Context<AppEnv>, options);
            const p = await pageFor(c as Context<AppEnv>, {}, { signedOut: true });
            return options.tooLarge ? options.tooLarge(p) : renderError(p, 413);
          },
        }),
        run,
      );
    } else {
      app.get(full, run);
    }
  }
}

/**
 * Maps what a handler threw to an error page; the one place pages do this. A database that
 * cannot answer is a 503 with Retry-After, like the API's.
 */
async function errorResponse(p: Page, error: unknown): Promise<Response> {
  const domain = domainErrorOf(error);
  if (domain) {
    if (domain instanceof Unavailable) p.ctx.logger.warn({ err: error }, "page unavailable");
    return renderDomainError(p, domain);
  }
  p.ctx.logger.error({ err: error }, "page failed");
  return renderError(p, 500);
}

/** A domain error's page: its status, Retry-After when there is one, the fields it names. */
export function renderDomainError(p: Page, error: DomainError): Promise<Response> {
  const status = statusOfDomainError(error);
  const headers: Record<string, string> = {};
  const wait =
    error instanceof RateLimited || error instanceof Unavailable
      ? error.retryAfterSeconds
      : undefined;
  if (wait !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(wait)));
  const issues = error instanceof Invalid ? error.issues : [];
  const detail = error instanceof RateLimited ? refusalNotice(p, error) : undefined;
  return renderError(p, status, { headers, issues, ...(detail ? { detail } : {}) });
}

/**
 * A rate-limit refusal in the page's language: the policy's one wording (which limit, its
 * quota and window, when to retry), as REST and MCP give it in English.
 */
export function refusalNotice(p: Page, error: RateLimited): string {
  return error.decision ? refusalText(error.decision, p.lang) : p.t.errorPage[429];
}
