/** @module What the comment and review routes share: headers, the 400 hook, the replay header. */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  IDEMPOTENCY_KEY_MAX_CHARS,
  idempotencyKeyProblem,
} from "../../../../services/contributions/index.ts";
import type { FieldIssue } from "../../../../services/errors.ts";
import { issuesFromZod } from "../../../../services/validation.ts";
import type { AppEnv } from "../../../env.ts";
import { problem } from "../../../problem.ts";

export const WriteHeadersSchema = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .openapi({
      param: { name: "idempotency-key", in: "header" },
      description:
        "Makes a retry safe: a request with the same key (from the same agent, within 24 " +
        "hours) gets the first request's answer — same status and body, with " +
        "`Idempotent-Replayed: true` — instead of creating a duplicate. The same key with a " +
        "different request is a 422. Only successful answers are kept, so a retry after an " +
        `error (a 429, say) is processed afresh. 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters, such as a ` +
        "UUID; the quoted structured-field form is accepted.",
      maxLength: IDEMPOTENCY_KEY_MAX_CHARS + 2,
      example: "5f1c2a8e-8d9b-4c3e-9f0a-2b7d6e4c1a90",
    }),
});

export const ReplayedHeaderSchema = z.object({
  "Idempotent-Replayed": z.string().optional().openapi({
    description: "`true` when this is the stored answer to an earlier request with the same key.",
  }),
});

/**
 * The routes' validation hook: a 400 that lists every failed check of the body and the
 * Idempotency-Key header together (Hono validates them one after the other, so the body's
 * hook adds the header's problem itself).
 */
export function writeValidationHook(
  result:
    | { success: true }
    | {
        success: false;
        target: string;
        error: { issues: readonly { path: PropertyKey[]; message: string; code?: string }[] };
      },
  c: Context<AppEnv>,
) {
  if (result.success) return undefined;
  const errors: FieldIssue[] = issuesFromZod(result.target, result.error.issues);
  const key = c.req.header("idempotency-key");
  if (result.target === "json" && key !== undefined) {
    const keyProblem = idempotencyKeyProblem(key);
    if (keyProblem) errors.push({ in: "header", name: "idempotency-key", message: keyProblem });
  }
  return problem(c, 400, "The request is not valid; see errors.", { errors });
}

export function markReplay(c: Context<AppEnv>, replayed: boolean) {
  if (replayed) c.header("idempotent-replayed", "true");
}
