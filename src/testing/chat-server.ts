/** @module Test support: a real loopback HTTP server speaking OpenAI's chat completions API. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { freePort, listenOnLoopback } from "./scratch.ts";

interface FakeReason {
  code: string;
  message: string;
  /** The Spanish wording the prompt asks for; left out to play a model that omits it. */
  message_es?: unknown;
  field?: string;
}

export type ChatBehaviour =
  /** A well-formed verdict in JSON mode. */
  | { kind: "verdict"; verdict: "pass" | "flag" | "reject"; reasons?: FakeReason[] }
  /** A 200 completion whose message content is exactly this (not JSON, wrong shape…). */
  | { kind: "content"; content: string }
  /** A 200 whose whole body is exactly this (no choices, not a completion…). */
  | { kind: "body"; body: string }
  /** Answer a pass after `ms` milliseconds (longer than the client's timeout: a slow model). */
  | { kind: "slow"; ms: number }
  /**
   * Answer HTTP `status` (with `Retry-After` when given) to the next `times` requests (all
   * of them when absent), then behave as `after` (a pass by default).
   */
  | {
      kind: "status";
      status: number;
      times?: number;
      retryAfterSeconds?: number;
      after?: ChatBehaviour;
    };

interface ChatRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    temperature?: number;
    response_format?: { type: string };
    messages: { role: string; content: string }[];
  };
}

export interface FakeChatServer {
  /** Base URL to configure as SCREENER_URL (`…/v1`). */
  url: string;
  behaviour: ChatBehaviour;
  /** Every request received, parsed, in order. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function completion(model: string, content: string): string {
  return JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion",
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

export async function startFakeChatServer(
  behaviour: ChatBehaviour = { kind: "verdict", verdict: "pass" },
): Promise<FakeChatServer> {
  const state: FakeChatServer = {
    url: "",
    behaviour,
    requests: [],
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(text) as ChatRequest["body"];
    state.requests.push({ path: req.url, authorization: req.headers.authorization, body });
    let b = state.behaviour;
    if (b.kind === "status") {
      if (b.times !== undefined) {
        b.times--;
        if (b.times <= 0) state.behaviour = b.after ?? { kind: "verdict", verdict: "pass" };
      }
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (b.retryAfterSeconds !== undefined) headers["retry-after"] = String(b.retryAfterSeconds);
      res.writeHead(b.status, headers).end(JSON.stringify({ error: { message: "fake failure" } }));
      return;
    }
    if (b.kind === "slow") {
      const { ms } = b;
      await new Promise((r) => setTimeout(r, ms));
      b = { kind: "verdict", verdict: "pass" };
    }
    res.writeHead(200, { "content-type": "application/json" });
    if (b.kind === "body") res.end(b.body);
    else if (b.kind === "content") res.end(completion(body.model, b.content));
    else if (b.kind === "verdict") {
      res.end(
        completion(body.model, JSON.stringify({ verdict: b.verdict, reasons: b.reasons ?? [] })),
      );
    } else res.end();
  });
  const listening = await listenOnLoopback(server);
  state.url = `http://127.0.0.1:${listening.port}/v1`;
  state.close = listening.close;
  return state;
}

/** A base URL on loopback where nothing listens (connection refused): a screener that is down. */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/v1`;
}
