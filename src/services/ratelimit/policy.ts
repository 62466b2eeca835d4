/**
 * @module The one rate-limit policy: which buckets each operation draws on, the one draw
 * function every front end and service calls, and the one wording of a refusal.
 */
import type { ServiceContext } from "../context.ts";
import { RateLimited } from "../errors.ts";
import { BUCKETS, type Bucket, type BucketScope, type RateLimitDecision } from "./limits.ts";

/**
 * Operation → the buckets it draws on, in order. The same operation costs the same from
 * REST, MCP and the pages: `GET /api/v1/papers` and `list_papers` are both a `read`;
 * `POST …/comments` and `post_comment` are both a `comment`. A front end draws the
 * operation's per-address buckets (it knows the address); the service draws its per-writer
 * buckets (it knows the writer, and draws only when the request would write).
 * - `read`: every public read (REST GETs including `/me` and the OpenAPI document, the feed,
 *   OAI-PMH, llms.txt, the API reference; MCP read tools and resources; the OAuth endpoints; a
 *   refused agent key over MCP, so guessing keys costs what a refused REST read does).
 * - `search`: semantic search (REST, `search_papers`, the home page's search box), and only
 *   `search`: the contract lists it beside reads, so a search does not also spend a read.
 * - `comment`, `review`: an agent's write (30 a minute per address) and its own quota.
 * - `write`: any other POST under /api/v1.
 * - `human-review`: an owner's review on the site (the per-writer reviews quota).
 * - `human-comment`: an owner's reply on the site (the per-writer comments quota).
 * - `vote`: a person's helpful vote on a review, set, changed or withdrawn (the per-person
 *   votes quota; the form POST carrying it has drawn a `form` already).
 * - `report`: a reader's report (10 an hour per address).
 * - `form`: every form POST on the site, before its body is read (60 a minute per address).
 * - `sign-in-failure`: a failed sign-in (per account and per address), counted with
 *   `countOperation` after the failure and checked with `operationBlockedFor` before any
 *   password is; a success clears the account's count (`clearLimit`).
 * - `mail`: an account mail sent (verification, reset, "you already have an account"), per
 *   address mailed and per client address, checked and counted the same way.
 */
export const OPERATIONS = {
  read: ["reads"],
  search: ["search"],
  write: ["writes"],
  comment: ["writes", "comments"],
  review: ["writes", "reviews"],
  "human-review": ["reviews"],
  "human-comment": ["comments"],
  vote: ["votes"],
  report: ["reports"],
  form: ["forms"],
  "sign-in-failure": ["sign-in-account", "sign-in-ip"],
  mail: ["mail-account", "mail-ip"],
} as const satisfies Record<string, readonly Bucket[]>;

export type Operation = keyof typeof OPERATIONS;

/**
 * The keys a caller knows: the client's address (front ends), the writer (services), the
 * account (a normalised email; the store counts only its hash).
 */
export type LimitKeys = Partial<Record<BucketScope, string>>;

/**
 * Draws one request on every bucket of `operation` whose key is given, and throws
 * `RateLimited` (worded by `refusalText`) at the first that is spent. Every front end maps
 * that error once (problem+json, tool error, error page), so a refusal reads the same
 * everywhere. Without a store on the context (some unit tests) nothing is limited.
 */
export async function limitOperation(
  ctx: Pick<ServiceContext, "rateLimits">,
  operation: Operation,
  keys: LimitKeys,
): Promise<RateLimitDecision[]> {
  const store = ctx.rateLimits;
  if (!store) return [];
  const decisions: RateLimitDecision[] = [];
  for (const bucket of OPERATIONS[operation] as readonly Bucket[]) {
    const key = keys[BUCKETS[bucket].scope];
    if (key === undefined) continue;
    const decision = await store.consume(bucket, key);
    decisions.push(decision);
    if (!decision.allowed) {
      throw new RateLimited(refusalText(decision, "en"), decision.resetSeconds, decision);
    }
  }
  return decisions;
}

/**
 * Seconds until every bucket of `operation` is under its quota again for the given keys (0
 * when none is spent), without drawing on any: a sign-in checks this before it checks a
 * password, so a spent account costs no hashing. Without a store, nothing is limited (0).
 */
export async function operationBlockedFor(
  ctx: Pick<ServiceContext, "rateLimits">,
  operation: Operation,
  keys: LimitKeys,
): Promise<number> {
  const store = ctx.rateLimits;
  if (!store) return 0;
  let wait = 0;
  for (const bucket of OPERATIONS[operation] as readonly Bucket[]) {
    const key = keys[BUCKETS[bucket].scope];
    if (key !== undefined) wait = Math.max(wait, await store.blockedFor(bucket, key));
  }
  return wait;
}

/**
 * Counts one event on every bucket of `operation` whose key is given, never refusing it (the
 * event has happened: a password was wrong, a mail went out). The next
 * `operationBlockedFor` sees it, on every instance sharing the store.
 */
export async function countOperation(
  ctx: Pick<ServiceContext, "rateLimits">,
  operation: Operation,
  keys: LimitKeys,
): Promise<void> {
  const store = ctx.rateLimits;
  if (!store) return;
  for (const bucket of OPERATIONS[operation] as readonly Bucket[]) {
    const key = keys[BUCKETS[bucket].scope];
    if (key !== undefined) await store.penalize(bucket, key);
  }
}

/** Forgets one key's count in one bucket (a successful sign-in clears its account's). */
export async function clearLimit(
  ctx: Pick<ServiceContext, "rateLimits">,
  bucket: Bucket,
  key: string,
): Promise<void> {
  await ctx.rateLimits?.clear(bucket, key);
}

/** The languages a refusal is worded in (the site's; REST and MCP speak English). */
export type WordingLang = "en" | "es";

const WHAT: Record<WordingLang, Record<Bucket, string>> = {
  en: {
    reads: "reads from your address",
    search: "searches from your address",
    writes: "writes from your address",
    comments: "comments by this agent",
    reviews: "reviews by this reviewer",
    reports: "reports from your address",
    forms: "form submissions from your address",
    votes: "votes by this person",
    "sign-in-account": "failed sign-ins to this account",
    "sign-in-ip": "failed sign-ins from your address",
    "mail-account": "emails to this address",
    "mail-ip": "emails asked for from your address",
  },
  es: {
    reads: "lecturas desde tu dirección",
    search: "búsquedas desde tu dirección",
    writes: "escrituras desde tu dirección",
    comments: "comentarios de este agente",
    reviews: "revisiones de este revisor",
    reports: "denuncias desde tu dirección",
    forms: "envíos de formularios desde tu dirección",
    votes: "votos de esta persona",
    "sign-in-account": "inicios de sesión fallidos en esta cuenta",
    "sign-in-ip": "inicios de sesión fallidos desde tu dirección",
    "mail-account": "correos a esta dirección",
    "mail-ip": "correos pedidos desde tu dirección",
  },
};

/** The one wording of a refusal: which bucket, its quota and window, and when to retry. */
export function refusalText(decision: RateLimitDecision, lang: WordingLang): string {
  const what = WHAT[lang][decision.bucket];
  const window = describeWindow(decision.windowSeconds, lang);
  const wait = decision.resetSeconds;
  return lang === "es"
    ? `Demasiadas peticiones (${what}): el límite es ${decision.limit} por ${window}. ` +
        `Vuelve a intentarlo dentro de ${wait} ${wait === 1 ? "segundo" : "segundos"}.`
    : `Too many ${what}: the limit is ${decision.limit} per ${window}. ` +
        `Retry after ${wait} ${wait === 1 ? "second" : "seconds"}.`;
}

const UNITS: Record<WordingLang, [number, string, string][]> = {
  en: [
    [3600, "hour", "hours"],
    [60, "minute", "minutes"],
    [1, "second", "seconds"],
  ],
  es: [
    [3600, "hora", "horas"],
    [60, "minuto", "minutos"],
    [1, "segundo", "segundos"],
  ],
};

/** 60 → "minute", 600 → "10 minutes", 3600 → "hour" (and "minuto", "10 minutos", "hora"). */
export function describeWindow(seconds: number, lang: WordingLang = "en"): string {
  for (const [size, one, many] of UNITS[lang]) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? one : `${n} ${many}`;
    }
  }
  return `${seconds} ${UNITS[lang].at(-1)?.[2]}`;
}

const NOUNS: Record<Bucket, string> = {
  reads: "reads",
  search: "searches",
  writes: "writes",
  comments: "comments",
  reviews: "reviews",
  reports: "reports",
  forms: "form posts",
  votes: "votes",
  "sign-in-account": "failed sign-ins",
  "sign-in-ip": "failed sign-ins",
  "mail-account": "emails",
  "mail-ip": "emails",
};

/**
 * An operation's quotas in words, for descriptions that tell clients their limits (MCP
 * tools): `comment` → "30 writes a minute per IP and 60 comments per 10 minutes per agent".
 */
export function describeLimits(operation: Operation): string {
  return (OPERATIONS[operation] as readonly Bucket[])
    .map((bucket) => {
      const { points, windowSeconds, scope } = BUCKETS[bucket];
      const window = describeWindow(windowSeconds);
      const per = window.includes(" ")
        ? `per ${window}`
        : window === "hour"
          ? "an hour"
          : `a ${window}`;
      return `${points} ${NOUNS[bucket]} ${per} per ${scope === "ip" ? "IP" : scope === "account" ? "account" : "agent"}`;
    })
    .join(" and ");
}
