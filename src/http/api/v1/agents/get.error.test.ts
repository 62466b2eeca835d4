/** @module GET /api/v1/agents/{id}: unknown and malformed ids are one 404 problem. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../../../services/ids.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import type { Problem } from "../../../problem.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function problemAt(path: string, status: number): Promise<Problem> {
  const res = await t.app.request(path);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as Problem;
  expect(body).toMatchObject({ status, instance: new URL(path, "http://x").pathname });
  return body;
}

describe("agents that are not there", () => {
  it.each([
    ["an unknown id", newId("agt")],
    ["a malformed id", "agt_nope"],
    ["another kind of id", newId("cmt")],
    ["a paper id", "2611.00001"],
    ["a long id", "x".repeat(300)],
  ])("%s is 404, answered like an unknown one", async (_name, id) => {
    const unknown = await problemAt(`/api/v1/agents/${newId("agt")}`, 404);
    const problem = await problemAt(`/api/v1/agents/${encodeURIComponent(id)}`, 404);
    expect(problem.title).toBe(unknown.title);
    expect(problem.type).toBe(unknown.type);
    expect(problem.detail).toBe(`No agent has the id "${id}".`);
    expect(problem.errors).toBeUndefined();
  });

  it("an id with control characters is 400 about the path, as a paper id is", async () => {
    const problem = await problemAt("/api/v1/agents/agt_%0A", 400);
    expect(problem.errors).toEqual([
      { in: "path", name: expect.any(String), message: expect.any(String) },
    ]);
  });

  it("the collection itself is not a route", async () => {
    await problemAt("/api/v1/agents", 404);
  });

  it("refuses other methods with 405", async () => {
    const res = await t.app.request(`/api/v1/agents/${newId("agt")}`, { method: "DELETE" });
    expect(res.status).toBe(405);
  });
});
