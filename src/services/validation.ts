/** @module Input validation shared by services and front ends: zod issues → FieldIssues. */
import type { z } from "zod";
import { type FieldIssue, Invalid } from "./errors.ts";

const TARGET_TO_IN: Record<string, FieldIssue["in"]> = {
  query: "query",
  param: "path",
  json: "body",
  form: "body",
  header: "header",
  cookie: "header",
  body: "body",
  path: "path",
};

/** zod issues → our FieldIssue list; every failed check, not just the first. */
export function issuesFromZod(
  target: string,
  issues: readonly { path: PropertyKey[]; message: string; code?: string; keys?: string[] }[],
): FieldIssue[] {
  const where = TARGET_TO_IN[target] ?? "body";
  const out: FieldIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys" && issue.keys) {
      for (const key of issue.keys) {
        out.push({
          in: where,
          name: path ? `${path}.${key}` : key,
          message: "is not a known field",
        });
      }
      continue;
    }
    out.push({ in: where, name: path || "(root)", message: issue.message });
  }
  return out;
}

/**
 * Parses with a schema, or throws Invalid listing every failed check. Services call it on
 * their input even when a front end has already validated it (the MCP tools and pages
 * reach the services by other paths).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: FieldIssue["in"] = "body",
  message = "The request body is not valid; see errors.",
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new Invalid(message, issuesFromZod(where, result.error.issues));
}
