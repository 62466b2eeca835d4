/**
 * @module The list's filters, orders and cursors together, property-tested against the rows
 * themselves: whatever the combination, paging visits every matching paper exactly once, in
 * the order asked, and nothing else; and each order and filter is answered from an index.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { comments, reviews } from "../../db/schema/index.ts";
import { rowsOf, withTransaction } from "../../db/sql.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeAgent, makeOwner, paperInput } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import type { PaperSort } from "../filters/index.ts";
import { newId } from "../ids.ts";
import { encodeKeyset } from "../paging.ts";
import { subjectFilter } from "../subjects/index.ts";
import { type ListPapersInput, listPapers, papersQuery, parseListQuery } from "./list.ts";
import { publishVersion } from "./publish.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
const agents: string[] = [];

const SUBJECTS = [
  ["cs.CL", "cs.AI"],
  ["cs.LG"],
  ["stat.ML", "cs.LG"],
  ["math.NA", "cs.MS"],
  ["hep-th"],
  ["q-bio.NC", "cs.NE"],
  undefined,
];
const MODELS = ["model-a", "Model-B", "model-c"];
const DAYS = ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-05"];

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  const op = { ...ctx, caller: operator };
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    clock.advance(1000);
    const day = DAYS[i % DAYS.length]!;
    // Two papers share each publication instant, so ties are broken by id.
    const at = new Date(`${day}T${String(8 + Math.floor(i / 10)).padStart(2, "0")}:00:00.000Z`);
    const result = await publishVersion(
      op,
      paperInput({
        subjects: SUBJECTS[i % SUBJECTS.length],
        ai_model: MODELS[i % MODELS.length]!,
        publishedAt: at,
      }),
    );
    if (result.outcome !== "published") throw new Error(JSON.stringify(result));
    ids.push(result.paper_id);
  }
  // Some papers get a second version (a later update) and new subjects.
  for (const id of ids.filter((_, i) => i % 4 === 1)) {
    clock.advance(1000);
    const result = await publishVersion(op, {
      ...paperInput({ subjects: ["cs.IR"] }),
      paperId: id,
      changelog: "Revised.",
    });
    if (result.outcome !== "published") throw new Error(JSON.stringify(result));
  }
  // One hidden paper, which no filter may list.
  await setPaperStatus(ctx, ids[3]!, "withdrawn");
  // Two agents discuss some papers; removed contributions do not count.
  for (const name of ["a", "b"]) {
    const owner = await makeOwner(ctx);
    agents.push((await makeAgent(ctx, owner.handle, name)).id);
  }
  const now = clock.now();
  for (const [n, id] of ids.entries()) {
    for (let k = 0; k < n % 4; k++) {
      await database.db.insert(comments).values({
        id: newId("cmt", now),
        paperId: id,
        paperVersion: 1,
        agentId: agents[k % 2]!,
        body: "A comment.",
        createdAt: now,
        removedAt: n % 9 === 0 ? now : null,
      });
    }
    if (n % 5 === 0) {
      await database.db.insert(reviews).values({
        id: newId("rev", now),
        paperId: id,
        paperVersion: 1,
        kind: "ai_advisory",
        agentId: agents[1]!,
        soundness: 3,
        presentation: 3,
        contribution: 3,
        confidence: 3,
        overall: 6,
        body: "A review.",
        createdAt: now,
      });
    }
  }
});
afterAll(async () => database.close());

interface Truth {
  id: string;
  subjects: string[];
  published: number;
  updated: string;
  discussion: number;
  model: string;
  agents: string[];
}

/** Every visible paper as the rows say, for the expected answer of any query. */
async function truth(): Promise<Truth[]> {
  const rows = await rowsOf<{
    id: string;
    subjects: string[];
    published: string;
    updated: string;
    discussion: number;
    model: string;
    agents: string[] | null;
  }>(
    database.db,
    sql`select p.id, p.subjects, p.published_at::text as published,
          to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated,
          p.comment_count + p.ai_review_count + p.human_review_count as discussion,
          v.ai_model as model,
          array(select agent_id from comments c where c.paper_id = p.id and c.removed_at is null
                union select agent_id from reviews r
                where r.paper_id = p.id and r.removed_at is null and r.agent_id is not null) as agents
        from papers p join paper_versions v on v.paper_id = p.id and v.version = p.current_version
        where p.status = 'published'`,
  );
  return rows.map((r) => ({
    ...r,
    published: Date.parse(r.published),
    discussion: Number(r.discussion),
    agents: r.agents ?? [],
  }));
}

function expected(all: Truth[], q: ListPapersInput): string[] {
  const codes = q.subject ? new Set<string>(subjectFilter(q.subject)) : null;
  const start = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00.000Z` : v);
  const end = (v: string) =>
    v.length === 10 ? Date.parse(`${v}T00:00:00.000Z`) + 86_400_000 - 1 : Date.parse(v);
  const kept = all.filter(
    (p) =>
      (!codes || p.subjects.some((s) => codes.has(s))) &&
      (!q.since || p.published >= start(q.since)) &&
      (!q.until || p.published <= end(q.until)) &&
      (!q.model || p.model.toLowerCase() === q.model.toLowerCase()) &&
      (!q.agent || p.agents.includes(q.agent)),
  );
  const byId = (a: Truth, b: Truth) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  const sorts: Record<PaperSort, (a: Truth, b: Truth) => number> = {
    newest: (a, b) => b.published - a.published || byId(a, b),
    updated: (a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0) || byId(a, b),
    discussed: (a, b) => b.discussion - a.discussion || byId(a, b),
  };
  return kept.sort(sorts[q.sort ?? "newest"]).map((p) => p.id);
}

/** Every page of a query, following next_cursor. */
async function allPages(q: ListPapersInput): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await listPapers(ctx, { ...q, ...(cursor ? { cursor } : {}) });
    seen.push(...page.papers.map((p) => p.id));
    if (!page.next_cursor) return seen;
    cursor = page.next_cursor;
  }
  throw new Error("paging did not end");
}

const query = fc.record(
  {
    subject: fc.constantFrom("cs", "cs.LG", "cs.NA", "math", "physics", "stat.ML", "cs.IR"),
    since: fc.constantFrom("2026-10-02", "2026-10-03T08:30:00Z", "2026-10-01T09:00:00+02:00"),
    until: fc.constantFrom("2026-10-04", "2026-10-05T09:00:00.000Z", "2026-10-03"),
    model: fc.constantFrom("model-a", "MODEL-B", "nobody"),
    agent: fc.constantFrom(...["a", "b"].map((_, i) => i)),
    sort: fc.constantFrom<PaperSort>("newest", "updated", "discussed"),
    limit: fc.integer({ min: 1, max: 7 }),
  },
  { requiredKeys: ["limit"] },
);

describe("listPapers with filters, orders and cursors", () => {
  it("visits every matching paper once, in order, and nothing else (property)", async () => {
    const all = await truth();
    await fc.assert(
      fc.asyncProperty(query, async ({ agent, ...rest }) => {
        const q: ListPapersInput = {
          ...rest,
          ...(agent === undefined ? {} : { agent: agents[agent]! }),
        };
        if (q.since && q.until) {
          const start = Date.parse(q.since.length === 10 ? `${q.since}T00:00:00Z` : q.since);
          const end = Date.parse(q.until.length === 10 ? `${q.until}T23:59:59.999Z` : q.until);
          if (start > end) {
            await expect(listPapers(ctx, q)).rejects.toBeInstanceOf(Invalid);
            return;
          }
        }
        expect(await allPages(q)).toEqual(expected(all, q));
      }),
      { numRuns: 60, seed: 20261128 },
    );
  });

  it("lists subjects on every item, primary first", async () => {
    const { papers } = await listPapers(ctx, { subject: "stat.ML", limit: 100 });
    expect(papers.length).toBeGreaterThan(0);
    for (const p of papers) expect(p.subjects).toEqual(["stat.ML", "cs.LG"]);
    const none = await listPapers(ctx, { limit: 100 });
    expect(none.papers.some((p) => p.subjects.length === 0)).toBe(true);
  });

  it("keeps a newest-first cursor a client kept from before the filters", async () => {
    const first = await listPapers(ctx, { limit: 2 });
    const last = first.papers.at(-1)!;
    const old = encodeKeyset([Date.parse(last.published_at), last.id]);
    expect(old).toBe(first.next_cursor);
    const next = await listPapers(ctx, { limit: 2, cursor: old });
    expect(next.papers[0]?.id).not.toBe(last.id);
  });

  it("refuses bad filters with a 400 naming each, and a cursor of another order", async () => {
    const refused = async (q: ListPapersInput) => {
      const error = await listPapers(ctx, q).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Invalid);
      return (error as Invalid).issues.map((i) => `${i.name}: ${i.message}`);
    };
    const issues = await refused({
      subject: "cs.XX",
      since: "2026-02-30",
      until: "yesterday",
      agent: "bob",
      sort: "oldest" as PaperSort,
    });
    expect(issues.map((i) => i.split(":")[0]).sort()).toEqual([
      "agent",
      "since",
      "sort",
      "subject",
      "until",
    ]);
    expect(issues.find((i) => i.startsWith("subject"))).toMatch(/cs\.XX/);
    expect(await refused({ since: "2026-10-05", until: "2026-10-04" })).toEqual([
      "since: must not be after until",
    ]);
    const updated = await listPapers(ctx, { sort: "updated", limit: 1 });
    expect(await refused({ sort: "newest", cursor: updated.next_cursor! })).toEqual([
      expect.stringMatching(/^cursor: /),
    ]);
  });
});

describe("the list's plans", () => {
  it("answers every order and the subject and date filters from indexes, never a scan of papers", async () => {
    const plans: string[] = [];
    for (const q of [
      { sort: "newest" },
      { sort: "updated" },
      { sort: "discussed" },
      { subject: "cs.LG", since: "2026-10-02" },
      { subject: "cs", since: "2026-10-02", sort: "updated" },
      { subject: "hep-th", sort: "discussed" },
    ] as ListPapersInput[]) {
      const request = parseListQuery({ limit: 20, ...q });
      const plan = await withTransaction(database.db, async (tx) => {
        // With sequential scans priced out, a plan still shows one only if no index applies.
        await tx.execute(sql`set local enable_seqscan = off`);
        const rows = await rowsOf<{ "QUERY PLAN": string }>(
          tx,
          sql`explain ${papersQuery({ ...ctx, db: tx }, request, null)}`,
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      plans.push(plan);
      expect(plan, JSON.stringify(q)).not.toMatch(/Seq Scan on papers/);
    }
    expect(plans.join("\n")).toMatch(/papers_subjects_idx|papers_list_idx/);
  });
});
