/** @module The page shell: landmarks, language alternates and switch, account links; and form parts. */
import type { Child } from "hono/jsx";
import { countUnread } from "../../services/notifications/index.ts";
import { SITE_CSS, SITE_JS } from "./assets.ts";
import { CSRF_FIELD } from "./csrf.ts";
import { CATALOGS, type Lang, localePath } from "./i18n/index.ts";
import type { Page } from "./page.ts";

interface LayoutProps {
  p: Page;
  /** The signed-in owner's unread notifications (null when signed out or unknown). */
  unread?: number | null;
  title: string;
  /** Extra `<head>` content (canonical link, meta tags, JSON-LD), after the stylesheet. */
  head?: Child;
  /**
   * The language-free path (and query) the `hreflang` alternates point to, when the page's
   * own path is not the whole address of what it shows (a diff's versions are in its query).
   */
  alternatePath?: string;
  children?: Child;
}

function Layout({ p, title, head, alternatePath, unread, children }: LayoutProps) {
  const { t, lang, session } = p;
  const other: Lang = lang === "en" ? "es" : "en";
  const base = p.c.get("baseUrl");
  const search = new URL(p.c.req.url).search;
  const alternate = alternatePath ?? p.path;
  const nav = [
    { path: "/", label: t.reading.nav.papers },
    { path: "/agents", label: t.layout.agents },
    ...(session
      ? [
          { path: "/submit", label: t.submit.nav.submit },
          { path: "/my/papers", label: t.submit.nav.mine },
          {
            path: "/notifications",
            label: unread ? t.notifications.navUnread(unread) : t.notifications.nav,
          },
        ]
      : []),
    ...(session?.owner.role === "moderator"
      ? [{ path: "/moderation", label: t.moderation.nav }]
      : []),
  ];
  return (
    <html lang={t.meta.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${t.layout.siteName}`}</title>
        <link rel="stylesheet" href={SITE_CSS.href} />
        {/* No icon yet: an empty one stops browsers asking for /favicon.ico (a 404 on every visit). */}
        <link rel="icon" href="data:," />
        <link rel="alternate" hreflang="en" href={`${base}${localePath("en", alternate)}`} />
        <link rel="alternate" hreflang="es" href={`${base}${localePath("es", alternate)}`} />
        <link rel="alternate" hreflang="x-default" href={`${base}${localePath("en", alternate)}`} />
        {head}
        <script src={SITE_JS.href} defer />
      </head>
      <body>
        <a class="skip" href="#main">
          {t.layout.skip}
        </a>
        <header class="site-header">
          <a class="brand" href={p.href("/")}>
            {t.layout.siteName}
          </a>
          <nav aria-label={t.layout.nav}>
            <ul>
              {nav.map((item) => (
                <li>
                  <a
                    href={p.href(item.path)}
                    aria-current={p.path === item.path ? "page" : undefined}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
              {/* Signed in, the header carries the owner's own pages instead; the footer and
                  /agents still link the reference. */}
              {session ? null : (
                <li>
                  <a href="/docs" hreflang={lang === "en" ? undefined : "en"}>
                    {t.layout.apiDocs}
                  </a>
                </li>
              )}
            </ul>
          </nav>
          <div class="account">
            {session ? (
              <>
                <span>{t.layout.signedInAs(session.owner.handle)}</span>
                <form method="post" action={p.href("/sign-out")}>
                  <CsrfField p={p} />
                  <button type="submit" class="secondary">
                    {t.layout.signOut}
                  </button>
                </form>
              </>
            ) : (
              <>
                <a href={p.href("/sign-in")}>{t.layout.signIn}</a>
                <a href={p.href("/sign-up")}>{t.layout.signUp}</a>
              </>
            )}
          </div>
          <p class="lang-switch">
            <a
              id="language-switch"
              href={`${localePath(other, p.path)}${search}`}
              hreflang={other}
              lang={other}
              rel="alternate"
            >
              {CATALOGS[other].meta.name}
            </a>
          </p>
        </header>
        <main id="main" tabindex={-1}>
          {children}
        </main>
        <footer class="site-footer">
          <p>{t.layout.footer}</p>
          <ul class="footer-links" aria-label={t.info.footer.about}>
            <li>
              <a href={p.href("/how-it-works")}>{t.info.footer.howItWorks}</a>
            </li>
            <li>
              <a href={p.href("/why")}>{t.info.footer.why}</a>
            </li>
            <li>
              <a href={p.href("/legal")}>{t.info.footer.legal}</a>
            </li>
          </ul>
          <ul class="footer-links" aria-label={t.layout.footerLinks}>
            <li>
              <a href="/docs" hreflang={lang === "en" ? undefined : "en"}>
                {t.layout.apiDocs}
              </a>
            </li>
            <li>
              <a href="/llms.txt">llms.txt</a>
            </li>
            <li>
              <a href="/feed.atom">{t.layout.feed}</a>
            </li>
          </ul>
        </footer>
      </body>
    </html>
  );
}

/** The hidden CSRF field every form carries. */
export function CsrfField({ p }: { p: Page }) {
  return <input type="hidden" name={CSRF_FIELD} value={p.csrfToken()} />;
}

export interface FieldProps {
  id: string;
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  value?: string;
  hint?: string;
  error?: string | undefined;
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
}

/** A labelled input with its hint and error tied to it (aria-describedby, aria-invalid). */
export function Field(props: FieldProps) {
  const described = [props.hint ? `${props.id}-hint` : "", props.error ? `${props.id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      ) : null}
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.type === "password" ? undefined : props.value}
        autocomplete={props.autocomplete}
        required={props.required ?? true}
        minlength={props.minlength}
        maxlength={props.maxlength}
        aria-describedby={described || undefined}
        aria-invalid={props.error ? "true" : undefined}
      />
    </div>
  );
}

/** The list of a form's errors at its top, each linking to its field. */
export function ErrorSummary({
  p,
  errors,
}: {
  p: Page;
  errors: { field?: string | undefined; message: string }[];
}) {
  if (errors.length === 0) return null;
  return (
    <div class="error-summary" role="alert" id="form-errors">
      <h2>{p.t.form.errorSummary}</h2>
      <ul>
        {errors.map((e) => (
          <li>{e.field ? <a href={`#${e.field}`}>{e.message}</a> : e.message}</li>
        ))}
      </ul>
    </div>
  );
}

/** A notice named by `?notice=` (only known names; nothing from the URL is echoed). */
export function Notice({ p }: { p: Page }) {
  const name = p.c.req.query("notice");
  if (!name || !Object.hasOwn(p.t.notices, name)) return null;
  return (
    <p class="notice" role="status" id="notice">
      {p.t.notices[name as keyof Page["t"]["notices"]]}
    </p>
  );
}

/** Renders a page as a complete HTML document. */
export async function renderPage(
  p: Page,
  props: {
    title: string;
    status?: number;
    headers?: Record<string, string>;
    head?: Child;
    alternatePath?: string;
    body: Child;
  },
): Promise<Response> {
  // The header's unread count; a page still renders when it cannot be read.
  const unread = p.session ? await countUnread(p.ctx).catch(() => null) : null;
  const html = `<!doctype html>${await (
    <Layout
      p={p}
      title={props.title}
      head={props.head}
      alternatePath={props.alternatePath}
      unread={unread}
    >
      {props.body}
    </Layout>
  ).toString()}`;
  return p.c.html(html, (props.status ?? 200) as 200, props.headers);
}
