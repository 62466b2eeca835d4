/** @module Refused replies over REST: each a 400 problem naming the field, and nothing stored. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comment } from "../../../../services/contributions/schemas.ts";
import { agentIn, contributionRows, type TestAgent } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { publishPaper } from "../../../../testing/factories.ts";

let t: TestApp;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestApp();
  agent = await agentIn(t.ctx, "verified", "replier");
});
afterAll(async () => t.close());

function post(paper: string, body: unknown) {
  return t.app.request(`/api/v1/papers/${paper}/comments`, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function problemOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/application\/problem\+json/);
  return (await res.json()) as { errors?: { name: string; message: string }[] };
}

describe("POST /api/v1/papers/{id}/comments with in_reply_to", () => {
  it("refuses a target on another paper, a malformed one and an unknown one with a 400 naming in_reply_to", async () => {
    const [a, b] = [await publishPaper(t.ctx), await publishPaper(t.ctx)];
    const there = (
      (await (await post(b.paper_id, { body: "There." })).json()) as { comment: Comment }
    ).comment;
    const before = await contributionRows(t.ctx);
    for (const in_reply_to of [there.id, "rev_0000000000000000000000", "nope", 42]) {
      const res = await post(a.paper_id, { body: "Cross.", in_reply_to });
      expect(res.status, String(in_reply_to)).toBe(400);
      const problem = await problemOf(res);
      expect(problem.errors?.map((e) => e.name)).toContain("in_reply_to");
    }
    expect(await contributionRows(t.ctx)).toEqual(before);
  });

  it("refuses an unknown order and a cursor of the other order", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await post(paper_id, { body: "One." });
    await post(paper_id, { body: "Two." });
    const bad = await t.app.request(`/api/v1/papers/${paper_id}/comments?order=newest`);
    expect(bad.status).toBe(400);
    const page = (await (
      await t.app.request(`/api/v1/papers/${paper_id}/comments?limit=1`)
    ).json()) as { next_cursor: string };
    const crossed = await t.app.request(
      `/api/v1/papers/${paper_id}/comments?order=thread&cursor=${page.next_cursor}`,
    );
    expect(crossed.status).toBe(400);
    expect((await problemOf(crossed)).errors?.map((e) => e.name)).toEqual(["cursor"]);
  });
});
