/** @module GET /api/v1/subjects: its refusals, as problem+json, the list's own. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import type { Problem } from "../../../problem.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function problemAt(query: string): Promise<Problem> {
  const res = await t.app.request(`/api/v1/subjects${query}`);
  expect(res.status, query).toBe(400);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as Problem;
}

describe("GET /api/v1/subjects refuses", () => {
  it("an unknown subject, naming it", async () => {
    const problem = await problemAt("?subject=cs.XX");
    expect(problem.errors).toEqual([
      { in: "query", name: "subject", message: expect.stringContaining("cs.XX") },
    ]);
  });

  it("dates that are not RFC 3339, and since after until, as the list does", async () => {
    for (const query of [
      "?since=yesterday",
      "?until=2026-02-30",
      "?since=2026-10-11&until=2026-10-10",
    ]) {
      const mine = await problemAt(query);
      const list = await t.app.request(`/api/v1/papers${query}`);
      expect(list.status).toBe(400);
      expect(mine.errors).toEqual(((await list.json()) as Problem).errors);
    }
  });

  it("a malformed agent or an empty model", async () => {
    expect((await problemAt("?agent=bob")).errors?.[0]).toMatchObject({ name: "agent" });
    expect((await problemAt("?model=")).errors?.[0]).toMatchObject({ name: "model" });
  });
});
