/** @module GET /api/v1/papers, /papers/{id}, /papers/{id}/context and /openapi.json: what a reader gets. */

// biome-ignore lint/style/noRestrictedImports: the test reads the listing order from the table and seeds fixed-score reviews.
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// biome-ignore lint/style/noRestrictedImports: the test reads the listing order from the table and seeds fixed-score reviews.
import { papers, reviews } from "../../../../db/schema/index.ts";
import { newId } from "../../../../services/ids.ts";
import { publishVersion } from "../../../../services/papers/publish.ts";
import type {
  PaperDetail,
  PaperList,
  PaperListItem,
  PaperSpans,
} from "../../../../services/papers/schemas.ts";
import { setPaperStatus } from "../../../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { fixedClock, operator } from "../../../../testing/db.ts";
import { makeAgent, makeOwner, paperInput, publishPaper } from "../../../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
});
afterAll(async () => t.close());

const LIST_ITEM_KEYS = [
  "ai_label",
  "ai_model",
  "counts",
  "id",
  "published_at",
  "subjects",
  "title",
  "updated_at",
  "verification",
  "version",
];

async function getJson<T>(path: string): Promise<{ res: Response; body: T }> {
  const res = await t.app.request(path);
  expect(res.status, `${path} answered ${res.status}`).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return { res, body: (await res.json()) as T };
}

/** Follows next_cursor from the first page to the last. */
async function walk(limit: number): Promise<{ items: PaperListItem[]; pages: PaperList[] }> {
  const pages: PaperList[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const { body } = await getJson<PaperList>(`/api/v1/papers?limit=${limit}${query}`);
    pages.push(body);
    cursor = body.next_cursor;
    expect(pages.length, "paging does not end").toBeLessThan(500);
  } while (cursor !== null);
  return { items: pages.flatMap((p) => p.papers), pages };
}

async function listItem(id: string): Promise<PaperListItem> {
  const { items } = await walk(100);
  const item = items.find((p) => p.id === id);
  expect(item, `${id} is not in the list`).toBeDefined();
  return item as PaperListItem;
}

/** Published ids straight from the database, in the documented order. */
async function visibleIdsInDatabase(): Promise<string[]> {
  const rows = await t.database.db
    .select({ id: papers.id })
    .from(papers)
    .where(eq(papers.status, "published"))
    .orderBy(desc(papers.publishedAt), desc(papers.id));
  return rows.map((r) => r.id);
}

function byNewest(a: PaperListItem, b: PaperListItem): number {
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const codePoints = (s: string) => [...s].length;

describe("GET /api/v1/papers", () => {
  it("returns list items with exactly the decided fields and values", async () => {
    const now = clock.now().toISOString();
    const input = paperInput({ ai_model: "claude-opus-4.5" });
    const published = await publishPaper(t.ctx, {
      ...input,
      publishedAt: new Date("2090-05-01T08:30:00.000Z"),
    });
    const { body } = await getJson<PaperList>("/api/v1/papers?limit=100");
    expect(Object.keys(body).sort()).toEqual(["next_cursor", "papers"]);
    for (const item of body.papers) {
      expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
      expect(Object.keys(item.verification).sort()).toEqual([
        "screened_at",
        "screened_by",
        "status",
      ]);
      expect(Object.keys(item.counts).sort()).toEqual([
        "ai_reviews",
        "comments",
        "human_reviews",
        "versions",
      ]);
      expect(item.ai_label).toBe("AI-generated");
      expect(["passed", "warnings"]).toContain(item.verification.status);
    }
    const item = await listItem(published.paper_id);
    expect(item).toEqual({
      id: published.paper_id,
      title: input.title,
      ai_model: "claude-opus-4.5",
      ai_label: "AI-generated",
      verification: {
        status: published.screening.status,
        screened_at: now,
        screened_by: published.screening.screened_by,
      },
      counts: { versions: 1, comments: 0, ai_reviews: 0, human_reviews: 0 },
      subjects: [],
      version: 1,
      published_at: "2090-05-01T08:30:00.000Z",
      updated_at: now,
    });
    expect(item.id).toMatch(/^9005\.\d{5}$/);
    expect(item.verification.screened_by).toMatch(/quire-rules\/\d/);
  });

  it("filters by subject and first publication, and orders by discussion, with cursors", async () => {
    const day = "2091-03-04";
    const made: string[] = [];
    for (const subjects of [["cs.CL", "cs.AI"], ["stat.ML"], ["cs.AI"]]) {
      made.push(
        (await publishPaper(t.ctx, { subjects, publishedAt: new Date(`${day}T10:00:00.000Z`) }))
          .paper_id,
      );
    }
    const ids = async (query: string) =>
      (await getJson<PaperList>(`/api/v1/papers?${query}`)).body.papers.map((p) => p.id);
    expect((await ids(`subject=cs.AI&since=${day}&until=${day}`)).sort()).toEqual(
      [made[0], made[2]].sort(),
    );
    expect(await ids(`subject=stat&since=${day}`)).toEqual([made[1]]);
    expect(await ids(`subject=cs.CL&since=${day}T10:00:01Z`)).toEqual([]);
    const first = await getJson<PaperList>(`/api/v1/papers?since=${day}&sort=discussed&limit=2`);
    expect(first.body.papers).toHaveLength(2);
    const rest = await getJson<PaperList>(
      `/api/v1/papers?since=${day}&sort=discussed&limit=2&cursor=${first.body.next_cursor}`,
    );
    expect(new Set([...first.body.papers, ...rest.body.papers].map((p) => p.id))).toEqual(
      new Set(made),
    );
    expect(first.body.papers[0]?.subjects.length).toBeGreaterThan(0);
  });

  it("orders newest first by published_at, ties by id descending", async () => {
    const at = (iso: string) => ({ publishedAt: new Date(iso) });
    const oldest = await publishPaper(t.ctx, at("2091-03-01T00:00:00.000Z"));
    const tieFirst = await publishPaper(t.ctx, at("2091-03-03T00:00:00.000Z"));
    const middle = await publishPaper(t.ctx, at("2091-03-02T00:00:00.000Z"));
    const tieSecond = await publishPaper(t.ctx, at("2091-03-03T00:00:00.000Z"));
    const mine = [oldest, tieFirst, middle, tieSecond].map((p) => p.paper_id);
    expect(tieSecond.paper_id > tieFirst.paper_id).toBe(true);

    const { items } = await walk(100);
    const mineInOrder = items.map((p) => p.id).filter((id) => mine.includes(id));
    expect(mineInOrder).toEqual([
      tieSecond.paper_id,
      tieFirst.paper_id,
      middle.paper_id,
      oldest.paper_id,
    ]);
    expect([...items].sort(byNewest).map((p) => p.id)).toEqual(items.map((p) => p.id));
  });

  it("defaults to 50 papers and honours limit from 1 to 100", async () => {
    for (let i = 0; i < 51; i++) await publishPaper(t.ctx);
    const total = (await visibleIdsInDatabase()).length;
    expect(total).toBeGreaterThan(50);

    const fallback = await getJson<PaperList>("/api/v1/papers");
    expect(fallback.body.papers).toHaveLength(50);
    expect(fallback.body.next_cursor).toEqual(expect.any(String));

    for (const limit of [1, 7, 50, 100]) {
      const { body } = await getJson<PaperList>(`/api/v1/papers?limit=${limit}`);
      expect(body.papers).toHaveLength(Math.min(limit, total));
      expect(body.next_cursor === null).toBe(total <= limit);
    }
    const explicit = await getJson<PaperList>("/api/v1/papers?limit=50");
    expect(explicit.body).toEqual(fallback.body);
  });

  it("walks every visible paper exactly once by cursor, ending with next_cursor null", async () => {
    for (let i = 0; i < 3; i++) await publishPaper(t.ctx);
    const expected = await visibleIdsInDatabase();
    for (const limit of [3, 7, 100]) {
      const { items, pages } = await walk(limit);
      const ids = items.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected);
      expect(pages.at(-1)?.next_cursor).toBeNull();
      for (const page of pages.slice(0, -1)) expect(page.next_cursor).toEqual(expect.any(String));
    }
  });

  it("keeps later pages stable when a newer paper is published mid-walk", async () => {
    const before = await visibleIdsInDatabase();
    const first = await getJson<PaperList>("/api/v1/papers?limit=3");
    const newcomer = await publishPaper(t.ctx, { publishedAt: new Date("2099-12-31T00:00:00Z") });
    const seen = first.body.papers.map((p) => p.id);
    let cursor = first.body.next_cursor;
    while (cursor) {
      const { body }: { body: PaperList } = await getJson<PaperList>(
        `/api/v1/papers?limit=3&cursor=${cursor}`,
      );
      seen.push(...body.papers.map((p) => p.id));
      cursor = body.next_cursor;
    }
    expect(seen).toEqual(before);
    expect(seen).not.toContain(newcomer.paper_id);
    const fresh = await getJson<PaperList>("/api/v1/papers?limit=1");
    expect(fresh.body.papers[0]?.id).toBe(newcomer.paper_id);
  });

  it("leaves out withdrawn and removed papers", async () => {
    const at = { publishedAt: new Date("2092-06-15T00:00:00Z") };
    const kept = await publishPaper(t.ctx, at);
    const withdrawn = await publishPaper(t.ctx, at);
    const removed = await publishPaper(t.ctx, at);
    await setPaperStatus(t.ctx, withdrawn.paper_id, "withdrawn");
    await setPaperStatus(t.ctx, removed.paper_id, "removed");

    const { items } = await walk(100);
    const ids = items.map((p) => p.id);
    expect(ids).toContain(kept.paper_id);
    expect(ids).not.toContain(withdrawn.paper_id);
    expect(ids).not.toContain(removed.paper_id);
    expect(ids).toEqual(await visibleIdsInDatabase());
  });
});

describe("GET /api/v1/papers/{id}", () => {
  it("returns the paper with its current version", async () => {
    const now = clock.now().toISOString();
    const owner = await makeOwner(t.ctx);
    const input = paperInput({
      ai_model: "gpt-5.1",
      license: "CC-BY-SA-4.0",
      keywords: ["glaciers", "mass balance"],
      body: `${paperInput().body}\n\nTrailing paragraph with é, 日本語 and 🎉 kept verbatim.\n`,
    });
    const published = await publishPaper(t.ctx, { ...input, ownerId: owner.id });
    const { body } = await getJson<PaperDetail>(`/api/v1/papers/${published.paper_id}`);

    expect(Object.keys(body).sort()).toEqual(["paper", "version"]);
    expect(body.paper).toMatchObject({
      ...(await listItem(published.paper_id)),
      abstract: input.abstract,
      authors: [
        { name: "gpt-5.1", kind: "ai", role: "author" },
        { name: owner.handle, kind: "human", role: "submitter" },
      ],
      owner_handle: owner.handle,
      license: "CC-BY-SA-4.0",
      keywords: ["glaciers", "mass balance"],
      versions: [{ version: 1, created_at: now }],
      reviews: { human: { count: 0, mean: null }, ai_advisory: { count: 0, mean: null } },
    });
    for (const key of [
      ...LIST_ITEM_KEYS,
      "abstract",
      "authors",
      "owner_handle",
      "license",
      "keywords",
      "versions",
      "reviews",
    ]) {
      expect(body.paper).toHaveProperty(key);
    }
    expect(body.version).toMatchObject({
      version: 1,
      title: input.title,
      abstract: input.abstract,
      body: input.body,
      created_at: now,
      changelog: null,
    });
  });

  it("names a paper without an owner with the AI author only", async () => {
    const published = await publishPaper(t.ctx, { ai_model: "claude-opus-4.5" });
    const { body } = await getJson<PaperDetail>(`/api/v1/papers/${published.paper_id}`);
    expect(body.paper.owner_handle).toBeNull();
    expect(body.paper.authors).toEqual([{ name: "claude-opus-4.5", kind: "ai", role: "author" }]);
  });

  it("serves v2 as current and still serves v1 by `{id}v1`", async () => {
    const v1Input = paperInput();
    const first = await publishPaper(t.ctx, v1Input);
    const v1At = clock.now().toISOString();
    clock.advance(86_400_000);
    const v2Input = paperInput({ ai_model: "test-model-2" });
    const v2 = await publishVersion(
      { ...t.ctx, caller: operator },
      { ...v2Input, paperId: first.paper_id, changelog: "Rewrote the method." },
    );
    expect(v2).toMatchObject({ outcome: "published", version: 2 });
    const v2At = clock.now().toISOString();

    const current = await getJson<PaperDetail>(`/api/v1/papers/${first.paper_id}`);
    expect(current.body.paper).toMatchObject({
      id: first.paper_id,
      title: v2Input.title,
      ai_model: "test-model-2",
      version: 2,
      counts: { versions: 2 },
      updated_at: v2At,
      versions: [
        { version: 1, created_at: v1At },
        { version: 2, created_at: v2At },
      ],
    });
    expect(current.body.version).toMatchObject({
      version: 2,
      title: v2Input.title,
      abstract: v2Input.abstract,
      body: v2Input.body,
      created_at: v2At,
      changelog: "Rewrote the method.",
    });

    const old = await getJson<PaperDetail>(`/api/v1/papers/${first.paper_id}v1`);
    expect(old.body.version).toMatchObject({
      version: 1,
      title: v1Input.title,
      abstract: v1Input.abstract,
      body: v1Input.body,
      created_at: v1At,
      changelog: null,
    });
    expect(old.body.paper.version).toBe(2);
    expect(old.body.paper.title).toBe(v2Input.title);

    const named = await getJson<PaperDetail>(`/api/v1/papers/${first.paper_id}v2`);
    expect(named.body).toEqual(current.body);
    const item = await listItem(first.paper_id);
    expect(item).toMatchObject({ version: 2, title: v2Input.title, counts: { versions: 2 } });
  });

  it("keeps human and AI advisory review means apart", async () => {
    const paper = await publishPaper(t.ctx);
    const other = await publishPaper(t.ctx);
    const humans = [await makeOwner(t.ctx), await makeOwner(t.ctx), await makeOwner(t.ctx)];
    const agentOwner = await makeOwner(t.ctx);
    const agents = [
      await makeAgent(t.ctx, agentOwner.handle, "reviewer-a"),
      await makeAgent(t.ctx, agentOwner.handle, "reviewer-b"),
      await makeAgent(t.ctx, agentOwner.handle, "reviewer-c"),
    ];
    type Scores = [number, number, number, number, number];
    const row = (
      paperId: string,
      scores: Scores,
      author: { ownerId: string } | { agentId: string },
    ) => ({
      id: newId("rev"),
      paperId,
      paperVersion: 1,
      kind: "ownerId" in author ? ("human" as const) : ("ai_advisory" as const),
      ...author,
      soundness: scores[0],
      presentation: scores[1],
      contribution: scores[2],
      confidence: scores[3],
      overall: scores[4],
      body: "A review.",
      createdAt: clock.now(),
    });
    const id = paper.paper_id;
    await t.database.db
      .insert(reviews)
      .values([
        row(id, [3, 4, 2, 5, 8], { ownerId: humans[0]!.id }),
        row(id, [4, 3, 3, 4, 7], { ownerId: humans[1]!.id }),
        { ...row(id, [1, 1, 1, 1, 1], { ownerId: humans[2]!.id }), removedAt: clock.now() },
        row(id, [1, 2, 1, 3, 2], { agentId: agents[0]!.id }),
        row(id, [2, 2, 2, 3, 3], { agentId: agents[1]!.id }),
        row(id, [2, 1, 4, 2, 3], { agentId: agents[2]!.id }),
        row(other.paper_id, [4, 4, 4, 5, 10], { agentId: agents[0]!.id }),
      ]);

    const { body } = await getJson<PaperDetail>(`/api/v1/papers/${id}`);
    expect(body.paper.reviews).toEqual({
      human: {
        count: 2,
        mean: {
          soundness: 3.5,
          presentation: 3.5,
          contribution: 2.5,
          confidence: 4.5,
          overall: 7.5,
        },
      },
      ai_advisory: {
        count: 3,
        mean: {
          soundness: 1.67,
          presentation: 1.67,
          contribution: 2.33,
          confidence: 2.67,
          overall: 2.67,
        },
      },
    });
    expect(body.paper.counts).toEqual({
      versions: 1,
      comments: 0,
      ai_reviews: 3,
      human_reviews: 2,
    });
    expect((await listItem(id)).counts).toEqual({
      versions: 1,
      comments: 0,
      ai_reviews: 3,
      human_reviews: 2,
    });

    const second = await getJson<PaperDetail>(`/api/v1/papers/${other.paper_id}`);
    expect(second.body.paper.reviews).toEqual({
      human: { count: 0, mean: null },
      ai_advisory: {
        count: 1,
        mean: { soundness: 4, presentation: 4, contribution: 4, confidence: 5, overall: 10 },
      },
    });
    expect((await listItem(other.paper_id)).counts).toMatchObject({
      ai_reviews: 1,
      human_reviews: 0,
    });
  });
});

describe("GET /api/v1/papers/{id}/context", () => {
  const sentence = (n: number) =>
    `Observation ${n} shows that the measured effect grows with the sample size, as the model predicts. `;
  const paragraph = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => sentence(from + i))
      .join("")
      .trim();

  const order = { title: 0, abstract: 1, body: 2, caption: 3 } as const;

  function checkChunks(context: PaperSpans, version: PaperDetail["version"]) {
    expect(context.chunks.map((c) => c.chunk_index)).toEqual(context.chunks.map((_, i) => i));
    const fields = context.chunks.map((c) => c.field);
    expect(fields).toEqual([...fields].sort((a, b) => order[a] - order[b]));
    const body = [...version.body];
    for (const chunk of context.chunks) {
      const allowed = ["chunk_index", "content", "end", "field", "start"];
      if (chunk.field === "caption") {
        // A caption is the span start..end of the body, verbatim.
        expect(body.slice(chunk.start, chunk.end).join("")).toBe(chunk.content);
      }
      if (chunk.field === "body" || chunk.field === "caption") {
        expect(chunk).toHaveProperty("section");
        expect(chunk.section === null || typeof chunk.section === "string").toBe(true);
        allowed.push("section");
      } else {
        expect(chunk).not.toHaveProperty("section");
      }
      expect(Object.keys(chunk).sort()).toEqual(allowed.sort());
      expect(chunk.end - chunk.start).toBe(codePoints(chunk.content));
    }
    for (const field of ["title", "abstract", "body"] as const) {
      const spans = context.chunks.filter((c) => c.field === field);
      expect(spans.length).toBeGreaterThan(0);
      expect(spans.map((c) => c.content).join("")).toBe(version[field]);
      expect(spans[0]?.start).toBe(0);
      for (let i = 1; i < spans.length; i++) expect(spans[i]?.start).toBe(spans[i - 1]?.end);
      expect(spans.at(-1)?.end).toBe(codePoints(version[field]));
    }
  }

  it("returns ordered, verbatim chunks that rebuild every field exactly", async () => {
    const body = [
      `Opening words before any heading: ${sentence(0)}`,
      "## Methods",
      paragraph(1, 12),
      "### Data",
      `Café ☕ and 日本語 and 🎉🎉 stay intact. ${paragraph(20, 14)}`,
      paragraph(40, 14),
      "## Results",
      paragraph(60, 16),
      paragraph(80, 16),
      "",
    ].join("\n\n");
    const input = paperInput({ body, title: `  ${paperInput().title} 🎉  ` });
    const published = await publishPaper(t.ctx, input);
    const detail = await getJson<PaperDetail>(`/api/v1/papers/${published.paper_id}`);
    const { body: context } = await getJson<PaperSpans>(
      `/api/v1/papers/${published.paper_id}/context`,
    );

    expect(context.paper_id).toBe(published.paper_id);
    expect(context.version).toBe(1);
    expect(detail.body.version.body).toBe(body);
    checkChunks(context, detail.body.version);
    const bodyChunks = context.chunks.filter((c) => c.field === "body");
    expect(bodyChunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of bodyChunks) expect(codePoints(chunk.content)).toBeLessThanOrEqual(2000);
    const results = bodyChunks.find((c) => c.content.includes(sentence(90).trim()));
    expect(results?.section).toContain("Results");
    expect(bodyChunks[0]?.section ?? null).toBeNull();
  });

  it("serves the current version's chunks, and v1's by `{id}v1`", async () => {
    const v1Input = paperInput();
    const first = await publishPaper(t.ctx, v1Input);
    await publishVersion(
      { ...t.ctx, caller: operator },
      { ...paperInput(), paperId: first.paper_id },
    );
    const current = await getJson<PaperDetail>(`/api/v1/papers/${first.paper_id}`);
    const context = await getJson<PaperSpans>(`/api/v1/papers/${first.paper_id}/context`);
    expect(context.body.version).toBe(2);
    checkChunks(context.body, current.body.version);

    const old = await getJson<PaperDetail>(`/api/v1/papers/${first.paper_id}v1`);
    const oldContext = await getJson<PaperSpans>(`/api/v1/papers/${first.paper_id}v1/context`);
    expect(oldContext.body).toMatchObject({ paper_id: first.paper_id, version: 1 });
    checkChunks(oldContext.body, old.body.version);
    expect(old.body.version.title).toBe(v1Input.title);
  });

  it("lists figure and table captions after the body, as spans of it, in order", async () => {
    const body = [
      "## Results",
      `The gap closes (Figure [1](#figure-1)). ${paragraph(1, 3)}`,
      "![Figure 1: Estimated gap against steps, with $d=3$.](figures/plot.png) {#figure-1}",
      "Table: Table 1: Estimates by dimension. {#table-1}",
      "| d | estimate |\n| --- | --- |\n| 3 | 2.831 |",
      "## Notes",
      "An image inside a sentence ![not a figure](x.png) is no figure, and `Table:` here is no caption.",
      "",
    ].join("\n\n");
    const published = await publishPaper(t.ctx, paperInput({ body }));
    const detail = await getJson<PaperDetail>(`/api/v1/papers/${published.paper_id}`);
    const { body: context } = await getJson<PaperSpans>(
      `/api/v1/papers/${published.paper_id}/context`,
    );
    checkChunks(context, detail.body.version);
    const captions = context.chunks.filter((c) => c.field === "caption");
    expect(captions.map((c) => [c.content, c.section])).toEqual([
      ["Figure 1: Estimated gap against steps, with $d=3$.", "Results"],
      ["Table 1: Estimates by dimension.", "Results"],
    ]);
    // The body chunks are what they would be without captions: the body still holds them.
    const bodyText = context.chunks.filter((c) => c.field === "body").map((c) => c.content);
    expect(bodyText.join("")).toBe(body);
  });
});

describe("GET /api/v1/openapi.json", () => {
  type Doc = {
    openapi: string;
    info: { version: string; license: { name: string } };
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, SchemaObject> };
  };
  type Operation = {
    parameters?: { name: string; in: string; required?: boolean; schema: SchemaObject }[];
    requestBody?: { content: Record<string, { schema: SchemaObject }> };
    responses?: Record<string, { content?: Record<string, unknown> }>;
  };
  type SchemaObject = {
    $ref?: string;
    type?: string;
    minimum?: number;
    maximum?: number;
    default?: unknown;
    minLength?: number;
    properties?: Record<string, SchemaObject>;
    required?: string[];
  };

  let doc: Doc;
  beforeAll(async () => {
    doc = (await getJson<Doc>("/api/v1/openapi.json")).body;
  });

  const resolve = (schema: SchemaObject): SchemaObject => {
    const name = schema.$ref?.replace("#/components/schemas/", "");
    return name ? (doc.components.schemas[name] as SchemaObject) : schema;
  };
  const param = (path: string, name: string) =>
    doc.paths[path]?.get?.parameters?.find((p) => p.name === name && p.in === "query");

  it("is OpenAPI 3.1.0, version 1.0.0, licensed CC-BY-4.0", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.license.name).toBe("CC-BY-4.0");
  });

  it("documents every endpoint of the contract with its method", () => {
    const contract: [method: string, path: string][] = [
      ["get", "/api/v1/papers"],
      ["get", "/api/v1/papers/{id}"],
      ["get", "/api/v1/papers/{id}/context"],
      ["get", "/api/v1/search/semantic"],
      ["get", "/api/v1/me"],
      ["post", "/api/v1/papers/{id}/comments"],
      ["post", "/api/v1/papers/{id}/reviews"],
      ["get", "/api/v1/dataset/croissant"],
      ["get", "/api/v1/openapi.json"],
    ];
    for (const [method, path] of contract) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
  });

  it("states the contract's bounds and defaults for limit, q and review scores", () => {
    expect(param("/api/v1/papers", "limit")?.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 50,
    });
    expect(param("/api/v1/search/semantic", "limit")?.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 20,
      default: 8,
    });
    expect(param("/api/v1/search/semantic", "q")).toMatchObject({
      required: true,
      schema: { type: "string", minLength: 2 },
    });
    const review = resolve(
      doc.paths["/api/v1/papers/{id}/reviews"]?.post?.requestBody?.content["application/json"]
        ?.schema ?? {},
    );
    const bounds = { soundness: 4, presentation: 4, contribution: 4, confidence: 5, overall: 10 };
    for (const [name, maximum] of Object.entries(bounds)) {
      expect(review.properties?.[name], name).toMatchObject({
        type: "integer",
        minimum: 1,
        maximum,
      });
    }
    expect(review.required?.sort()).toEqual([...Object.keys(bounds), "body"].sort());
  });

  it("documents the contract's error statuses as problem+json", () => {
    const expected: [method: string, path: string, statuses: string[]][] = [
      ["get", "/api/v1/papers", ["429"]],
      ["get", "/api/v1/papers/{id}", ["404", "429"]],
      ["get", "/api/v1/search/semantic", ["429", "503"]],
      ["get", "/api/v1/me", ["401", "429"]],
      ["post", "/api/v1/papers/{id}/comments", ["401", "403", "429"]],
      ["post", "/api/v1/papers/{id}/reviews", ["401", "403", "429"]],
    ];
    for (const [method, path, statuses] of expected) {
      const responses = doc.paths[path]?.[method]?.responses ?? {};
      for (const status of statuses) {
        expect(
          responses[status]?.content?.["application/problem+json"],
          `${method.toUpperCase()} ${path} ${status}`,
        ).toBeDefined();
      }
    }
  });
});
