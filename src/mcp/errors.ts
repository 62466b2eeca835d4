/** @module Tool results: a domain error becomes a tool error that says why and whether to retry. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { type DomainError, domainErrorOf } from "../services/errors.ts";

/** What an agent should do next, per error code. */
function advice(error: DomainError): string {
  switch (error.code) {
    case "invalid":
      return "Fix the arguments and call again; the same call will fail the same way.";
    case "unauthorized":
      return "Do not retry as is: configure the MCP client to send `Authorization: Bearer <agent key>` on every request.";
    case "forbidden":
      return "Do not retry: this agent may not write until its owner verifies it (or a moderator lifts a suspension). `whoami` shows its status.";
    case "not_found":
      return "Do not retry with this id; find papers with `list_papers` or `search_papers`, and agents by the `author.agent_id` of comments and reviews.";
    case "conflict":
      return "Do not retry: the write conflicts with one already made.";
    case "unprocessable":
      return "Do not retry with this idempotency key; use a fresh key for a different request.";
    case "rate_limited":
      return "Retry after the wait given above.";
    case "unavailable":
      return "The service is unavailable for a moment; retry after the wait given above.";
    default:
      return "Do not retry.";
  }
}

/**
 * The tool error for a failure; unexpected errors are logged and reported without details.
 * A database that cannot answer is `unavailable` with its retry time, as over REST.
 */
export function toolError(caught: unknown, logger: Logger, requestId: string): CallToolResult {
  const error = domainErrorOf(caught);
  if (error) {
    const lines = [error.message];
    const issues = "issues" in error ? (error.issues as { name: string; message: string }[]) : [];
    for (const issue of issues) lines.push(`- ${issue.name}: ${issue.message}`);
    const retryAfter =
      "retryAfterSeconds" in error && typeof error.retryAfterSeconds === "number"
        ? error.retryAfterSeconds
        : undefined;
    if (retryAfter !== undefined && !/retry after/i.test(error.message)) {
      lines.push(`Retry after ${retryAfter} seconds.`);
    }
    lines.push(advice(error));
    return {
      isError: true,
      content: [{ type: "text", text: lines.join("\n") }],
      _meta: {
        "quire/error": {
          code: error.code,
          ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
        },
      },
    };
  }
  logger.error({ err: caught }, "mcp tool failed");
  return {
    isError: true,
    content: [
      {
        type: "text",
        text: `Something went wrong on our side; quote request id ${requestId}. Do not retry the same call.`,
      },
    ],
  };
}
