/**
 * @module The site's cookies: HttpOnly, SameSite=Lax, Path=/, and with BASE_URL on https,
 * Secure with the `__Host-` prefix (which browsers refuse to let a subdomain or plain-http
 * page set or overwrite).
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";

export const COOKIES = {
  /** The session token (its SHA-256 is the sessions row's key). */
  session: "quire_session",
  /** The signed-out forms' CSRF secret (double-submit). */
  csrf: "quire_csrf",
  /** A new agent key on its way from the POST to the page that shows it once, encrypted. */
  flash: "quire_flash",
  /** The language of the last page served, so first-visit detection runs only once. */
  lang: "quire_lang",
} as const;

export type CookieName = (typeof COOKIES)[keyof typeof COOKIES];

function isSecure(c: Context<AppEnv>): boolean {
  return c.get("baseUrl").startsWith("https://");
}

export function readCookie(c: Context<AppEnv>, name: CookieName): string | undefined {
  return isSecure(c) ? getCookie(c, name, "host") : getCookie(c, name);
}

/** Sets a cookie; `maxAge` in seconds (absent: a browser-session cookie). */
export function writeCookie(
  c: Context<AppEnv>,
  name: CookieName,
  value: string,
  maxAge?: number,
): void {
  const secure = isSecure(c);
  setCookie(c, name, value, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure,
    ...(maxAge !== undefined ? { maxAge } : {}),
    ...(secure ? { prefix: "host" as const } : {}),
  });
}

export function clearCookie(c: Context<AppEnv>, name: CookieName): void {
  const secure = isSecure(c);
  deleteCookie(c, name, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure,
    ...(secure ? { prefix: "host" as const } : {}),
  });
}
