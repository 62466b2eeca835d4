/** @module Test support: a real loopback HTTP server speaking OpenAI's embeddings API. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { listenOnLoopback } from "./scratch.ts";

type Behaviour =
  | { kind: "ok" }
  /** Answer after `ms` milliseconds (longer than the client's timeout: a slow backend). */
  | { kind: "slow"; ms: number }
  /** Answer HTTP `status` to the next `times` requests (all of them when absent), then ok. */
  | { kind: "status"; status: number; times?: number }
  /** A 200 whose body is not a valid embeddings answer. */
  | { kind: "garbage"; body: string };

export interface FakeEmbeddingServer {
  /** Base URL to configure as EMBEDDINGS_URL (`…/v1`). */
  url: string;
  behaviour: Behaviour;
  /** Every request body received, parsed. */
  requests: { model: string; input: string[]; authorization: string | undefined }[];
  close(): Promise<void>;
}

/**
 * A deterministic fake model: each word is hashed to a few signed dimensions and the sum
 * is L2-normalised, so texts sharing words are close. Cheap, stable across runs, and
 * good enough to check that the dense channel finds what it should.
 */
export function fakeEmbedding(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    for (let k = 0; k < 3; k++) {
      let h = 0x811c9dc5 ^ k;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
      const u = h >>> 0;
      v[u % dims]! += u & 0x100 ? 1 : -1;
    }
  }
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

export async function startFakeEmbeddingServer(dims = 64): Promise<FakeEmbeddingServer> {
  const state: FakeEmbeddingServer = {
    url: "",
    behaviour: { kind: "ok" },
    requests: [],
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res.writeHead(404).end();
      return;
    }
    const parsed = JSON.parse(body) as { model: string; input: string[] | string };
    const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
    state.requests.push({ model: parsed.model, input, authorization: req.headers.authorization });
    const b = state.behaviour;
    if (b.kind === "slow") await new Promise((r) => setTimeout(r, b.ms));
    if (b.kind === "status") {
      if (b.times !== undefined) {
        b.times--;
        if (b.times <= 0) state.behaviour = { kind: "ok" };
      }
      res.writeHead(b.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "fake failure" } }));
      return;
    }
    if (b.kind === "garbage") {
      res.writeHead(200, { "content-type": "application/json" }).end(b.body);
      return;
    }
    const data = input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: fakeEmbedding(text, dims),
    }));
    // Out of order on purpose: clients must sort by index.
    data.reverse();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", model: parsed.model, data }));
  });
  const listening = await listenOnLoopback(server);
  state.url = `http://127.0.0.1:${listening.port}/v1`;
  state.close = listening.close;
  return state;
}
