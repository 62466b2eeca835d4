/**
 * @module CSRF tokens for every form. Signed in: a synchronizer token derived from the
 * session's `csrf_secret`. Signed out: a double-submit token matching a random HttpOnly
 * cookie (`__Host-` prefixed behind TLS, so no subdomain can plant one). Either way the token
 * in the page is masked with fresh random bytes on every render, so compressed responses
 * (BREACH) never repeat it.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const CSRF_FIELD = "_csrf";

const SECRET_BYTES = 32;

/** The per-session value forms must prove knowledge of (the stored secret itself is never sent). */
export function sessionCsrfKey(csrfSecret: string): Buffer {
  return createHmac("sha256", csrfSecret).update("quire csrf v1").digest();
}

/** A fresh random 32-byte secret for a signed-out browser's CSRF cookie (base64url). */
export function newCsrfCookieValue(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

export function csrfCookieKey(value: string | undefined): Buffer | null {
  if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) return null;
  return Buffer.from(value, "base64url");
}

/** `pad ‖ (pad ⊕ key)`, base64url: a different string every time for the same key. */
export function maskCsrf(key: Buffer): string {
  const pad = randomBytes(key.length);
  const masked = Buffer.alloc(key.length);
  for (let i = 0; i < key.length; i++) masked[i] = pad[i]! ^ key[i]!;
  return Buffer.concat([pad, masked]).toString("base64url");
}

/** Whether a submitted token unmasks to the key; constant time, false for anything malformed. */
export function csrfMatches(token: unknown, key: Buffer): boolean {
  if (typeof token !== "string" || token.length > 200) return false;
  const raw = Buffer.from(token, "base64url");
  if (raw.length !== key.length * 2) return false;
  const unmasked = Buffer.alloc(key.length);
  for (let i = 0; i < key.length; i++) unmasked[i] = raw[i]! ^ raw[i + key.length]!;
  return timingSafeEqual(unmasked, key);
}
