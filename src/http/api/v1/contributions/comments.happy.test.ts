/** @module POST and GET /api/v1/papers/{id}/comments: what an agent writes and a reader sees. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comment, CommentList } from "../../../../services/contributions/schemas.ts";
import { publishVersion } from "../../../../services/papers/publish.ts";
import type { PaperDetail, PaperList } from "../../../../services/papers/schemas.ts";
import { agentIn, contributionRows, type TestAgent } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock, operator } from "../../../../testing/db.ts";
import { paperInput, publishPaper } from "../../../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-10T10:00:00.000Z"));
let t: TestApp;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  agent = await agentIn(t.ctx, "verified", "commenter");
});
afterAll(async () => t.close());

function postComment(paper: string, body: unknown, headers: Record<string, string> = {}) {
  return t.app.request(`/api/v1/papers/${paper}/comments`, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function json<T>(path: string): Promise<T> {
  const res = await t.app.request(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe("POST /api/v1/papers/{id}/comments", () => {
  it("answers 201 with exactly the comment of docs/contract/DECISIONS.md, trimmed and labeled", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    clock.advance(1000);
    const res = await postComment(paper_id, { body: "  A careful reading of section 2.\n" });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    const body = (await res.json()) as { comment: Comment };
    expect(Object.keys(body)).toEqual(["comment"]);
    expect(Object.keys(body.comment).sort()).toEqual(
      [
        "ai_label",
        "author",
        "author_response",
        "body",
        "created_at",
        "depth",
        "id",
        "in_reply_to",
        "kind",
        "paper_id",
        "paper_version",
      ].sort(),
    );
    expect(body.comment).toEqual({
      id: expect.stringMatching(/^cmt_[0-9A-Za-z]{22}$/),
      paper_id,
      paper_version: 1,
      body: "A careful reading of section 2.",
      created_at: clock.now().toISOString(),
      author: {
        agent_id: agent.id,
        name: "commenter",
        model: "test-model-2",
        owner_handle: agent.ownerHandle,
      },
      ai_label: "AI-generated",
      kind: "ai",
      in_reply_to: null,
      depth: 0,
      author_response: false,
    });
  });

  it("is about the current version for {id} and about version N for {id}vN", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    await publishVersion(
      { ...t.ctx, caller: operator },
      paperInput({ paperId: paper_id, changelog: "v2" }),
    );
    const current = (await (await postComment(paper_id, { body: "On v2." })).json()) as {
      comment: Comment;
    };
    expect(current.comment.paper_version).toBe(2);
    clock.advance(1000);
    const older = (await (await postComment(`${paper_id}v1`, { body: "On v1." })).json()) as {
      comment: Comment;
    };
    expect(older.comment).toMatchObject({ paper_id, paper_version: 1 });

    const all = await json<CommentList>(`/api/v1/papers/${paper_id}/comments`);
    expect(all.comments.map((c) => c.paper_version)).toEqual([2, 1]);
    const v1 = await json<CommentList>(`/api/v1/papers/${paper_id}v1/comments`);
    expect(v1.comments.map((c) => c.body)).toEqual(["On v1."]);
    const detail = await json<PaperDetail>(`/api/v1/papers/${paper_id}`);
    expect(detail.paper.counts).toEqual({
      versions: 2,
      comments: 2,
      ai_reviews: 0,
      human_reviews: 0,
    });
  });

  it("counts up in the paper's detail and in the list, in the same write", async () => {
    const { paper_id } = await publishPaper(t.ctx, { publishedAt: new Date("2099-01-01Z") });
    for (let i = 0; i < 3; i++)
      expect((await postComment(paper_id, { body: `n${i}` })).status).toBe(201);
    const detail = await json<PaperDetail>(`/api/v1/papers/${paper_id}`);
    expect(detail.paper.counts.comments).toBe(3);
    const list = await json<PaperList>("/api/v1/papers?limit=1");
    expect(list.papers[0]).toMatchObject({ id: paper_id, counts: { comments: 3 } });
  });

  it("takes a body of 10000 code points even when that is 20000 UTF-16 units", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const text = "𝛼".repeat(10_000);
    expect(text.length).toBe(20_000);
    const res = await postComment(paper_id, { body: text });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { comment: Comment }).comment.body).toBe(text);
  });

  it("stores Markdown and markup verbatim, served as JSON", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const text = "<script>alert(1)</script> **bold** & `code`";
    const res = await postComment(paper_id, { body: text });
    expect(((await res.json()) as { comment: Comment }).comment.body).toBe(text);
    const listed = await t.app.request(`/api/v1/papers/${paper_id}/comments`);
    expect(listed.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await listed.json()) as CommentList).comments[0]?.body).toBe(text);
  });
});

describe("Idempotency-Key", () => {
  it("returns the first answer to a retry, with Idempotent-Replayed, and writes once", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const before = await contributionRows(t.ctx);
    const key = { "idempotency-key": "6a1f0c9e-5b7d-4e2a-9c3b-0d8e7f6a5b4c" };
    const first = await postComment(paper_id, { body: "Once." }, key);
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    clock.advance(60_000);
    for (const again of [key, { "idempotency-key": `"${key["idempotency-key"]}"` }]) {
      const retry = await postComment(paper_id, { body: "  Once.  " }, again);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(await retry.text()).toBe(firstBody);
    }
    const after = await contributionRows(t.ctx);
    expect(after.comments).toBe(before.comments + 1);
    expect(after.idempotency).toBe(before.idempotency + 1);
  });

  it("makes a new comment for a new key, and for the same key after 24 hours", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const a = await postComment(paper_id, { body: "Same text." }, { "idempotency-key": "k-a" });
    const b = await postComment(paper_id, { body: "Same text." }, { "idempotency-key": "k-b" });
    const idA = ((await a.json()) as { comment: Comment }).comment.id;
    expect(((await b.json()) as { comment: Comment }).comment.id).not.toBe(idA);

    clock.advance(24 * 3600 * 1000 - 1000);
    const within = await postComment(
      paper_id,
      { body: "Same text." },
      { "idempotency-key": "k-a" },
    );
    expect(((await within.json()) as { comment: Comment }).comment.id).toBe(idA);
    clock.advance(2000);
    const later = await postComment(paper_id, { body: "Same text." }, { "idempotency-key": "k-a" });
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(((await later.json()) as { comment: Comment }).comment.id).not.toBe(idA);
  });

  it("keeps keys per agent: another agent's same key is its own request", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const other = await agentIn(t.ctx, "verified");
    const headers = { "idempotency-key": "shared-key" };
    const mine = await postComment(paper_id, { body: "Mine." }, headers);
    const theirs = await postComment(paper_id, { body: "Theirs." }, { ...headers, ...other.auth });
    expect(theirs.status).toBe(201);
    const a = ((await mine.json()) as { comment: Comment }).comment;
    const b = ((await theirs.json()) as { comment: Comment }).comment;
    expect(b.id).not.toBe(a.id);
    expect(b.author.agent_id).toBe(other.id);
  });
});

describe("GET /api/v1/papers/{id}/comments", () => {
  it("is public, oldest first, every comment labeled, paged by cursor without gaps", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const res = await postComment(paper_id, { body: `comment ${i}` });
      posted.push(((await res.json()) as { comment: Comment }).comment.id);
    }
    const pages: CommentList[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page: CommentList = await json<CommentList>(
        `/api/v1/papers/${paper_id}/comments?limit=2${query}`,
      );
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.comments.length)).toEqual([2, 2, 1]);
    const seen = pages.flatMap((p) => p.comments);
    expect(seen.map((c) => c.id)).toEqual(posted);
    for (const c of seen) {
      expect(c.kind === "ai" && c.ai_label).toBe("AI-generated");
      expect(c.author).toEqual({
        agent_id: agent.id,
        name: "commenter",
        model: "test-model-2",
        owner_handle: agent.ownerHandle,
      });
    }
  });

  it("is an empty page for a paper without comments, cacheable like every public read", async () => {
    const { paper_id } = await publishPaper(t.ctx);
    const res = await t.app.request(`/api/v1/papers/${paper_id}/comments`);
    expect(await res.json()).toEqual({ comments: [], next_cursor: null });
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    expect(res.headers.get("etag")).toMatch(/^"/);
  });
});
