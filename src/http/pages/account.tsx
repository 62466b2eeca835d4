/** @module Owner account pages: sign up, sign in, sign out, email verification, password reset. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import { Conflict, Invalid, RateLimited, Unauthorized } from "../../services/errors.ts";
import {
  EMAIL_MAX_CHARS,
  HANDLE_MAX_CHARS,
  HANDLE_MIN_CHARS,
  isTokenShaped,
  PASSWORD_MAX,
  PASSWORD_MIN,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  SESSION_TTL_MS,
  signIn,
  signOut,
  signUp,
  verifyEmail,
} from "../../services/owners/index.ts";
import type { AppEnv } from "../env.ts";
import { COOKIES, clearCookie, readCookie, writeCookie } from "./cookies.ts";
import { type FieldErrors, minutesFrom, translateIssues } from "./form-errors.ts";
import { CsrfField, ErrorSummary, Field, Notice, renderPage } from "./layout.tsx";
import { type Page, registerPage } from "./page.ts";

/**
 * The email field of the account forms. `bounded` where an address is chosen (sign-up): there
 * the service's length bound applies; signing in and asking for a reset take what was typed.
 */
function EmailField(props: { p: Page; errors: FieldErrors; bounded?: boolean }) {
  const { p, errors } = props;
  return (
    <Field
      id="email"
      name="email"
      type="email"
      label={p.t.form.email}
      value={p.form.email ?? ""}
      error={errors.email}
      autocomplete="email"
      {...(props.bounded ? { maxlength: EMAIL_MAX_CHARS } : {})}
    />
  );
}

/** A new password (sign-up and reset), with the service's bounds. */
function NewPasswordField(props: { p: Page; errors: FieldErrors; label: string }) {
  const { p, errors } = props;
  return (
    <Field
      id="password"
      name="password"
      type="password"
      label={props.label}
      hint={p.t.form.passwordHint(PASSWORD_MIN)}
      error={errors.password}
      autocomplete="new-password"
      minlength={PASSWORD_MIN}
      maxlength={PASSWORD_MAX}
    />
  );
}

/** Where to go after signing in: a language-free site path, never another host. */
function safeNext(value: string | undefined): string {
  if (!value || !/^\/[A-Za-z0-9/_.-]*$/.test(value) || value.startsWith("//")) return "/agents";
  return value;
}

function redirect(p: Page, path: string, status: 302 | 303 = 303): Response {
  return p.c.redirect(p.href(path), status);
}

function summary(errors: FieldErrors, general?: string) {
  const list: { field?: string; message: string }[] = [];
  if (general) list.push({ message: general });
  for (const [field, message] of Object.entries(errors)) list.push({ field, message });
  return list;
}

/** What a form page shows after a failed submission. */
interface FormState {
  status?: number;
  errors?: FieldErrors;
  general?: string;
  headers?: Record<string, string>;
}

/**
 * The frame every account form shares: the page's heading, what goes above the error
 * summary (`lead`), the summary itself, then the form.
 */
function formPage(
  p: Page,
  title: string,
  state: FormState,
  content: { status?: number; lead?: Child; form: Child },
) {
  return renderPage(p, {
    title,
    status: state.status ?? content.status ?? 200,
    ...(state.headers ? { headers: state.headers } : {}),
    body: (
      <div class="narrow">
        <h1>{title}</h1>
        {content.lead}
        <ErrorSummary p={p} errors={summary(state.errors ?? {}, state.general)} />
        {content.form}
      </div>
    ),
  });
}

// --- sign up ---

function signUpPage(p: Page, state: FormState = {}) {
  const { t } = p;
  const errors = state.errors ?? {};
  return formPage(p, t.signUp.title, state, {
    lead: <p>{t.signUp.intro}</p>,
    form: (
      <>
        <form method="post" action={p.href("/sign-up")} id="sign-up-form" novalidate>
          <CsrfField p={p} />
          <EmailField p={p} errors={errors} bounded />
          <Field
            id="handle"
            name="handle"
            label={t.form.handle}
            hint={t.form.handleHint}
            value={p.form.handle ?? ""}
            error={errors.handle}
            autocomplete="username"
            minlength={HANDLE_MIN_CHARS}
            maxlength={HANDLE_MAX_CHARS}
          />
          <NewPasswordField p={p} errors={errors} label={t.form.password} />
          <button type="submit">{t.signUp.submit}</button>
        </form>
        <p>
          {t.signUp.haveAccount} <a href={p.href("/sign-in")}>{t.layout.signIn}</a>
        </p>
      </>
    ),
  });
}

// --- sign in ---

function signInPage(p: Page, state: FormState = {}) {
  const { t } = p;
  const errors = state.errors ?? {};
  const next = safeNext(p.form.next ?? p.c.req.query("next"));
  return formPage(p, t.signIn.title, state, {
    lead: <Notice p={p} />,
    form: (
      <>
        <form method="post" action={p.href("/sign-in")} id="sign-in-form" novalidate>
          <CsrfField p={p} />
          <input type="hidden" name="next" value={next} />
          <EmailField p={p} errors={errors} />
          <Field
            id="password"
            name="password"
            type="password"
            label={t.form.password}
            error={errors.password}
            autocomplete="current-password"
          />
          <button type="submit">{t.signIn.submit}</button>
        </form>
        <p>
          <a href={p.href("/forgot-password")}>{t.signIn.forgot}</a>
        </p>
        <p>
          {t.signIn.noAccount} <a href={p.href("/sign-up")}>{t.layout.signUp}</a>
        </p>
      </>
    ),
  });
}

// --- verification and reset ---

function verifyPage(p: Page, state: FormState = {}) {
  const { t } = p;
  const token = p.form.token ?? p.c.req.query("token");
  const usable = isTokenShaped(token);
  return formPage(p, t.verify.title, state, {
    status: usable ? 200 : 400,
    form: (
      <>
        {usable && !state.general ? (
          <form method="post" action={p.href("/verify-email")} id="verify-form">
            <p>{t.verify.text}</p>
            <CsrfField p={p} />
            <input type="hidden" name="token" value={token} />
            <button type="submit">{t.verify.submit}</button>
          </form>
        ) : state.general ? null : (
          <p class="warning" id="link-missing">
            {t.verify.missing}
          </p>
        )}
        <p>
          <a href={p.href("/agents")}>{t.layout.agents}</a>
        </p>
      </>
    ),
  });
}

function forgotPage(p: Page, state: FormState = {}) {
  const { t } = p;
  const errors = state.errors ?? {};
  return formPage(p, t.forgot.title, state, {
    lead: <Notice p={p} />,
    form: (
      <>
        <p>{t.forgot.text}</p>
        <form method="post" action={p.href("/forgot-password")} id="forgot-form" novalidate>
          <CsrfField p={p} />
          <EmailField p={p} errors={errors} />
          <button type="submit">{t.forgot.submit}</button>
        </form>
      </>
    ),
  });
}

function resetPage(p: Page, state: FormState = {}) {
  const { t } = p;
  const errors = state.errors ?? {};
  const token = p.form.token ?? p.c.req.query("token");
  const usable = isTokenShaped(token);
  return formPage(p, t.reset.title, state, {
    status: usable ? 200 : 400,
    form: (
      <>
        {usable && !state.general ? (
          <form method="post" action={p.href("/reset-password")} id="reset-form" novalidate>
            <p>{t.reset.text}</p>
            <CsrfField p={p} />
            <input type="hidden" name="token" value={token} />
            <NewPasswordField p={p} errors={errors} label={t.form.newPassword} />
            <button type="submit">{t.reset.submit}</button>
          </form>
        ) : (
          <p>
            <a href={p.href("/forgot-password")}>{t.forgot.title}</a>
          </p>
        )}
        {!usable && !state.general ? (
          <p class="warning" id="link-missing">
            {t.verify.missing}
          </p>
        ) : null}
      </>
    ),
  });
}

function retryHeaders(error: RateLimited) {
  return { "retry-after": String(error.retryAfterSeconds) };
}

export function registerAccountPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/sign-up", (p) =>
    p.session ? redirect(p, "/agents", 302) : signUpPage(p),
  );
  registerPage(app, "POST", "/sign-up", async (p) => {
    let result: Awaited<ReturnType<typeof signUp>>;
    try {
      result = await signUp(p.ctx, {
        email: p.form.email ?? "",
        handle: p.form.handle ?? "",
        password: p.form.password ?? "",
        lang: p.lang,
        ip: p.c.get("clientIp"),
      });
    } catch (error) {
      if (error instanceof Invalid)
        return signUpPage(p, { status: 400, errors: translateIssues(p, error.issues) });
      if (error instanceof Conflict)
        return signUpPage(p, { status: 409, errors: { handle: p.t.errors.handleTaken } });
      if (error instanceof RateLimited)
        return signUpPage(p, {
          status: 429,
          general: p.t.errors.tooManyMails(minutesFrom(error.retryAfterSeconds)),
          headers: retryHeaders(error),
        });
      throw error;
    }
    if (result.outcome === "check_email") {
      return p.c.redirect(`${p.href("/sign-in")}?notice=check-email`, 303);
    }
    // A new account: signed in at once (as after signing in), on the agents page, with a
    // banner asking to confirm the email.
    writeCookie(p.c, COOKIES.session, result.token, Math.floor(SESSION_TTL_MS / 1000));
    clearCookie(p.c, COOKIES.csrf);
    return p.c.redirect(`${p.href("/agents")}?notice=signed-up`, 303);
  });

  registerPage(app, "GET", "/sign-in", (p) =>
    p.session ? redirect(p, safeNext(p.c.req.query("next")), 302) : signInPage(p),
  );
  registerPage(app, "POST", "/sign-in", async (p) => {
    let token: string;
    try {
      ({ token } = await signIn(p.ctx, {
        email: p.form.email,
        password: p.form.password,
        ip: p.c.get("clientIp"),
      }));
    } catch (error) {
      if (error instanceof Invalid)
        return signInPage(p, { status: 400, errors: translateIssues(p, error.issues) });
      if (error instanceof Unauthorized)
        return signInPage(p, { status: 401, general: p.t.errors.signInFailed });
      if (error instanceof RateLimited)
        return signInPage(p, {
          status: 429,
          general: p.t.errors.tooManySignIns(minutesFrom(error.retryAfterSeconds)),
          headers: retryHeaders(error),
        });
      throw error;
    }
    writeCookie(p.c, COOKIES.session, token, Math.floor(SESSION_TTL_MS / 1000));
    clearCookie(p.c, COOKIES.csrf);
    return redirect(p, safeNext(p.form.next));
  });

  registerPage(app, "POST", "/sign-out", async (p) => {
    await signOut(p.ctx, { token: readCookie(p.c, COOKIES.session) });
    clearCookie(p.c, COOKIES.session);
    clearCookie(p.c, COOKIES.flash);
    return p.c.redirect(`${p.href("/")}?notice=signed-out`, 303);
  });

  registerPage(app, "GET", "/verify-email", (p) => verifyPage(p), { tokenInUrl: true });
  registerPage(
    app,
    "POST",
    "/verify-email",
    async (p) => {
      try {
        await verifyEmail(p.ctx, { token: p.form.token });
      } catch (error) {
        if (error instanceof Invalid)
          return verifyPage(p, { status: 400, general: p.t.errors.linkInvalid });
        throw error;
      }
      return p.c.redirect(`${p.href("/agents")}?notice=verified`, 303);
    },
    { tokenInUrl: true },
  );
  registerPage(app, "POST", "/verify-email/resend", async (p) => {
    if (!p.session)
      return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=/agents`, 303);
    const result = await resendVerification(p.ctx, { lang: p.lang, ip: p.c.get("clientIp") });
    const notice = result.outcome === "sent" ? "verify-sent" : "already-verified";
    return p.c.redirect(`${p.href("/agents")}?notice=${notice}`, 303);
  });

  registerPage(app, "GET", "/forgot-password", (p) => forgotPage(p));
  registerPage(app, "POST", "/forgot-password", async (p) => {
    try {
      await requestPasswordReset(p.ctx, {
        email: p.form.email,
        lang: p.lang,
        ip: p.c.get("clientIp"),
      });
    } catch (error) {
      if (error instanceof Invalid)
        return forgotPage(p, { status: 400, errors: translateIssues(p, error.issues) });
      if (error instanceof RateLimited)
        return forgotPage(p, {
          status: 429,
          general: p.t.errors.tooManyMails(minutesFrom(error.retryAfterSeconds)),
          headers: retryHeaders(error),
        });
      throw error;
    }
    return p.c.redirect(`${p.href("/forgot-password")}?notice=reset-sent`, 303);
  });

  registerPage(app, "GET", "/reset-password", (p) => resetPage(p), { tokenInUrl: true });
  registerPage(
    app,
    "POST",
    "/reset-password",
    async (p) => {
      try {
        await resetPassword(p.ctx, { token: p.form.token, password: p.form.password });
      } catch (error) {
        if (error instanceof Invalid) {
          const tokenIssue = error.issues.some((i) => i.name === "token");
          return tokenIssue
            ? resetPage(p, { status: 400, general: p.t.errors.linkInvalid })
            : resetPage(p, { status: 400, errors: translateIssues(p, error.issues) });
        }
        throw error;
      }
      // The reset ended every session, this browser's included.
      clearCookie(p.c, COOKIES.session);
      return p.c.redirect(`${p.href("/sign-in")}?notice=password-reset`, 303);
    },
    { tokenInUrl: true },
  );
}
