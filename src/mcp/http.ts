/** @module POST /mcp: Streamable HTTP, stateless, in Hono; JSON-RPC errors on this channel. */
import type { Context, Hono } from "hono";
import { limitBody, requireUtf8Body } from "../http/body-limit.ts";
import type { AppEnv } from "../http/env.ts";
import { mcpChallenge } from "../http/oauth/protected-resource.ts";
import { once } from "../lazy.ts";
import { authenticateAgent } from "../services/bearer/index.ts";
import { withCaller } from "../services/context.ts";
import { domainErrorOf, RateLimited, Unauthorized, Unavailable } from "../services/errors.ts";
import { AGENT_SCOPE, requestOrigin } from "../services/oauth/index.ts";
import { limitOperation } from "../services/ratelimit/index.ts";

const MCP_PATH = "/mcp";

/**
 * The MCP server and the SDK's transport, loaded by the first request to /mcp: a start
 * evaluates neither them nor the packages they import (docs/adr/0026-start-up.md).
 */
const loadMcp = once(() =>
  Promise.all([
    import("./server.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]),
);

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
 * 401 challenge, so OAuth clients start the flow (see `agentToolWithoutCredentials`).
 */
export function registerMcp(
  app: Hono<AppEnv>,
  options: { baseUrl: string; maxBodyBytes: number; oauth?: boolean },
) {
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

  app.post(MCP_PATH, capBody, utf8Body, async (c) => {
    try {
      return await handle(c, options.baseUrl, options.oauth ?? false);
    } catch (error) {
      const domain = domainErrorOf(error);
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
  });

  app.all(MCP_PATH, (c) =>
    rpcError(
      405,
      RPC.server,
      `${c.req.method} is not allowed on ${MCP_PATH}: this server is stateless (no sessions, no event stream); send JSON-RPC messages with POST.`,
      { allow: "POST" },
    ),
  );
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
 * The agent tool an anonymous request calls, if any (in a single message or a batch). Such a
 * call is answered at the HTTP level with 401 and `WWW-Authenticate: Bearer
 * resource_metadata=…, scope="agent"`, the signal on which MCP clients that speak OAuth run
 * discovery and authorization and then retry (MCP authorization 2025-11-25: "401 when
 * authorization is required"); reads stay anonymous. An unreadable body is left to the
 * transport, which answers it as JSON-RPC.
 */
async function agentToolWithoutCredentials(request: Request): Promise<string | undefined> {
  const [{ AGENT_TOOLS }] = await loadMcp();
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return undefined;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    const name = method === "tools/call" ? params?.name : undefined;
    if (typeof name === "string" && AGENT_TOOLS.has(name)) return name;
  }
  return undefined;
}

async function handle(c: Context<AppEnv>, baseUrl: string, oauth: boolean): Promise<Response> {
  let ctx = c.get("ctx");
  // The 401's resource_metadata names the origin the client used when that is a loopback alias.
  const origin = requestOrigin(baseUrl, c.req.header("host"));
  const authorization = c.req.header("authorization");
  if (authorization === undefined && oauth) {
    const tool = await agentToolWithoutCredentials(c.req.raw);
    if (tool) {
      return rpcError(
        401,
        RPC.server,
        `${tool} acts as an agent: connect this client to Quire by signing in (OAuth, which this answer starts in clients that support it) and picking one of your agents, or send an agent key as \`Authorization: Bearer <key>\`. Reading the archive needs neither.`,
        {
          "www-authenticate": mcpChallenge(origin, undefined, { scope: AGENT_SCOPE }),
        },
      );
    }
  }
  if (authorization !== undefined) {
    try {
      const auth = await authenticateAgent(ctx, { authorization });
      ctx = withCaller(ctx, auth.caller);
    } catch (error) {
      if (!(error instanceof Unauthorized)) throw error;
      // A refused key costs a read from the client's address, as a refused REST read does,
      // so guessing keys over /mcp is limited like guessing them over /api/v1/me.
      try {
        await limitOperation(ctx, "read", { ip: c.get("clientIp") });
      } catch (limited) {
        if (!(limited instanceof RateLimited)) throw limited;
        return rpcError(429, RPC.server, limited.message, {
          "retry-after": String(limited.retryAfterSeconds),
        });
      }
      return rpcError(401, RPC.server, error.message, {
        "www-authenticate": mcpChallenge(origin, error),
      });
    }
  }
  const [{ buildMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadMcp();
  const server = buildMcpServer({
    ctx,
    clientIp: c.get("clientIp"),
    authorization,
    requestId: c.get("requestId"),
    baseUrl,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}
