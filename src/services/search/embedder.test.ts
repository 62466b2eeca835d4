/** @module The HTTP embedder against a real local server: batching, retries, timeouts, garbage. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeEmbeddingServer,
  fakeEmbedding,
  startFakeEmbeddingServer,
} from "../../testing/embeddings-server.ts";
import { Unavailable } from "../errors.ts";
import { embedQuery } from "./embed-query.ts";
import {
  createHttpEmbedder,
  EmbedderError,
  embeddingsEndpoint,
  parseEmbeddings,
} from "./embedder.ts";

let server: FakeEmbeddingServer;

beforeAll(async () => {
  server = await startFakeEmbeddingServer(32);
});
afterAll(() => server.close());
beforeEach(() => {
  server.behaviour = { kind: "ok" };
  server.requests.length = 0;
});

const embedder = (overrides: Partial<Parameters<typeof createHttpEmbedder>[0]> = {}) =>
  createHttpEmbedder({
    url: server.url,
    model: "fake-32",
    backoffMs: 5,
    timeoutMs: 500,
    ...overrides,
  });

describe("createHttpEmbedder", () => {
  it("posts model and inputs to /embeddings and returns vectors in input order", async () => {
    const texts = ["glacier mass balance", "coral reef sound", "register allocation"];
    const vectors = await embedder({ apiKey: "sk-test" }).embed(texts);
    expect(vectors).toEqual(texts.map((t) => fakeEmbedding(t, 32)));
    expect(server.requests).toEqual([
      { model: "fake-32", input: texts, authorization: "Bearer sk-test" },
    ]);
  });

  it("sends no authorization header without a key", async () => {
    await embedder().embed(["x y"]);
    expect(server.requests[0]?.authorization).toBeUndefined();
  });

  it("retries 5xx and 429 with backoff, then succeeds", async () => {
    server.behaviour = { kind: "status", status: 503, times: 2 };
    const vectors = await embedder().embed(["glacier"]);
    expect(vectors).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    server.behaviour = { kind: "status", status: 429, times: 1 };
    await embedder().embed(["glacier"]);
    expect(server.requests).toHaveLength(5);
  });

  it("does not retry a 401 (a wrong key stays wrong)", async () => {
    server.behaviour = { kind: "status", status: 401 };
    const error = await embedder()
      .embed(["glacier"])
      .catch((e) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as EmbedderError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("times out a slow backend, retrying, and reports it", async () => {
    server.behaviour = { kind: "slow", ms: 400 };
    const error = await embedder({ timeoutMs: 100, retries: 1 })
      .embed(["glacier"])
      .catch((e) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as Error).message).toMatch(/timed out/);
    expect(server.requests).toHaveLength(2);
  });

  it("fails when the backend is down", async () => {
    const down = await startFakeEmbeddingServer(8);
    const url = down.url;
    await down.close();
    const error = await createHttpEmbedder({ url, model: "m", retries: 1, backoffMs: 1 })
      .embed(["x"])
      .catch((e) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as Error).message).toMatch(/could not be reached/);
  });

  it.each([
    ["not JSON", "<html>oops</html>"],
    ["no data", JSON.stringify({ object: "list" })],
    ["too few vectors", JSON.stringify({ data: [] })],
    ["a string vector", JSON.stringify({ data: [{ index: 0, embedding: "0.1,0.2" }] })],
    ["NaN values", '{"data":[{"index":0,"embedding":[0.1,null]}]}'],
    ["an empty vector", JSON.stringify({ data: [{ index: 0, embedding: [] }] })],
  ])("rejects garbage (%s) without returning anything", async (_name, body) => {
    server.behaviour = { kind: "garbage", body };
    const error = await embedder({ retries: 0 })
      .embed(["x"])
      .catch((e) => e);
    expect(error).toBeInstanceOf(EmbedderError);
  });

  it("rejects vectors of different lengths and duplicate indices", () => {
    expect(() =>
      parseEmbeddings(
        {
          data: [
            { index: 0, embedding: [1, 2] },
            { index: 1, embedding: [1] },
          ],
        },
        2,
      ),
    ).toThrow(EmbedderError);
    expect(() =>
      parseEmbeddings(
        {
          data: [
            { index: 0, embedding: [1] },
            { index: 0, embedding: [1] },
          ],
        },
        2,
      ),
    ).toThrow(EmbedderError);
  });

  it("appends /embeddings to a base URL once", () => {
    expect(embeddingsEndpoint("http://h:11434/v1/")).toBe("http://h:11434/v1/embeddings");
    expect(embeddingsEndpoint("http://h/v1/embeddings")).toBe("http://h/v1/embeddings");
  });
});

describe("embedQuery", () => {
  it("turns any backend failure into Unavailable (a 503), never something else", async () => {
    server.behaviour = { kind: "status", status: 500 };
    const error = await embedQuery(embedder(), "glacier").catch((e) => e);
    expect(error).toBeInstanceOf(Unavailable);
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
  });
});
