/** @module RFC 9457 problem+json: the one error shape of every HTTP front end. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  type DomainError,
  type FieldIssue,
  RateLimited,
  Unauthorized,
  Unavailable,
} from "../services/errors.ts";
import { rateLimitHeaders } from "./ratelimit-headers.ts";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  request_id: string;
  errors?: FieldIssue[];
}

const TITLES: Record<number, [slug: string, title: string]> = {
  400: ["invalid-request", "Invalid request"],
  401: ["unauthorized", "Unauthorized"],
  403: ["forbidden", "Forbidden"],
  404: ["not-found", "Not found"],
  405: ["method-not-allowed", "Method not allowed"],
  406: ["not-acceptable", "Not acceptable"],
  409: ["conflict", "Conflict"],
  412: ["precondition-failed", "Precondition failed"],
  413: ["payload-too-large", "Payload too large"],
  415: ["unsupported-media-type", "Unsupported media type"],
  422: ["unprocessable", "Unprocessable request"],
  429: ["rate-limited", "Too many requests"],
  500: ["internal", "Internal server error"],
  501: ["not-implemented", "Not implemented"],
  503: ["unavailable", "Service unavailable"],
};

const STATUS_BY_CODE: Record<DomainError["code"], ContentfulStatusCode> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** The HTTP status every front end uses for a domain error (problem+json and error pages). */
export function statusOfDomainError(error: DomainError): ContentfulStatusCode {
  return STATUS_BY_CODE[error.code];
}

function problemTypeUri(baseUrl: string, status: number): string {
  return `${baseUrl}/docs/problems#${TITLES[status]?.[0] ?? "error"}`;
}

/**
 * A problem body as `problem` sends it: the one place its fields are filled in (the OpenAPI
 * document's examples use it too, so they cannot differ from a real answer).
 */
export function problemExample(
  baseUrl: string,
  status: number,
  detail: string,
  at: { instance: string; request_id: string; errors?: FieldIssue[] },
): Problem {
  return {
    type: problemTypeUri(baseUrl, status),
    title: TITLES[status]?.[1] ?? "Error",
    status,
    detail,
    instance: at.instance,
    request_id: at.request_id,
    ...(at.errors && at.errors.length > 0 ? { errors: at.errors } : {}),
  };
}

/** Builds a problem+json response; `headers` carries Allow, Retry-After, WWW-Authenticate. */
export function problem(
  c: Context,
  status: ContentfulStatusCode,
  detail: string,
  options: { errors?: FieldIssue[]; headers?: Record<string, string> } = {},
): Response {
  const baseUrl = (c.get("baseUrl") as string | undefined) ?? "";
  const body = problemExample(baseUrl, status, detail, {
    instance: new URL(c.req.url).pathname,
    request_id: (c.get("requestId") as string | undefined) ?? "",
    ...(options.errors ? { errors: options.errors } : {}),
  });
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      "x-request-id": body.request_id,
      ...options.headers,
    },
  });
}

/** Maps a domain error to its problem response: the one place this mapping lives. */
export function problemFromDomainError(c: Context, error: DomainError): Response {
  const status = STATUS_BY_CODE[error.code];
  const headers: Record<string, string> = {};
  if (error instanceof RateLimited) {
    // The rate-limit middleware rewrites the RateLimit fields with every policy the request
    // drew on; these cover a RateLimited thrown where no middleware runs.
    Object.assign(headers, rateLimitHeaders(error.decision ? [error.decision] : []));
    headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
  }
  if (error instanceof Unavailable && error.retryAfterSeconds !== undefined) {
    headers["retry-after"] = String(error.retryAfterSeconds);
  }
  if (error instanceof Unauthorized) {
    headers["www-authenticate"] = error.challenge
      ? `Bearer realm="quire", error="${error.challenge}"`
      : 'Bearer realm="quire"';
  }
  const issues = "issues" in error ? (error.issues as FieldIssue[]) : undefined;
  return problem(c, status, error.message, { errors: issues ?? [], headers });
}

/** zod issues → FieldIssues; lives with the services, which validate with it too. */
export { issuesFromZod } from "../services/validation.ts";
