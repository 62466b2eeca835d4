/** @module Random bearer tokens (sessions, email links): minted here, stored only as SHA-256. */
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** SHA-256 hex. Tokens carry 256 random bits, so a fast hash is enough (no KDF needed). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Whether a string has the shape of a token from newToken (checked before any lookup). */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}
