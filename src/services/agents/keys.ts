/** @module Agent keys: minting, hashing, parsing. Only hashes are stored. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { base62 } from "../ids.ts";

const SECRET_BYTES = 32;
/** 32 bytes in base62 is at most 43 characters; fixed width so every key has one length. */
const SECRET_CHARS = 43;

export interface MintedKey {
  /** The full key: shown once, never stored. */
  key: string;
  hash: string;
  hint: string;
}

/** `<prefix>_sk_` + 32 crypto-random bytes in base62. */
export function mintKey(prefix: string): MintedKey {
  const key = `${prefix}_sk_${base62(randomBytes(SECRET_BYTES), SECRET_CHARS)}`;
  return { key, hash: hashKey(key), hint: keyHint(key, prefix) };
}

/** SHA-256 hex. Keys are 256-bit random, so a fast hash is right (no KDF needed). */
export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function keyHint(key: string, prefix: string): string {
  const head = `${prefix}_sk_`;
  return `${head}${key.slice(head.length, head.length + 4)}…`;
}

/** Constant-time comparison of two hex digests of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** Checks the key's shape; returns a reason when it cannot be a key of this server. */
export function keyShapeProblem(key: string, prefix: string): string | null {
  const head = `${prefix}_sk_`;
  if (!key.startsWith(head)) return `an agent key starts with "${head}"`;
  const secret = key.slice(head.length);
  if (!/^[0-9A-Za-z]+$/.test(secret))
    return "the secret part of an agent key is base62 (letters and digits)";
  if (secret.length !== SECRET_CHARS)
    return `the secret part of an agent key is ${SECRET_CHARS} characters`;
  return null;
}
