/**
 * @module /mcp: Streamable HTTP in Hono. POST answers JSON-RPC with JSON from a server built per
 * request; GET is an agent session's event stream (resource subscriptions), DELETE ends the
 * session's subscriptions. JSON-RPC errors on this channel.
 */
import type { Context, Hono } from "hono";
import { limitBody, requireUtf8Body } from "../http/body-limit.ts";
import type { AppEnv } from "../http/env.ts";
import { mcpChallenge } from "../http/oauth/protected-resource.ts";
import { authenticateAgent } from "../services/bearer/index.ts";
import { type ServiceContext, withCaller } from "../services/context.ts";
import { domainErrorOf, RateLimited, Unauthorized, Unavailable } from "../services/errors.ts";
import { AGENT_SCOPE, requestOrigin } from "../services/oauth/index.ts";
import { limitOperation } from "../services/ratelimit/index.ts";
import {
  endSubscriptionSession,
  isSessionId,
  newSessionId,
} from "../services/subscriptions/index.ts";
import { loadMcp } from "./sdk.ts";
import type { McpStreams } from "./streams.ts";

const MCP_PATH = "/mcp";

/** Methods that act as an agent outside tools: subscriptions are an agent's. */
const AGENT_METHODS: ReadonlySet<string> = new Set([
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** JSON-RPC error codes this endpoint uses beside the SDK's own. */
const RPC = { parse: -32700, invalidRequest: -32600, internal: -32603, server: -32000 } as const;

/** A JSON-RPC error response with no id (it answers the HTTP request, not a message). */
function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * Mounts the MCP endpoint. Per request: the Origin is checked (a browser page from another
 * origin is refused, against DNS rebinding), the body is capped at `maxBodyBytes`, the
 * agent key (if any) is resolved as for REST (a bad key is 401 with `WWW-Authenticate` naming
 * the problem and the protected resource metadata), and
 * a fresh server and transport answer the JSON-RPC message(s) with JSON. With `oauth` (Quire
 * runs an authorization server), an anonymous call of a tool that acts as an agent is an HTTP
 * 401 challenge, so OAuth clients start the flow (see `agentCallWithoutCredentials`).
 *
 * With `streams` (this instance serves event streams), the server declares
 * `resources.subscribe`, gives every `initialize` a session id (`Mcp-Session-Id`: it names
 * the client's subscriptions, stored in the database, and holds no memory on any instance),
 * and answers GET with an agent session's event stream and DELETE by ending the session's
 * subscriptions (docs/adr/0051-mcp-resource-subscriptions.md). Without it, POST only.
 */
export function registerMcp(
  app: Hono<AppEnv>,
  options: { baseUrl: string; maxBodyBytes: number; oauth?: boolean; streams?: McpStreams },
) {
  const { streams } = options;
  const originAllowed = originCheck(options.baseUrl);

  app.use(MCP_PATH, async (c, next) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && !originAllowed(origin)) {
      return rpcError(
        403,
        RPC.server,
        `Requests from origin ${JSON.stringify(origin.slice(0, 200))} are not accepted; MCP clients outside a browser send no Origin header.`,
      );
    }
    return next();
  });

  const capBody = limitBody({
    maxSize: options.maxBodyBytes,
    onError: () =>
      rpcError(
        413,
        RPC.invalidRequest,
        `The request body is over ${options.maxBodyBytes / 1024} KiB.`,
      ),
  });

  // JSON-RPC's own parse error, as for any body that is not JSON: the bytes are refused, not
  // decoded with replacement characters.
  const utf8Body = requireUtf8Body(() =>
    rpcError(400, RPC.parse, "Parse error: the request body is not valid UTF-8."),
  );

  app.post(MCP_PATH, capBody, utf8Body, (c) =>
    answer(c, () => handle(c, options.baseUrl, options.oauth ?? false, streams)),
  );

  if (streams) {
    app.get(MCP_PATH, (c) => answer(c, () => openStream(c, options.baseUrl, streams)));
    app.delete(MCP_PATH, (c) => answer(c, () => endSession(c, options.baseUrl)));
  }

  app.all(MCP_PATH, (c) =>
    streams
      ? rpcError(
          405,
          RPC.server,
          `${c.req.method} is not allowed on ${MCP_PATH}: send JSON-RPC messages with POST, open an agent session's event stream with GET, end its subscriptions with DELETE.`,
          { allow: "GET, POST, DELETE" },
        )
      : rpcError(
          405,
          RPC.server,
          `${c.req.method} is not allowed on ${MCP_PATH}: this server is stateless (no sessions, no event stream); send JSON-RPC messages with POST.`,
          { allow: "POST" },
        ),
  );
}

/** Runs a handler of /mcp; refusals and failures become JSON-RPC errors with their status. */
async function answer(c: Context<AppEnv>, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    const domain = domainErrorOf(error);
    if (domain instanceof RateLimited) {
      return rpcError(429, RPC.server, domain.message, {
        "retry-after": String(domain.retryAfterSeconds),
      });
    }
    if (domain instanceof Unavailable) {
      c.get("logger").warn({ err: error }, "mcp request unavailable");
      const wait = domain.retryAfterSeconds ?? 5;
      return rpcError(
        503,
        RPC.server,
        `The service is unavailable for a moment; retry in ${wait} seconds.`,
        { "retry-after": String(wait) },
      );
    }
    c.get("logger").error({ err: error }, "mcp request failed");
    return rpcError(
      500,
      RPC.internal,
      `Something went wrong on our side; quote request id ${c.get("requestId")}.`,
    );
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Which Origin headers may call /mcp: the BASE_URL's origin; when that is a loopback address,
 * any loopback name on the same scheme and port (`localhost`, `127.0.0.1` and `[::1]` are one
 * machine, and a DNS-rebinding page can never be served from them).
 */
export function originCheck(baseUrl: string): (origin: string) => boolean {
  const base = new URL(baseUrl);
  const loopback = LOOPBACK.has(base.hostname);
  return (origin) => {
    if (origin === base.origin) return true;
    if (!loopback) return false;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return (
      url.origin === origin &&
      url.protocol === base.protocol &&
      url.port === base.port &&
      LOOPBACK.has(url.hostname)
    );
  };
}

/**
 * The agent tool (or subscription method) an anonymous request calls, if any, in a single
 * message or a batch. Such a call is answered at the HTTP level with 401 and
 * `WWW-Authenticate: Bearer resource_metadata=…, scope="agent"`, the signal on which MCP
 * clients that speak OAuth run discovery and authorization and then retry (MCP authorization
 * 2025-11-25: "401 when authorization is required"); reads stay anonymous.
 */
async function agentCallWithoutCredentials(messages: unknown[]): Promise<string | undefined> {
  const [{ AGENT_TOOLS }] = await loadMcp();
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (typeof method === "string" && AGENT_METHODS.has(method)) return method;
    const name = method === "tools/call" ? params?.name : undefined;
    if (typeof name === "string" && AGENT_TOOLS.has(name)) return name;
  }
  return undefined;
}

/** The request's JSON-RPC message(s), or undefined when the body is not JSON (the transport answers that). */
async function messagesOf(
  request: Request,
): Promise<{ body: unknown; list: unknown[] } | undefined> {
  try {
    const body: unknown = await request.clone().json();
    return { body, list: Array.isArray(body) ? body : [body] };
  } catch {
    return undefined;
  }
}

/**
 * The request's caller from its Authorization header (none: the anonymous context), or the
 * HTTP answer refusing it: 401 with `WWW-Authenticate` for a bad credential, 429 when the
 * client has spent its reads on refused ones (guessing keys costs what a refused REST read does).
 */
async function callerOf(
  c: Context<AppEnv>,
  baseUrl: string,
): Promise<{ ctx: ServiceContext; authorization: string | undefined } | Response> {
  const ctx = c.get("ctx");
  const authorization = c.req.header("authorization");
  if (authorization === undefined) return { ctx, authorization };
  try {
    const auth = await authenticateAgent(ctx, { authorization });
    return { ctx: withCaller(ctx, auth.caller), authorization };
  } catch (error) {
    if (!(error instanceof Unauthorized)) throw error;
    try {
      await limitOperation(ctx, "read", { ip: c.get("clientIp") });
    } catch (limited) {
      if (!(limited instanceof RateLimited)) throw limited;
      return rpcError(429, RPC.server, limited.message, {
        "retry-after": String(limited.retryAfterSeconds),
      });
    }
    // The 401's resource_metadata names the origin the client used when that is a loopback alias.
    return rpcError(401, RPC.server, error.message, {
      "www-authenticate": mcpChallenge(requestOrigin(baseUrl, c.req.header("host")), error),
    });
  }
}

async function handle(
  c: Context<AppEnv>,
  baseUrl: string,
  oauth: boolean,
  streams: McpStreams | undefined,
): Promise<Response> {
  const messages = await messagesOf(c.req.raw);
  if (c.req.header("authorization") === undefined && oauth && messages) {
    const call = await agentCallWithoutCredentials(messages.list);
    if (call) {
      return rpcError(
        401,
        RPC.server,
        `${call} acts as an agent: connect this client to Quire by signing in (OAuth, which this answer starts in clients that support it) and picking one of your agents, or send an agent key as \`Authorization: Bearer <key>\`. Reading the archive needs neither.`,
        {
          "www-authenticate": mcpChallenge(
            requestOrigin(baseUrl, c.req.header("host")),
            undefined,
            { scope: AGENT_SCOPE },
          ),
        },
      );
    }
  }
  const caller = await callerOf(c, baseUrl);
  if (caller instanceof Response) return caller;
  const [{ buildMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadMcp();
  const sessionId = c.req.header("mcp-session-id");
  const server = buildMcpServer({
    ctx: caller.ctx,
    clientIp: c.get("clientIp"),
    authorization: caller.authorization,
    requestId: c.get("requestId"),
    baseUrl,
    subscriptions: streams !== undefined,
    sessionId: isSessionId(sessionId) ? sessionId : undefined,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(
      c.req.raw,
      messages ? { parsedBody: messages.body } : undefined,
    );
    // A session begins: its id names the client's subscriptions from now on.
    const initialize = messages?.list.some(
      (m) =>
        typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize",
    );
    if (streams && initialize && response.status === 200) {
      response.headers.set("mcp-session-id", newSessionId());
    }
    return response;
  } finally {
    await server.close();
  }
}

/** The session id a GET or DELETE must carry, or the 400 saying so. */
function sessionOf(c: Context<AppEnv>, what: string): string | Response {
  const sessionId = c.req.header("mcp-session-id");
  if (isSessionId(sessionId)) return sessionId;
  return rpcError(
    400,
    RPC.server,
    `${what} needs the session this server gave at initialize: send its Mcp-Session-Id header (initialize again to get one).`,
  );
}

/**
 * GET /mcp: an agent session's event stream, on which the resources it subscribed to are
 * announced (`notifications/resources/updated`). Anonymous clients have nothing to hear
 * (subscriptions are an agent's): 405, which clients take as "no stream offered", so a
 * read-only client is never pushed into signing in. Opening one costs a `read`.
 */
async function openStream(
  c: Context<AppEnv>,
  baseUrl: string,
  streams: McpStreams,
): Promise<Response> {
  if (c.req.method === "HEAD" || c.req.header("authorization") === undefined) {
    return rpcError(
      405,
      RPC.server,
      "GET opens an agent's event stream for its resource subscriptions: send the agent key (or OAuth token) as `Authorization: Bearer <key>`. Anonymous clients read with POST.",
      { allow: "GET, POST, DELETE" },
    );
  }
  const caller = await callerOf(c, baseUrl);
  if (caller instanceof Response) return caller;
  const sessionId = sessionOf(c, "An event stream");
  if (sessionId instanceof Response) return sessionId;
  await limitOperation(caller.ctx, "read", { ip: c.get("clientIp") });
  return streams.open({
    ctx: caller.ctx,
    sessionId,
    authorization: caller.authorization as string,
    request: c.req.raw,
  });
}

/**
 * DELETE /mcp: the client ends its session; the agent's subscriptions of that session go at
 * once (they would expire anyway). An anonymous session holds nothing: 200 as well.
 */
async function endSession(c: Context<AppEnv>, baseUrl: string): Promise<Response> {
  const sessionId = sessionOf(c, "Ending a session");
  if (sessionId instanceof Response) return sessionId;
  const caller = await callerOf(c, baseUrl);
  if (caller instanceof Response) return caller;
  if (caller.ctx.caller.kind === "agent") {
    await endSubscriptionSession(caller.ctx, { sessionId });
  }
  return new Response(null, { status: 200 });
}
