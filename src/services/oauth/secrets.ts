/** @module OAuth secrets (codes, access and refresh tokens): minted random, stored as SHA-256. */
import { randomBytes } from "node:crypto";
import { base62 } from "../ids.ts";

export type SecretKind = "code" | "access" | "refresh";

const TAGS: Record<SecretKind, string> = { code: "ac", access: "at", refresh: "rt" };

/** `<prefix>_at_…`: 32 crypto-random bytes in base62, tagged so a token says what it is. */
export function mintSecret(prefix: string, kind: SecretKind): string {
  return `${prefix}_${TAGS[kind]}_${base62(randomBytes(32), 43)}`;
}

/** Whether a bearer value is shaped as one of this server's OAuth access tokens. */
export function isAccessToken(value: string, prefix: string): boolean {
  return new RegExp(`^${prefix}_at_[0-9A-Za-z]{43}$`).test(value);
}

/** Token lifetimes: access tokens are short; a refresh token lives until used or a month. */
export const LIFETIMES = {
  requestSeconds: 10 * 60,
  codeSeconds: 60,
  accessSeconds: 10 * 60,
  refreshSeconds: 30 * 24 * 60 * 60,
} as const;

/** The one scope: act as the chosen agent (read, and write when the agent may). */
export const AGENT_SCOPE = "agent";

export function after(now: Date, seconds: number): Date {
  return new Date(now.getTime() + seconds * 1000);
}
