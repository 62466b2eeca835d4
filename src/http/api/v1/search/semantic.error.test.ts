/** @module GET /api/v1/search/semantic failing: 400s that list every check, 503 when the backend is down. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpEmbedder } from "../../../../services/search/embedder.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../../../../testing/embeddings-server.ts";
import { publishPaper } from "../../../../testing/factories.ts";
import type { Problem } from "../../../problem.ts";

let plain: TestApp;
let dense: TestApp;
let server: FakeEmbeddingServer;
let paperId: string;

beforeAll(async () => {
  server = await startFakeEmbeddingServer(16);
  plain = await createTestApp();
  dense = await createTestApp({
    services: {
      embedder: createHttpEmbedder({
        url: server.url,
        model: "fake-16",
        timeoutMs: 200,
        retries: 0,
        backoffMs: 1,
      }),
    },
  });
  paperId = (await publishPaper({ ...dense.ctx, caller: { kind: "operator" } })).paper_id;
  await publishPaper({ ...plain.ctx, caller: { kind: "operator" } });
});
afterAll(async () => {
  await plain.close();
  await dense.close();
  await server.close();
});

async function problemAt(t: TestApp, path: string, status: number): Promise<Problem> {
  const res = await t.app.request(path);
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = (await res.json()) as Problem;
  expect(body.status).toBe(status);
  return body;
}

describe("400: every failed check is listed", () => {
  it("lists q, limit and mode together", async () => {
    const problem = await problemAt(
      plain,
      "/api/v1/search/semantic?q=%20x%20&limit=21&mode=fuzzy",
      400,
    );
    expect(problem.errors?.map((e) => e.name).sort()).toEqual(["limit", "mode", "q"]);
    for (const e of problem.errors ?? []) expect(e.in).toBe("query");
  });

  it.each([
    ["q over 1000 characters", `q=${"a".repeat(1001)}`, "q"],
    ["limit 0", "q=glacier&limit=0", "limit"],
    ["limit not a number", "q=glacier&limit=ten", "limit"],
    ["an unknown mode", "q=glacier&mode=neural", "mode"],
  ])("%s", async (_name, query, name) => {
    const problem = await problemAt(plain, `/api/v1/search/semantic?${query}`, 400);
    expect(problem.errors).toEqual([{ in: "query", name, message: expect.any(String) }]);
  });

  it("semantic without an embedding backend says so", async () => {
    const problem = await problemAt(plain, "/api/v1/search/semantic?q=glacier&mode=semantic", 400);
    expect(problem.errors).toEqual([
      { in: "query", name: "mode", message: expect.stringMatching(/embedding backend/) },
    ]);
  });
});

describe("503 when the configured embedding backend cannot be reached", () => {
  it.each([
    ["down", { kind: "status", status: 502 } as const],
    ["slow", { kind: "slow", ms: 600 } as const],
    ["answering garbage", { kind: "garbage", body: '{"data":"nope"}' } as const],
  ])(
    "backend %s: hybrid and semantic answer 503 problem+json; everything else works",
    async (_n, b) => {
      server.behaviour = b;
      try {
        for (const mode of ["hybrid", "semantic"]) {
          const problem = await problemAt(
            dense,
            `/api/v1/search/semantic?q=glacier&mode=${mode}`,
            503,
          );
          expect(problem.title).toBe("Service unavailable");
          expect(problem.detail).toMatch(/embedding backend is unavailable/);
        }
        const res503 = await dense.app.request("/api/v1/search/semantic?q=glacier");
        expect(res503.headers.get("retry-after")).toBe("30");
        const lexical = await dense.app.request("/api/v1/search/semantic?q=glacier&mode=lexical");
        expect(lexical.status).toBe(200);
        expect((await dense.app.request("/api/v1/papers")).status).toBe(200);
        expect((await dense.app.request(`/api/v1/papers/${paperId}`)).status).toBe(200);
        expect((await dense.app.request(`/api/v1/papers/${paperId}/context`)).status).toBe(200);
      } finally {
        server.behaviour = { kind: "ok" };
      }
    },
  );

  it("logs no 500 and no internal detail", () => {
    const errors = dense.logs.filter((l) => (l as { status?: number }).status === 500);
    expect(errors).toEqual([]);
  });
});
