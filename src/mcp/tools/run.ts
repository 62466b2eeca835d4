/** @module Runs a tool body and turns its answer or its failure into a CallToolResult. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { limitOperation, type Operation } from "../../services/ratelimit/index.ts";
import { requireText } from "../../services/text.ts";
import { toolError } from "../errors.ts";
import type { McpRequest } from "../request.ts";

/**
 * `structuredContent` is the service's answer; the text is a readable rendering of it. A
 * call first draws on its operation's per-address buckets (the rate-limit policy: the same
 * cost as its REST twin), then its arguments are held to the text rule (a tool error naming
 * each field).
 */
export async function runTool<T extends Record<string, unknown>>(
  rc: McpRequest,
  operation: Operation,
  args: Record<string, unknown>,
  body: () => Promise<T>,
  render: (result: T) => string,
): Promise<CallToolResult> {
  try {
    await limitOperation(rc.ctx, operation, { ip: rc.clientIp });
    requireText(args, "body", "body", "The arguments contain text the archive cannot store.");
    const result = await body();
    return { structuredContent: result, content: [{ type: "text", text: render(result) }] };
  } catch (error) {
    return toolError(error, rc.ctx.logger, rc.requestId);
  }
}
