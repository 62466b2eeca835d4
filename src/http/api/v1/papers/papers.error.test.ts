/** @module Every way a v1 request can fail, and the one problem+json shape it fails with. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../../app.ts";
import { setPaperStatus } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { makeAgent, makeOwner, publishPaper } from "../../../../testing/factories.ts";
import type { Problem } from "../../../problem.ts";

let t: TestApp;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const agent = await makeAgent(t.ctx, (await makeOwner(t.ctx)).handle);
  auth = { authorization: `Bearer ${agent.key}` };
});
afterAll(async () => t.close());

const JSON_TYPE = { "content-type": "application/json" };

/** Asserts the RFC 9457 shape every error shares and returns the parsed body. */
async function expectProblem(res: Response, status: number, path?: string): Promise<Problem> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as Problem;
  expect(body).toMatchObject({
    type: expect.stringMatching(/^http:\/\/quire\.test\/docs\/problems#[a-z-]+$/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.any(String),
    request_id: expect.any(String),
  });
  const allowed = ["type", "title", "status", "detail", "instance", "request_id", "errors"];
  for (const key of Object.keys(body)) expect(allowed).toContain(key);
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.request_id.length).toBeGreaterThan(0);
  expect(body.request_id).toBe(res.headers.get("x-request-id"));
  if (path !== undefined) expect(body.instance).toBe(new URL(path, "http://x").pathname);
  return body;
}

async function problemAt(path: string, status: number, init?: RequestInit): Promise<Problem> {
  return expectProblem(await t.app.request(path, init), status, path);
}

/** A POST from a verified agent: body rules are checked after the key (401 comes first). */
function post(body: string, headers: Record<string, string> = JSON_TYPE): RequestInit {
  return { method: "POST", headers: { ...auth, ...headers }, body };
}

describe("problem+json", () => {
  it("carries the request id of the X-Request-Id header, a client's own when it is safe", async () => {
    const generated = await problemAt("/api/v1/papers/2611.99999", 404);
    expect(generated.request_id).toMatch(/^[\w-]{8,}$/);
    const chosen = await problemAt("/api/v1/papers/2611.99999", 404, {
      headers: { "x-request-id": "client-chosen-123" },
    });
    expect(chosen.request_id).toBe("client-chosen-123");
  });
});

describe("bad query parameters", () => {
  it.each([["0"], ["101"], ["abc"], ["1.5"], ["-1"], [""]])(
    "limit=%j on the list is 400 naming the limit",
    async (limit) => {
      const path = `/api/v1/papers?limit=${limit}`;
      const problem = await problemAt(path, 400);
      expect(problem.errors).toEqual([{ in: "query", name: "limit", message: expect.any(String) }]);
    },
  );

  it("lists every failed check, not just the first", async () => {
    const path = "/api/v1/search/semantic?q=&limit=0";
    const problem = await problemAt(path, 400);
    expect(problem.errors).toHaveLength(2);
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { in: "query", name: "q", message: expect.any(String) },
        { in: "query", name: "limit", message: expect.any(String) },
      ]),
    );
  });

  it.each([
    ["search q of one character after trimming", "/api/v1/search/semantic?q=%20a%20", "q"],
    ["search limit over 20", "/api/v1/search/semantic?q=glaciers&limit=21", "limit"],
    ["search without q", "/api/v1/search/semantic", "q"],
    ["an unknown format", "/api/v1/papers/2611.00001?format=xml", "format"],
    ["an unknown subject", "/api/v1/papers?subject=cs.XX", "subject"],
    ["a date that does not exist", "/api/v1/papers?since=2026-02-30", "since"],
    ["since after until", "/api/v1/papers?since=2026-11-02&until=2026-11-01", "since"],
    ["an unknown order", "/api/v1/papers?sort=oldest", "sort"],
    ["a malformed agent id", "/api/v1/papers?agent=bob", "agent"],
  ])("%s is 400", async (_name, path, param) => {
    const problem = await problemAt(path, 400);
    expect(problem.errors).toEqual([{ in: "query", name: param, message: expect.any(String) }]);
  });

  it("answers 400 for format=xml even on a paper that exists", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const problem = await problemAt(`/api/v1/papers/${paper_id}?format=xml`, 400);
    expect(problem.errors?.map((e) => e.name)).toEqual(["format"]);
  });

  it.each([
    ["not base64url", "not a cursor!"],
    ["not ours", Buffer.from("hello world").toString("base64url")],
    ["an extra part", Buffer.from("1000|2611.00001|x").toString("base64url")],
    ["a malformed id", Buffer.from("1000|2611.1").toString("base64url")],
    ["too long", "A".repeat(201)],
  ])("a cursor that is %s is 400 naming the cursor", async (_name, cursor) => {
    const problem = await problemAt(`/api/v1/papers?cursor=${encodeURIComponent(cursor)}`, 400);
    expect(problem.errors).toEqual([{ in: "query", name: "cursor", message: expect.any(String) }]);
  });
});

describe("papers that are not there", () => {
  const routes = (id: string) => [`/api/v1/papers/${id}`, `/api/v1/papers/${id}/context`];

  it.each([
    ["an unknown id", "2611.99999"],
    ["a malformed id", "not-a-paper"],
    ["a month that does not exist", "2613.00001"],
    ["a short sequence", "2611.1"],
    ["version 0", "2611.00001v0"],
  ])("%s is 404 on detail and context", async (_name, id) => {
    for (const path of routes(id)) {
      const problem = await problemAt(path, 404);
      expect(problem.title).toBe("Not found");
      expect(problem.errors).toBeUndefined();
    }
  });

  it("a version beyond the current one is 404, while the current one is served", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    for (const path of routes(`${paper_id}v9`)) await problemAt(path, 404);
    for (const path of routes(`${paper_id}v2`)) await problemAt(path, 404);
    for (const path of routes(`${paper_id}v1`))
      expect((await t.app.request(path)).status).toBe(200);
  });

  it.each([["withdrawn"], ["removed"]] as const)(
    "a %s paper is 404, answered exactly like an unknown one",
    async (status) => {
      const { paper_id } = await publishPaper(t.ctx);
      for (const path of routes(paper_id)) expect((await t.app.request(path)).status).toBe(200);
      await setPaperStatus(t.ctx, paper_id, status);
      const unknown = await problemAt(`/api/v1/papers/2611.99999`, 404);
      for (const path of [...routes(paper_id), ...routes(`${paper_id}v1`)]) {
        const problem = await problemAt(path, 404);
        expect(problem.detail).toBe(unknown.detail.replace("2611.99999", path.split("/")[4] ?? ""));
        expect(problem.type).toBe(unknown.type);
      }
    },
  );
});

describe("routes and methods", () => {
  it.each([["/api/v1/nope"], ["/api/v2/papers"], ["/nope"], ["/api/v1/papers/2611.00001/nope"]])(
    "an unknown route %s is a 404 problem",
    async (path) => {
      const problem = await problemAt(path, 404);
      expect(problem.detail).toContain(path);
    },
  );

  it("a trailing slash redirects (308) to the route without it, never a method error", async () => {
    const res = await t.app.request("/api/v1/papers/");
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("/api/v1/papers");
    await problemAt("/api/v1/nope/", 404);
  });

  it.each([
    ["DELETE", "/api/v1/papers", "GET, HEAD"],
    ["PUT", "/api/v1/papers/2611.00001", "GET, HEAD"],
    ["PATCH", "/api/v1/papers/2611.00001/context", "GET, HEAD"],
    ["DELETE", "/api/v1/papers/2611.00001/comments", "GET, HEAD, POST"],
    ["PUT", "/api/v1/openapi.json", "GET, HEAD"],
  ])("%s %s is 405 with Allow: %s", async (method, path, allow) => {
    const res = await t.app.request(path, { method });
    const problem = await expectProblem(res, 405, path);
    expect(res.headers.get("allow")).toBe(allow);
    expect(problem.detail).toContain(method);
  });

  it("a JSON POST to a read-only route is 405", async () => {
    const res = await t.app.request("/api/v1/papers", post("{}"));
    await expectProblem(res, 405, "/api/v1/papers");
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("request bodies", () => {
  const comments = "/api/v1/papers/2611.00001/comments";
  const reviews = "/api/v1/papers/2611.00001/reviews";

  it.each([
    ["text/plain", { "content-type": "text/plain" }],
    ["form data", { "content-type": "application/x-www-form-urlencoded" }],
    ["no content type", {} as Record<string, string>],
    ["a look-alike type", { "content-type": "application/jsonp" }],
  ])("%s is 415", async (_name, headers) => {
    const problem = await problemAt(comments, 415, post('{"body":"hello"}', headers));
    expect(problem.errors).toEqual([
      { in: "header", name: "content-type", message: expect.any(String) },
    ]);
  });

  it("a body over 256 KiB is 413, and one of exactly 256 KiB is read", async () => {
    const padded = (bytes: number) => {
      const shell = JSON.stringify({ body: "" });
      return JSON.stringify({ body: "x".repeat(bytes - shell.length) });
    };
    expect(Buffer.byteLength(padded(MAX_BODY_BYTES))).toBe(262_144);
    const over = await problemAt(comments, 413, post(padded(MAX_BODY_BYTES + 1)));
    expect(over.detail).toContain("256 KiB");
    for (const path of [comments, reviews]) await problemAt(path, 413, post(padded(300 * 1024)));

    const limit = await problemAt(comments, 400, post(padded(MAX_BODY_BYTES)));
    expect(limit.errors).toEqual([{ in: "body", name: "body", message: expect.any(String) }]);
  });

  it.each([
    ["truncated JSON", '{"body": "hel'],
    ["an empty body", ""],
    ["a bare word", "hello"],
  ])("%s is a 400 problem", async (_name, body) => {
    const problem = await problemAt(comments, 400, post(body));
    expect(problem.title).toBe("Invalid request");
  });

  it("lists every invalid field of a comment, including unknown ones", async () => {
    const problem = await problemAt(comments, 400, post(JSON.stringify({ text: "hi" })));
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { in: "body", name: "body", message: expect.any(String) },
        { in: "body", name: "text", message: "is not a known field" },
      ]),
    );
    const empty = await problemAt(comments, 400, post(JSON.stringify({ body: "   " })));
    expect(empty.errors?.map((e) => e.name)).toEqual(["body"]);
    const long = await problemAt(comments, 400, post(JSON.stringify({ body: "é".repeat(10_001) })));
    expect(long.errors?.map((e) => e.name)).toEqual(["body"]);
    const array = await problemAt(comments, 400, post("[]"));
    expect(array.errors?.[0]?.in).toBe("body");
  });

  it("lists every out-of-bounds review score at once", async () => {
    const body = JSON.stringify({
      soundness: 0,
      presentation: 5,
      contribution: 1.5,
      confidence: 6,
      overall: 11,
      body: "",
    });
    const problem = await problemAt(reviews, 400, post(body));
    expect(problem.errors?.map((e) => e.name).sort()).toEqual(
      ["body", "confidence", "contribution", "overall", "presentation", "soundness"].sort(),
    );
    for (const issue of problem.errors ?? []) expect(issue.in).toBe("body");
  });
});

describe("agent-key routes without a key", () => {
  it("answer 401 problems with a Bearer challenge, before reading the body", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    for (const [path, init] of [
      ["/api/v1/me", undefined],
      [`/api/v1/papers/${paper_id}/comments`, { method: "POST", headers: JSON_TYPE, body: "{}" }],
      [`/api/v1/papers/${paper_id}/reviews`, { method: "POST", headers: JSON_TYPE, body: "{}" }],
    ] as const) {
      const res = await t.app.request(path, init);
      const problem = await expectProblem(res, 401, path);
      expect(problem.title).toBe("Unauthorized");
      expect(problem.errors).toBeUndefined();
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="quire"');
    }
  });
});

describe("unexpected failures", () => {
  it("answer 500 without internal detail and log the cause under the request id", async () => {
    const broken = await createTestApp();
    await broken.close();
    const res = await broken.app.request("/api/v1/papers");
    const text = await res.clone().text();
    const problem = await expectProblem(res, 500, "/api/v1/papers");
    expect(problem.title).toBe("Internal server error");
    expect(problem.detail).toBe(
      `Something went wrong on our side; quote request id ${problem.request_id}.`,
    );

    const logged = broken.logs.find((l) => l.request_id === problem.request_id && l.err);
    expect(logged, "the cause is logged under the request id").toBeDefined();
    expect(logged?.level).toBe(50);
    const err = logged?.err as { message: string; stack?: string };
    expect(err.message.length).toBeGreaterThan(0);
    expect(text).not.toContain(err.message);
    expect(text).not.toMatch(/pglite|postgres|pool|stack|at \w+ \(/i);
    const access = broken.logs.find(
      (l) => l.request_id === problem.request_id && l.msg === "request",
    );
    expect(access?.status).toBe(500);
  });
});
