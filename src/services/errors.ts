/** @module Typed domain errors that services throw and each front end maps once. */
import { isDatabaseUnavailable, isUnstorableText } from "../db/unavailable.ts";
import type { RateLimitDecision } from "./ratelimit/index.ts";

/** One failed check, named by where it came from; listed all together, never just the first. */
export interface FieldIssue {
  in: "query" | "path" | "body" | "header";
  name: string;
  message: string;
}

export type DomainErrorCode =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "rate_limited"
  | "unavailable";

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
}

export class Invalid extends DomainError {
  readonly code = "invalid";
  constructor(
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
  }
}

/**
 * No usable credentials. `challenge` is the RFC 6750 error code for `WWW-Authenticate`:
 * absent when the request carried no bearer credentials at all (the RFC says to send none
 * then), `invalid_request` for a malformed header, `invalid_token` for a key we refuse.
 */
export class Unauthorized extends DomainError {
  readonly code = "unauthorized";
  constructor(
    message: string,
    readonly challenge?: "invalid_request" | "invalid_token",
  ) {
    super(message);
  }
}

export class Forbidden extends DomainError {
  readonly code = "forbidden";
}

export class NotFound extends DomainError {
  readonly code = "not_found";
}

export class Conflict extends DomainError {
  readonly code = "conflict";
}

/**
 * Well-formed but unusable as sent; used for an Idempotency-Key reused with a different
 * request (422, as the IETF Idempotency-Key draft specifies).
 */
export class Unprocessable extends DomainError {
  readonly code = "unprocessable";
}

export class RateLimited extends DomainError {
  readonly code = "rate_limited";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    /** The refused draw, so front ends can send the IETF RateLimit headers. */
    readonly decision?: RateLimitDecision,
  ) {
    super(message);
  }
}

export class Unavailable extends DomainError {
  readonly code = "unavailable";
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** How long a client should wait before retrying when the database is unavailable. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The domain error a failure stands for, or null for a bug. Database failures that mean
 * "not now" become Unavailable (503 with Retry-After), and text the database refused for its
 * encoding becomes Invalid; every front end maps errors through this, so each maps
 * `Unavailable` once.
 */
export function domainErrorOf(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isDatabaseUnavailable(error)) {
    return new Unavailable(
      "The archive's database is busy or unreachable; retry shortly.",
      UNAVAILABLE_RETRY_SECONDS,
    );
  }
  if (isUnstorableText(error)) {
    return new Invalid("The request contains text the archive cannot store.");
  }
  return null;
}
