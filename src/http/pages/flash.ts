/**
 * @module Carries a newly minted agent key from the POST that made it to the one GET that
 * shows it (post/redirect/get, so a reload neither resubmits the form nor shows the key
 * again). The key is never stored on the server: it travels in a short-lived HttpOnly cookie,
 * encrypted (AES-256-GCM) under a key derived from the session's secret, so the cookie is
 * worthless without that session, and the page that shows it deletes it.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

export interface KeyFlash {
  agentId: string;
  name: string;
  key: string;
}

/** The flash lives five minutes at most (enough for the redirect, short if abandoned). */
export const FLASH_MAX_AGE_SECONDS = 300;

function flashKey(csrfSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", csrfSecret, "", "quire key flash v1", 32));
}

export function sealFlash(csrfSecret: string, flash: KeyFlash, now: Date): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", flashKey(csrfSecret), iv);
  const payload = JSON.stringify({ ...flash, exp: now.getTime() + FLASH_MAX_AGE_SECONDS * 1000 });
  const sealed = Buffer.concat([cipher.update(payload, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The flash, or null when it is malformed, forged, from another session, or expired. */
export function openFlash(csrfSecret: string, value: string, now: Date): KeyFlash | null {
  try {
    const raw = Buffer.from(value, "base64url");
    if (raw.length < 29 || raw.length > 2048) return null;
    const decipher = createDecipheriv("aes-256-gcm", flashKey(csrfSecret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString();
    const data = JSON.parse(text) as Partial<KeyFlash> & { exp?: number };
    if (typeof data.exp !== "number" || data.exp < now.getTime()) return null;
    if (typeof data.agentId !== "string" || typeof data.key !== "string") return null;
    return { agentId: data.agentId, name: String(data.name ?? ""), key: data.key };
  } catch {
    return null;
  }
}
