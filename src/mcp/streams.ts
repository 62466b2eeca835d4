/**
 * @module This instance's open MCP event streams (GET /mcp), and the wake-ups every instance
 * commits (LISTEN quire_notifications) pushed on them as `notifications/resources/updated`
 * (docs/adr/0051-mcp-resource-subscriptions.md).
 */
import { authenticateAgent } from "../services/bearer/index.ts";
import { type ServiceContext, withCaller } from "../services/context.ts";
import { RateLimited, Unauthorized, Unavailable } from "../services/errors.ts";
import { NOTIFICATION_CHANNEL, parseWakeup, type Wakeup } from "../services/notifications/index.ts";
import {
  attachStream,
  detachStream,
  matchWakeup,
  renewStreams,
  STREAM_HEARTBEAT_SECONDS,
  STREAMS_PER_AGENT,
  type StreamKey,
} from "../services/subscriptions/index.ts";
import { loadMcp } from "./sdk.ts";

/** Database.listen's shape: every NOTIFY on `channel` any process commits. */
export type Listen = (
  channel: string,
  handlers: { notify(payload: string): void; lost?(): void; ready?(): void },
) => Promise<() => Promise<void>>;

interface OpenStream {
  /** The GET's context, its caller the agent its credential names. */
  ctx: ServiceContext;
  sessionId: string;
  /** The credential, checked again at every heartbeat (a revoked key's stream ends). */
  authorization: string;
  request: Request;
}

export interface McpStreams {
  /**
   * Answers a GET /mcp of an agent's session with its event stream (or the transport's own
   * refusal: 406 without `Accept: text/event-stream`, 400 for an unknown protocol version).
   * Throws RateLimited past STREAMS_PER_AGENT streams of one agent here, Unavailable once
   * closing.
   */
  open(stream: OpenStream): Promise<Response>;
  /** Streams open now. */
  readonly size: number;
  /**
   * Ends every stream (their clients reconnect, to another instance when this one drains)
   * and stops listening and the heartbeat.
   */
  close(): Promise<void>;
}

interface Entry {
  key: StreamKey;
  authorization: string;
  announce(uri: string): void;
  end(): Promise<void>;
}

const idOf = (key: StreamKey) => `${key.agentId} ${key.sessionId}`;

/**
 * One per instance (the server makes it; tests too). Nothing runs until the first stream
 * opens: then it LISTENs (on a connection of its own on PostgreSQL) and beats every
 * STREAM_HEARTBEAT_SECONDS on the context's clock, renewing what the open streams hold and
 * ending those whose credential no longer authenticates. A wake-up costs one indexed query
 * while streams are open, none otherwise; while the listening connection is down wake-ups
 * are lost, so when it is back every open stream's subscriptions are announced once.
 */
export function createMcpStreams(options: {
  services: ServiceContext;
  listen: Listen;
}): McpStreams {
  const { services } = options;
  const operator = withCaller(services, { kind: "operator" });
  const log = services.logger;
  const streams = new Map<string, Entry>();
  let listening: Promise<() => Promise<void>> | undefined;
  let cancelBeat: (() => void) | undefined;
  let beating: Promise<void> = Promise.resolve();
  let closed = false;

  const keys = () => [...streams.values()].map((e) => e.key);

  const push = async (wakeup: Wakeup | null) => {
    if (streams.size === 0) return;
    const matches = await matchWakeup(operator, { streams: keys(), wakeup });
    for (const m of matches) streams.get(idOf(m))?.announce(m.uri);
  };
  // Wake-ups are matched one after another, in the order they were committed, so a client
  // hears of changes in that order.
  let queue: Promise<void> = Promise.resolve();
  const pushLogged = (wakeup: Wakeup | null) => {
    queue = queue.then(() =>
      push(wakeup).catch((error: unknown) => {
        log.warn({ err: error }, "mcp subscriptions: a wake-up could not be matched");
      }),
    );
  };
  const ending = new Set<Promise<void>>();

  const listen = () => {
    listening ??= options
      .listen(NOTIFICATION_CHANNEL, {
        notify: (payload) => {
          const wakeup = parseWakeup(payload);
          if (wakeup) pushLogged(wakeup);
        },
        lost: () => log.warn("mcp subscriptions: lost the wake-ups; reconnecting"),
        ready: () => {
          log.info("mcp subscriptions: wake-ups are back; announcing every subscription once");
          pushLogged(null);
        },
      })
      .catch((error: unknown) => {
        listening = undefined;
        throw error;
      });
    return listening;
  };

  const beat = async () => {
    for (const entry of [...streams.values()]) {
      try {
        await authenticateAgent(services, { authorization: entry.authorization });
      } catch (error) {
        if (error instanceof Unauthorized) await entry.end();
        else log.warn({ err: error }, "mcp subscriptions: a stream's credential was not checked");
      }
    }
    await renewStreams(operator, keys());
  };
  const arm = () => {
    if (closed || cancelBeat) return;
    cancelBeat = services.clock.schedule(STREAM_HEARTBEAT_SECONDS * 1000, () => {
      cancelBeat = undefined;
      beating = beat()
        .catch((error: unknown) => log.warn({ err: error }, "mcp subscriptions: heartbeat failed"))
        .finally(arm);
    });
  };

  return {
    get size() {
      return streams.size;
    },
    async open({ ctx, sessionId, authorization, request }) {
      if (closed) {
        throw new Unavailable("This instance is shutting down; open the stream again.", 1);
      }
      const caller = ctx.caller;
      if (caller.kind !== "agent") throw new Unauthorized("An event stream is an agent's.");
      const key: StreamKey = { agentId: caller.agentId, sessionId };
      // A client reconnecting before this instance noticed its old stream go: the new wins.
      await streams.get(idOf(key))?.end();
      const mine = keys().filter((k) => k.agentId === key.agentId).length;
      if (mine >= STREAMS_PER_AGENT) {
        throw new RateLimited(
          `This agent has ${STREAMS_PER_AGENT} event streams open on this server, the most it may; close one (end its client) and open this again.`,
          STREAM_HEARTBEAT_SECONDS,
        );
      }
      await listen();
      const [{ buildStreamServer }, { WebStandardStreamableHTTPServerTransport }] = await loadMcp();
      const server = buildStreamServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
      });
      await server.connect(transport);
      const response = await transport.handleRequest(request);
      if (response.status !== 200 || !response.body) {
        await server.close();
        return response;
      }
      let announced: string[];
      try {
        announced = await attachStream(ctx, { sessionId });
      } catch (error) {
        await server.close();
        throw error;
      }
      let finished: Promise<void> | undefined;
      const entry: Entry = {
        key,
        authorization,
        announce: (uri) => {
          server.sendResourceUpdated({ uri }).catch(() => {
            // The stream has just closed: its subscriptions wait for the next one.
          });
        },
        end: () => {
          if (!finished) {
            const done = (async () => {
              if (streams.get(idOf(key)) === entry) streams.delete(idOf(key));
              await server.close().catch(() => {});
              await detachStream(ctx, { sessionId }).catch((error: unknown) => {
                log.warn({ err: error }, "mcp subscriptions: a closed stream was not recorded");
              });
            })();
            ending.add(done);
            finished = done.finally(() => ending.delete(done));
          }
          return finished;
        },
      };
      // A stream of the same session opened meanwhile (two GETs at once) gives way to this one.
      const previous = streams.get(idOf(key));
      streams.set(idOf(key), entry);
      if (previous) void previous.end();
      arm();
      for (const uri of announced) entry.announce(uri);
      // The transport's stream, passed through: its end (the server closed it) or its
      // cancellation (the client went away) ends the entry.
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              controller.close();
              void entry.end();
            } else {
              controller.enqueue(value);
            }
          } catch (error) {
            controller.error(error);
            void entry.end();
          }
        },
        async cancel(reason) {
          void entry.end();
          await reader.cancel(reason).catch(() => {});
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    },
    async close() {
      closed = true;
      cancelBeat?.();
      await beating;
      await Promise.all([...streams.values()].map((e) => e.end()));
      await Promise.all([...ending]);
      await queue;
      const stop = await listening?.catch(() => undefined);
      await stop?.();
    },
  };
}
