/**
 * @module Test support: a cookie-keeping client for the site's pages, called in-process
 * (`app.request`) or over HTTP, that reads CSRF tokens out of forms the way a browser
 * submits them.
 */
/** What the client talks to: the app in-process, or a running server (see `overHttp`). */
export interface PageTarget {
  app: { request(path: string, init?: RequestInit): Response | Promise<Response> };
}

/** A target that is a real server at `base`, reached with fetch (redirects not followed). */
export function overHttp(base: string): PageTarget {
  return {
    app: { request: (path, init) => fetch(`${base}${path}`, { ...init, redirect: "manual" }) },
  };
}

export interface PageResponse {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
  /** Raw Set-Cookie lines of this response. */
  setCookies: string[];
}

export class PageClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly test: PageTarget,
    private readonly defaults: Record<string, string> = {},
  ) {}

  private remember(res: Response): string[] {
    const lines = res.headers.getSetCookie();
    for (const line of lines) {
      const [pair = "", ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return lines;
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    };
  }

  async request(path: string, init: RequestInit = {}): Promise<PageResponse> {
    const res = await this.test.app.request(path, {
      ...init,
      headers: {
        accept: "text/html",
        ...this.defaults,
        ...this.cookieHeader(),
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    const setCookies = this.remember(res);
    return {
      status: res.status,
      headers: res.headers,
      html: await res.text(),
      location: res.headers.get("location"),
      setCookies,
    };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request(path, { headers });
  }

  /** POSTs a form as a browser would (application/x-www-form-urlencoded). */
  post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<PageResponse> {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Loads a page, takes the CSRF token from the form posting to `action`, and submits it. */
  async submit(
    pagePath: string,
    action: string,
    fields: Record<string, string>,
  ): Promise<PageResponse> {
    const page = await this.get(pagePath);
    const token = csrfTokenIn(page.html, action);
    return this.post(action, { _csrf: token, ...fields });
  }
}

/** The `_csrf` value of the first form whose action is `action` (or of any form). */
export function csrfTokenIn(html: string, action?: string): string {
  const forms = html.match(/<form\b[^>]*>[\s\S]*?<\/form>/g) ?? [];
  const form = action
    ? forms.find((f) => new RegExp(`action="${escapeRegExp(action)}"`).test(f))
    : forms[0];
  const token = form && /name="_csrf" value="([^"]+)"/.exec(form)?.[1];
  if (!token) throw new Error(`no CSRF token in a form posting to ${action ?? "(any)"}`);
  return token;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The link of the newest account mail written to the log (no SMTP configured). */
export function mailedLink(
  logs: Record<string, unknown>[],
  purpose: "verify_email" | "reset_password" | "account_exists",
  to?: string,
): string | null {
  for (let i = logs.length - 1; i >= 0; i--) {
    const mail = logs[i]?.mail as { purpose?: string; link?: string; to?: string } | undefined;
    if (mail?.purpose === purpose && (!to || mail.to === to)) return mail.link ?? null;
  }
  return null;
}

/** The path and query of an absolute link (the test app is called in-process). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** The full agent key shown in the page's one-time key box, if any. */
export function shownKey(html: string): string | null {
  return (
    /id="new-key"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="new-key"/
      .exec(html)
      ?.slice(1)
      .find(Boolean) ?? null
  );
}

/** The `<html lang>` of a page. */
export function htmlLang(html: string): string | null {
  return /<html lang="([^"]+)"/.exec(html)?.[1] ?? null;
}
