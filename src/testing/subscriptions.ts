/**
 * @module Test support for MCP resource subscriptions: the SDK's real client, told when its GET
 * event stream is open, and the `notifications/resources/updated` it receives, in order.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { and, count, eq } from "drizzle-orm";
import { resourceSubscriptions } from "../db/schema/index.ts";
import type { ServiceContext } from "../services/context.ts";

export interface SubscribingClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Settles when the server has answered the client's GET with its open event stream. */
  streamOpen: Promise<void>;
  /** Every updated URI received so far, in order. */
  updates: string[];
  /** The next updated URI not yet taken (one already received, or the next to arrive). */
  nextUpdate(): Promise<string>;
  close(): Promise<void>;
}

/**
 * An SDK client for `{url}/mcp` with an agent key, connected, collecting resource updates.
 * With `postTo`, its POSTs (initialize, subscribe, reads) go to that instance instead, as a
 * load balancer may send them, while its GET stream stays on `url`.
 */
export async function subscribingClient(
  url: string,
  key: string,
  options: { postTo?: string } = {},
): Promise<SubscribingClient> {
  let opened: () => void = () => {};
  const streamOpen = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (input, init) => {
      const target =
        options.postTo && init?.method !== "GET"
          ? new URL(new URL(String(input)).pathname, options.postTo)
          : input;
      const res = await fetch(target, init);
      if (init?.method === "GET" && res.status === 200) opened();
      return res;
    },
  });
  const client = new Client({ name: "quire-subscriber", version: "1.0.0" });
  const updates: string[] = [];
  let taken = 0;
  const waiting: ((uri: string) => void)[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
    const resolve = waiting.shift();
    if (resolve) {
      taken++;
      resolve(notification.params.uri);
    }
  });
  await client.connect(transport);
  return {
    client,
    transport,
    streamOpen,
    updates,
    nextUpdate: () => {
      if (taken < updates.length) return Promise.resolve(updates[taken++] as string);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => client.close(),
  };
}

/** How many subscriptions (live or not) an agent's session holds in the database. */
export async function subscriptionsHeld(
  ctx: ServiceContext,
  agentId: string,
  sessionId: string,
): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(resourceSubscriptions)
    .where(
      and(
        eq(resourceSubscriptions.agentId, agentId),
        eq(resourceSubscriptions.sessionId, sessionId),
      ),
    );
  return row?.n ?? 0;
}
