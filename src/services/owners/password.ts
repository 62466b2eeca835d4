/** @module Password hashing: scrypt from node:crypto (memory-hard), compared in constant time. */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt cost: N = 2^15, r = 8, p = 3. One hash needs 128 · N · r = 32 MiB of memory and
 * three passes over it; OWASP's Password Storage Cheat Sheet lists (2^15, 8, 3) among the
 * settings equivalent to its minimum (2^17, 8, 1) while using a quarter of the memory, so
 * four concurrent sign-ins on libuv's pool stay around 128 MiB.
 * The parameters are stored in each hash, so raising them later rehashes on next sign-in.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** Passwords are 12 to 256 characters (Unicode code points, after NFKC normalisation). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, p: { N: number; r: number; p: number }) {
  const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 256 * p.N * p.r + 1024 };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Why a password is refused, or null. Length only: composition rules do not help (NIST 800-63B). */
export function passwordProblem(password: string): string | null {
  const length = [...password.normalize("NFKC")].length;
  if (length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  return null;
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, SCRYPT_PARAMS);
  const { N, r, p } = SCRYPT_PARAMS;
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split("$");
  if (scheme !== "scrypt" || rest.length > 0 || !salt || !key) return null;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  const valid = (x: number, max: number) => Number.isInteger(x) && x >= 1 && x <= max;
  if (!valid(N, 2 ** 20) || (N & (N - 1)) !== 0 || !valid(R, 32) || !valid(P, 16)) return null;
  return {
    N,
    r: R,
    p: P,
    salt: Buffer.from(salt, "base64url"),
    key: Buffer.from(key, "base64url"),
  };
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.key.length !== KEY_BYTES) return false;
  const key = await derive(password, parsed.salt, parsed);
  return timingSafeEqual(key, parsed.key);
}

/** True when a stored hash was made with other parameters than today's. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  const { N, r, p } = SCRYPT_PARAMS;
  return !parsed || parsed.N !== N || parsed.r !== r || parsed.p !== p;
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password, so a sign-in for an unknown email (or an account without a
 * password) spends the same scrypt time as a real check and its timing reveals nothing.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(24).toString("base64url"));
  return dummy;
}
