/**
 * @module Throttles for account actions: sign-in failures and outgoing mail, per account and
 * per IP. A tiny interface over rate-limiter-flexible, so the store can move to Redis later
 * without touching the services.
 */
import { RateLimiterMemory } from "rate-limiter-flexible";
import type { ServiceContext } from "../context.ts";

export type ThrottleScope = "account" | "ip";

/** What is counted: an account (its normalised email) or a client IP. */
export interface ThrottleKey {
  scope: ThrottleScope;
  id: string;
}

export interface Throttle {
  /** Seconds until every key is below its limit again; 0 when none is blocked. */
  blockedFor(keys: readonly ThrottleKey[]): Promise<number>;
  /** Counts one event (a failed sign-in, a mail sent) against every key. */
  hit(keys: readonly ThrottleKey[]): Promise<void>;
  /** Forgets one key's count (a successful sign-in clears its account, never its IP). */
  clear(key: ThrottleKey): Promise<void>;
}

export interface OwnerThrottles {
  signIn: Throttle;
  mail: Throttle;
}

export interface ThrottleLimit {
  points: number;
  windowSeconds: number;
}

/**
 * Sign-in: 10 failures per account and 30 per IP in 15 minutes (an IP may be shared by a
 * household or an office, so it gets more). Mail (verification and reset links): 5 per
 * address and 20 per IP an hour, so nobody can make the site mail-bomb an address.
 */
export const SIGN_IN_LIMITS: Record<ThrottleScope, ThrottleLimit> = {
  account: { points: 10, windowSeconds: 15 * 60 },
  ip: { points: 30, windowSeconds: 15 * 60 },
};
export const MAIL_LIMITS: Record<ThrottleScope, ThrottleLimit> = {
  account: { points: 5, windowSeconds: 60 * 60 },
  ip: { points: 20, windowSeconds: 60 * 60 },
};

/** Counters in this process (one instance); keys never leave memory and are never logged. */
export function createMemoryThrottle(
  name: string,
  limits: Record<ThrottleScope, ThrottleLimit>,
): Throttle {
  const limiters: Record<ThrottleScope, RateLimiterMemory> = {
    account: new RateLimiterMemory({
      keyPrefix: `quire:${name}:account`,
      points: limits.account.points,
      duration: limits.account.windowSeconds,
    }),
    ip: new RateLimiterMemory({
      keyPrefix: `quire:${name}:ip`,
      points: limits.ip.points,
      duration: limits.ip.windowSeconds,
    }),
  };
  return {
    async blockedFor(keys) {
      let wait = 0;
      for (const key of keys) {
        const res = await limiters[key.scope].get(key.id);
        if (res && res.consumedPoints >= limits[key.scope].points) {
          wait = Math.max(wait, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
        }
      }
      return wait;
    },
    async hit(keys) {
      for (const key of keys) await limiters[key.scope].penalty(key.id, 1);
    },
    async clear(key) {
      await limiters[key.scope].delete(key.id);
    },
  };
}

export function createMemoryOwnerThrottles(): OwnerThrottles {
  return {
    signIn: createMemoryThrottle("signin", SIGN_IN_LIMITS),
    mail: createMemoryThrottle("mail", MAIL_LIMITS),
  };
}

/** The keys for one attempt: the account (normalised email) and the client IP. */
export function throttleKeys(account: string, ip: string | undefined): ThrottleKey[] {
  const keys: ThrottleKey[] = [{ scope: "account", id: account.trim().toLowerCase() }];
  if (ip) keys.push({ scope: "ip", id: ip });
  return keys;
}

const fallbacks = new WeakMap<object, OwnerThrottles>();

/**
 * The context's throttles. A context without them (a script, a service test) still gets
 * in-process counters, one set per database, so no path skips throttling.
 */
export function ownerThrottles(ctx: ServiceContext): OwnerThrottles {
  if (ctx.throttles) return ctx.throttles;
  let t = fallbacks.get(ctx.db);
  if (!t) {
    t = createMemoryOwnerThrottles();
    fallbacks.set(ctx.db, t);
  }
  return t;
}
