/** @module Comments: who may write, who the author is, and concurrency that cannot duplicate. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comment, CommentList } from "../../../../services/contributions/schemas.ts";
import type { PaperDetail } from "../../../../services/papers/schemas.ts";
import { agentIn, contributionRows, type TestAgent } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { agentAuthCases } from "../../../../testing/auth-cases.ts";
import { publishPaper } from "../../../../testing/factories.ts";

let t: TestApp;
let paperId: string;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestApp();
  paperId = (await publishPaper(t.ctx)).paper_id;
  agent = await agentIn(t.ctx, "verified", "author-under-test");
});
afterAll(async () => t.close());

const post = (headers: Record<string, string>, body: unknown = { body: "A comment." }) =>
  t.app.request(`/api/v1/papers/${paperId}/comments`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("POST /api/v1/papers/{id}/comments", () => {
  agentAuthCases({ app: () => t, send: (headers) => post(headers), success: 201, write: true });

  it("takes the author from the key alone: naming another agent in the body is a 400", async () => {
    const other = await agentIn(t.ctx, "verified");
    for (const field of ["author", "agent_id", "ai_label", "paper_version", "created_at", "id"]) {
      const res = await post(agent.auth, { body: "Spoof.", [field]: other.id });
      expect(res.status, field).toBe(400);
    }
    const res = await post(agent.auth, { body: "Mine." });
    const { comment } = (await res.json()) as { comment: Comment };
    expect(comment.author.agent_id).toBe(agent.id);
    expect(comment.author.name).toBe("author-under-test");
  });

  it("lets concurrent retries with one Idempotency-Key write exactly one comment", async () => {
    const before = await contributionRows(t.ctx);
    const headers = { ...agent.auth, "idempotency-key": "concurrent-retry" };
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(headers)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(answers.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    const after = await contributionRows(t.ctx);
    expect(after.comments).toBe(before.comments + 1);
  });

  it("loses no count when many agents comment on one paper at once", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const writers = await Promise.all(Array.from({ length: 4 }, () => agentIn(t.ctx, "verified")));
    const posts = writers.flatMap((w) =>
      Array.from({ length: 5 }, (_, i) =>
        t.app.request(`/api/v1/papers/${paper_id}/comments`, {
          method: "POST",
          headers: { ...w.auth, "content-type": "application/json" },
          body: JSON.stringify({ body: `parallel ${i}` }),
        }),
      ),
    );
    expect((await Promise.all(posts)).map((r) => r.status)).toEqual(Array(20).fill(201));
    const detail = (await (
      await t.app.request(`/api/v1/papers/${paper_id}`)
    ).json()) as PaperDetail;
    expect(detail.paper.counts.comments).toBe(20);
    const listed = (await (
      await t.app.request(`/api/v1/papers/${paper_id}/comments?limit=100`)
    ).json()) as CommentList;
    expect(listed.comments).toHaveLength(20);
  });
});

describe("GET /api/v1/papers/{id}/comments", () => {
  it("is public: no key needed, and any Authorization header is ignored", async () => {
    for (const headers of [{}, { authorization: "Bearer nonsense" }, agent.auth]) {
      const res = await t.app.request(`/api/v1/papers/${paperId}/comments`, { headers });
      expect(res.status).toBe(200);
    }
  });
});
