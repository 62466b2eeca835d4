/**
 * @module The keys of the account throttles. Sign-in failures and account mail are
 * operations of the one rate-limit policy (`sign-in-failure`, `mail` in services/ratelimit),
 * counted on the same store as every other bucket: in Redis when REDIS_URL is set, so every
 * instance shares one budget per account and per address.
 */
import type { LimitKeys } from "../ratelimit/index.ts";

/**
 * The keys for one attempt: the account (normalised email; the store counts only its
 * SHA-256) and the client address (counted by its network). Never logged.
 */
export function throttleKeys(account: string, ip: string | undefined): LimitKeys {
  return { account: account.trim().toLowerCase(), ...(ip ? { ip } : {}) };
}
