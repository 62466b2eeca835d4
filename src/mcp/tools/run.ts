/** @module Runs a tool body and turns its answer or its failure into a CallToolResult. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpRequestContext } from "../context.ts";
import { toolError } from "../errors.ts";

/** `structuredContent` is the service's answer; the text is a readable rendering of it. */
export async function runTool<T extends Record<string, unknown>>(
  rc: McpRequestContext,
  body: () => Promise<T>,
  render: (result: T) => string,
): Promise<CallToolResult> {
  try {
    const result = await body();
    return { structuredContent: result, content: [{ type: "text", text: render(result) }] };
  } catch (error) {
    return toolError(error, rc.ctx.logger, rc.requestId);
  }
}
