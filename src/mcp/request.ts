/** @module What every tool handler gets from the HTTP request that carried it. */
import type { ServiceContext } from "../services/context.ts";

export interface McpRequest {
  /** The request's service context, with the caller resolved from its agent key. */
  ctx: ServiceContext;
  /** The client address: per-IP rate-limit buckets are keyed by it, as for REST. */
  clientIp: string;
  /** The request's Authorization header (for `whoami`, which answers like `/me`). */
  authorization: string | undefined;
  requestId: string;
  baseUrl: string;
  /**
   * Whether this instance serves event streams (GET /mcp), so resource subscriptions can be
   * honoured: the server then declares `resources.subscribe`.
   */
  subscriptions: boolean;
  /** The request's `Mcp-Session-Id` (given at initialize; subscriptions are per session). */
  sessionId: string | undefined;
}
