/** @module publishVersion with the LLM screener: what is stored for each verdict, and for none. */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chunks, papers, paperVersions, screeningResults } from "../../db/schema/index.ts";
import { rowsOf } from "../../db/sql.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  type ChatBehaviour,
  type FakeChatServer,
  refusedUrl,
  startFakeChatServer,
} from "../../testing/chat-server.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Unavailable } from "../errors.ts";
import { approvePaper, listModerationQueue } from "../moderation/index.ts";
import { createHttpLlmScreener, RULE_SCREENER_ID } from "../screening/index.ts";
import { importPapers } from "./import.ts";
import { getOwnPaper, listOwnPapers } from "./own.ts";
import { type PublishInput, publishVersion } from "./publish.ts";

let test: TestApp;
let server: FakeChatServer;
let owner: ServiceContext;

const LLM = "llm:judge-1";

function withScreener(ctx: ServiceContext, url = server.url): ServiceContext {
  return {
    ...ctx,
    screener: createHttpLlmScreener({
      url,
      model: "judge-1",
      timeoutMs: 300,
      retries: 2,
      backoffMs: 5,
    }),
  };
}

beforeAll(async () => {
  test = await createTestApp();
  server = await startFakeChatServer();
  const o = await makeOwner(test.ctx);
  owner = withScreener({
    ...test.ctx,
    caller: { kind: "owner", ownerId: o.id, handle: o.handle, role: "owner" },
  });
});
afterAll(async () => {
  await server.close();
  await test.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

async function counts() {
  const n = async (table: typeof papers | typeof paperVersions | typeof chunks) =>
    (await test.database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(table))[0]?.n;
  const rows = await rowsOf<{ n: number }>(
    test.database.db,
    sql`select count(*)::int as n from search_chunks`,
  );
  return {
    papers: await n(papers),
    versions: await n(paperVersions),
    chunks: await n(chunks),
    indexed: Number(rows[0]?.n),
    screenings: (
      await test.database.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(screeningResults)
    )[0]?.n,
  };
}

async function stored(paperId: string) {
  const [paper] = await test.database.db.select().from(papers).where(eq(papers.id, paperId));
  const versions = await test.database.db
    .select()
    .from(paperVersions)
    .where(eq(paperVersions.paperId, paperId));
  const screenings = await test.database.db
    .select()
    .from(screeningResults)
    .where(eq(screeningResults.paperId, paperId));
  return { paper, versions, screenings };
}

async function searchIds(q: string): Promise<string[]> {
  const res = await test.app.request(
    `/api/v1/search/semantic?q=${encodeURIComponent(q)}&mode=lexical&limit=20`,
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: { paper_id: string }[] };
  return body.results.map((r) => r.paper_id);
}

async function listedIds(): Promise<string[]> {
  const res = await test.app.request("/api/v1/papers?limit=100");
  const body = (await res.json()) as { papers: { id: string }[] };
  return body.papers.map((p) => p.id);
}

/** A paper with a word no other paper has, to find it by search. */
function marked(word: string): PublishInput {
  return paperInput({ abstract: `${paperInput().abstract} The ${word} effect is central.` });
}

describe("LLM verdicts", () => {
  it("pass: published, indexed, screened by both, one result per screener", async () => {
    server.behaviour = { kind: "verdict", verdict: "pass" };
    const result = await publishVersion(owner, marked("zanzibarite"));
    expect(result.outcome).toBe("published");
    if (result.outcome !== "published") return;
    expect(server.requests).toHaveLength(1);
    expect(result.screening.screened_by).toBe(`${RULE_SCREENER_ID}+${LLM}`);
    const { paper, versions, screenings } = await stored(result.paper_id);
    expect(paper?.status).toBe("published");
    // A pass adds nothing: the version keeps the rules' status (factory papers have a warning).
    const rules = screenings.find((s) => s.screener === RULE_SCREENER_ID);
    expect(versions[0]?.screeningStatus).toBe(rules?.outcome);
    expect(result.screening.reasons).toEqual(rules?.reasons);
    expect(versions[0]?.screenedBy).toBe(`${RULE_SCREENER_ID}+${LLM}`);
    expect(screenings.map((s) => [s.screener, s.outcome === "passed", s.version]).sort()).toEqual([
      [LLM, true, 1],
      [RULE_SCREENER_ID, rules?.outcome === "passed", 1],
    ]);
    expect(await searchIds("zanzibarite")).toContain(result.paper_id);
  });

  it("flag: published with warnings carrying the model's reasons", async () => {
    server.behaviour = {
      kind: "verdict",
      verdict: "flag",
      reasons: [{ code: "spam", message: "It reads like an advertisement." }],
    };
    const result = await publishVersion(owner, paperInput());
    expect(result.outcome).toBe("published");
    if (result.outcome !== "published") return;
    expect(result.screening.status).toBe("warnings");
    expect(result.screening.reasons).toContainEqual({
      code: "spam",
      severity: "warning",
      field: null,
      message: "It reads like an advertisement.",
    });
    const { paper, versions, screenings } = await stored(result.paper_id);
    expect(paper?.status).toBe("published");
    expect(versions[0]?.screeningStatus).toBe("warnings");
    const llm = screenings.find((s) => s.screener === LLM);
    expect(llm?.outcome).toBe("warnings");
    expect(llm?.reasons).toEqual([
      {
        code: "spam",
        severity: "warning",
        field: null,
        message: "It reads like an advertisement.",
      },
    ]);
    const res = await test.app.request(`/api/v1/papers/${result.paper_id}`);
    const body = (await res.json()) as { paper: { verification: { status: string } } };
    expect(body.paper.verification.status).toBe("warnings");
  });

  it("stores the model's Spanish wording with the reason, when it gives one", async () => {
    server.behaviour = {
      kind: "verdict",
      verdict: "flag",
      reasons: [
        {
          code: "spam",
          message: "It reads like an advertisement.",
          message_es: "Parece un anuncio.",
        },
      ],
    };
    // A short body, so the rules warn too and their params can be checked.
    const result = await publishVersion(owner, paperInput({ body: "## Note\n\nShort." }));
    if (result.outcome !== "published") throw new Error(`not published: ${result.outcome}`);
    const { screenings } = await stored(result.paper_id);
    expect(screenings.find((s) => s.screener === LLM)?.reasons).toEqual([
      {
        code: "spam",
        severity: "warning",
        field: null,
        message: "It reads like an advertisement.",
        params: { message_es: "Parece un anuncio." },
      },
    ]);
    // The rules' reasons carry their params too, through the jsonb column unchanged.
    const rules = screenings.find((s) => s.screener === RULE_SCREENER_ID);
    expect(rules?.reasons).toEqual(result.screening.reasons.slice(0, -1));
    const ruleReasons = (rules?.reasons ?? []) as { params?: unknown }[];
    expect(ruleReasons.length).toBeGreaterThan(0);
    for (const r of ruleReasons) expect(r.params).toBeTypeOf("object");
  });

  it("reject: no paper, both screenings kept for the owner with the model's reasons", async () => {
    server.behaviour = {
      kind: "verdict",
      verdict: "reject",
      reasons: [{ code: "not_a_paper", message: "This is a recipe, not research." }],
    };
    const before = await counts();
    const input = paperInput();
    const result = await publishVersion(owner, input);
    expect(result.outcome).toBe("rejected");
    if (result.outcome !== "rejected") return;
    expect(result.screening.status).toBe("rejected");
    expect(result.screening.reasons.at(-1)).toMatchObject({
      code: "not_a_paper",
      severity: "reject",
    });
    const after = await counts();
    expect({ ...after, screenings: before.screenings }).toEqual(before);
    expect(after.screenings).toBe((before.screenings ?? 0) + 2);
    const [row] = await test.database.db
      .select()
      .from(screeningResults)
      .where(eq(screeningResults.id, result.screening_id));
    expect(row).toMatchObject({ screener: LLM, outcome: "rejected", paperId: null, version: null });
    const mine = await listOwnPapers(owner);
    const listed = mine.rejected.find((r) => r.screening_id === result.screening_id);
    expect(listed?.title).toBe(input.title);
    expect(listed?.reasons.map((r) => [r.screener, r.code])).toContainEqual([LLM, "not_a_paper"]);
  });

  it("a rule rejection never reaches the model", async () => {
    server.behaviour = { kind: "verdict", verdict: "pass" };
    const result = await publishVersion(owner, paperInput({ title: "Hi" }));
    expect(result.outcome).toBe("rejected");
    expect(server.requests).toHaveLength(0);
    if (result.outcome !== "rejected") return;
    const [row] = await test.database.db
      .select()
      .from(screeningResults)
      .where(eq(screeningResults.id, result.screening_id));
    expect(row?.screener).toBe(RULE_SCREENER_ID);
  });

  it("429 then a verdict: the retry is honoured and the paper published", async () => {
    server.behaviour = { kind: "status", status: 429, times: 1, retryAfterSeconds: 0 };
    const result = await publishVersion(owner, paperInput());
    expect(result.outcome).toBe("published");
    expect(server.requests).toHaveLength(2);
  });
});

describe("no verdict: the paper is held", () => {
  async function expectHeld(
    ctx: ServiceContext,
    word: string,
    reason: RegExp,
    problem: Record<string, unknown>,
  ) {
    const before = await counts();
    const result = await publishVersion(ctx, marked(word));
    expect(result.outcome).toBe("held");
    if (result.outcome !== "held") return;
    const { paper, versions, screenings } = await stored(result.paper_id);
    expect(paper?.status).toBe("submitted");
    expect(paper?.statusReason).toMatch(/^held: /);
    expect(paper?.statusReason).toMatch(reason);
    expect(versions).toHaveLength(1);
    expect(versions[0]?.screeningStatus).toBe("warnings");
    expect(versions[0]?.screenedBy).toBe(RULE_SCREENER_ID);
    expect(screenings.map((s) => [s.screener, s.version]).sort()).toEqual([
      [LLM, 1],
      [RULE_SCREENER_ID, 1],
    ]);
    const llm = screenings.find((s) => s.screener === LLM);
    expect(llm?.outcome).toBe("warnings");
    expect(llm?.reasons).toEqual([
      expect.objectContaining({
        code: "llm_unavailable",
        params: { screener: LLM, attempts: 3, ...problem },
      }),
    ]);
    // Stored whole (chunks ready for a moderator to publish), but not indexed.
    const after = await counts();
    expect(after.papers).toBe((before.papers ?? 0) + 1);
    expect(after.chunks).toBeGreaterThan(before.chunks ?? 0);
    expect(after.indexed).toBe(before.indexed);
    // Invisible to readers: list, get (both forms), context and search.
    expect(await listedIds()).not.toContain(result.paper_id);
    for (const path of ["", "v1", "/context"]) {
      const res = await test.app.request(`/api/v1/papers/${result.paper_id}${path}`);
      expect(res.status).toBe(404);
    }
    expect(await searchIds(word)).toEqual([]);
    // The owner sees it, with why.
    const own = await getOwnPaper(ctx, { id: result.paper_id });
    expect(own.status).toBe("submitted");
    expect(own.screening.reasons.map((r) => r.code)).toContain("llm_unavailable");
  }

  it("when the model is down (connection refused)", async () => {
    await expectHeld(
      withScreener(owner, await refusedUrl()),
      "quokkarium",
      /could not be reached/,
      {
        problem: "unreachable",
      },
    );
  });

  it("when the model is slower than the timeout", async () => {
    server.behaviour = { kind: "slow", ms: 1500 };
    await expectHeld(owner, "wombatite", /did not answer within 300 ms/, {
      problem: "timeout",
      timeout_ms: 300,
    });
  });

  it.each([
    ["content that is not JSON", { kind: "content", content: "LGTM" }, "numbatite"],
    ["JSON of the wrong shape", { kind: "content", content: '{"decision": "ok"}' }, "bilbyite"],
    ["no choices", { kind: "body", body: '{"choices": []}' }, "dugongite"],
  ] as [string, ChatBehaviour, string][])(
    "when the model answers %s (three times)",
    async (_name, behaviour, word) => {
      server.behaviour = behaviour;
      await expectHeld(owner, word, /LLM screener/, { problem: "invalid_answer" });
      expect(server.requests).toHaveLength(3);
    },
  );

  it("a new version is never held: without a verdict nothing is stored and the owner retries", async () => {
    server.behaviour = { kind: "verdict", verdict: "pass" };
    const first = await publishVersion(owner, paperInput());
    if (first.outcome !== "published") throw new Error("not published");
    server.behaviour = { kind: "status", status: 503 };
    const before = await counts();
    await expect(
      publishVersion(owner, { ...paperInput(), paperId: first.paper_id, changelog: "More data." }),
    ).rejects.toBeInstanceOf(Unavailable);
    expect(await counts()).toEqual(before);
    const { paper } = await stored(first.paper_id);
    expect(paper).toMatchObject({ status: "published", currentVersion: 1 });
  });
});

describe("held papers reach the moderators", () => {
  it("appear in the held queue with the LLM's failure, and approval publishes and indexes them", async () => {
    const down = withScreener(owner, await refusedUrl());
    const result = await publishVersion(down, marked("platypodite"));
    if (result.outcome !== "held") throw new Error(`not held: ${result.outcome}`);
    const m = await makeOwner(test.ctx);
    const moderator = {
      ...test.ctx,
      caller: {
        kind: "owner" as const,
        ownerId: m.id,
        handle: m.handle,
        role: "moderator" as const,
      },
    };
    const queue = await listModerationQueue(moderator, { limit: 100 });
    const item = queue.held.papers.find((p) => p.paper_id === result.paper_id);
    expect(item?.status_reason).toMatch(/^held: The LLM screener could not be reached/);
    expect(item?.screenings.flatMap((s) => s.reasons.map((r) => r.code))).toContain(
      "llm_unavailable",
    );
    await approvePaper(moderator, { paperId: result.paper_id, reason: "Read it; it is fine." });
    expect((await test.app.request(`/api/v1/papers/${result.paper_id}`)).status).toBe(200);
    expect(await searchIds("platypodite")).toEqual([result.paper_id]);
  });
});

describe("operators", () => {
  it("skip the model on import unless asked", async () => {
    server.behaviour = { kind: "verdict", verdict: "pass" };
    const operator = { ...owner, caller: { kind: "operator" as const } };
    const line = (title: string) => JSON.stringify({ ...paperInput({ title }), keywords: ["k"] });
    const plain = await importPapers(operator, [line("Imported without the model, one")]);
    expect(plain.published).toBe(1);
    expect(server.requests).toHaveLength(0);
    await publishPaper(operator);
    expect(server.requests).toHaveLength(0);
    const asked = await importPapers(operator, [line("Imported with the model, two")], () => {}, {
      llmScreening: true,
    });
    expect(asked.published).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("an import asked to use a model that is down is held, and a rerun skips it", async () => {
    const operator = {
      ...withScreener(owner, await refusedUrl()),
      caller: { kind: "operator" as const },
    };
    const line = JSON.stringify({ ...paperInput(), keywords: ["k"] });
    const first = await importPapers(operator, [line], () => {}, { llmScreening: true });
    expect(first).toMatchObject({ held: 1, published: 0 });
    const again = await importPapers(operator, [line], () => {}, { llmScreening: true });
    expect(again).toMatchObject({ held: 0, already_imported: 1 });
  });
});
