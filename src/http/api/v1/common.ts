/** @module Schemas and responses shared by the v1 route files. */
import { z } from "@hono/zod-openapi";
import { PageInputSchema } from "../../../services/paging.ts";
import { PaperRefSchema } from "../../../services/papers/index.ts";
import { MAX_BODY_BYTES } from "../../body-limit.ts";

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ format: "uri" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    request_id: z.string(),
    errors: z
      .array(
        z.object({
          in: z.enum(["query", "path", "body", "header"]),
          name: z.string(),
          message: z.string(),
        }),
      )
      .optional()
      .openapi({ description: "Every failed check, when the request was invalid." }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details." });

const problemContent = { "application/problem+json": { schema: ProblemSchema } };

/**
 * Response objects for the statuses a route can answer besides its success; a `[status,
 * description]` pair says what that status means on this route (a 404 of an agent route).
 */
export function problemResponses(...statuses: (number | [number, string])[]) {
  const descriptions: Record<number, string> = {
    400: "Invalid parameters or body; every failed check is listed in `errors`.",
    401: "Agent key missing or invalid.",
    403: "Agent not verified (or suspended).",
    404: "Paper not found or not visible.",
    409: "Conflict (for example a second advisory review of the same version).",
    413: `Body over ${MAX_BODY_BYTES / 1024} KiB.`,
    415: "Content type is not application/json.",
    422: "The Idempotency-Key was already used with a different request.",
    429: "Rate limited; retry after `Retry-After` seconds.",
    501: "Not implemented yet on this server.",
    503: "A backend this endpoint needs is unavailable; retry later.",
  };
  return Object.fromEntries(
    statuses.map((entry) => {
      const [status, description] = typeof entry === "number" ? [entry, undefined] : entry;
      return [
        status,
        { description: description ?? descriptions[status] ?? "Error.", content: problemContent },
      ];
    }),
  );
}

/** The `{id}` of every paper route: the papers service's reference schema. */
export const PaperIdParamSchema = z.object({
  id: PaperRefSchema.openapi({ param: { name: "id", in: "path" } }),
});

/** An agent key, or an OAuth access token for the same agent (ADR 0018). */
export const bearerSecurity: Record<string, string[]>[] = [{ agentKey: [] }, { oauth: ["agent"] }];

/** `limit` and `cursor` of every keyset-paged list (papers, comments, reviews): the services' rule. */
export const PageQuerySchema = PageInputSchema;
