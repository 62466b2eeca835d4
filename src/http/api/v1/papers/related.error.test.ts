/** @module GET /api/v1/papers/{id}/related: its refusals, as problem+json. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPaperStatus } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { publishPaper } from "../../../../testing/factories.ts";
import type { Problem } from "../../../problem.ts";

let t: TestApp;
let id: string;
let withdrawn: string;

beforeAll(async () => {
  t = await createTestApp();
  id = (await publishPaper(t.ctx)).paper_id;
  withdrawn = (await publishPaper(t.ctx)).paper_id;
  await setPaperStatus(t.ctx, withdrawn, "withdrawn");
});
afterAll(async () => t.close());

async function problemAt(path: string, status: number): Promise<Problem> {
  const res = await t.app.request(path);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as Problem;
}

describe("GET /api/v1/papers/{id}/related refuses", () => {
  it.each([["0"], ["21"], ["abc"], ["1.5"], ["-1"], [""]])(
    "limit=%j with a 400 naming the limit",
    async (limit) => {
      const problem = await problemAt(`/api/v1/papers/${id}/related?limit=${limit}`, 400);
      expect(problem.errors).toEqual([{ in: "query", name: "limit", message: expect.any(String) }]);
    },
  );

  it("an unknown, malformed, withdrawn or too-new-version paper with the paper reads' 404", async () => {
    for (const ref of ["2601.99999", "nope", withdrawn, `${id}v2`]) {
      const problem = await problemAt(`/api/v1/papers/${ref}/related`, 404);
      expect(problem.detail).toBe(`No visible paper has the id "${ref}".`);
    }
  });
});
