import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid, NotFound } from "../errors.ts";
import { coalesce, diffBody, diffPaperVersions, diffText } from "./diff.ts";
import { browsePapers, listPapers } from "./list.ts";
import { publishVersion } from "./publish.ts";
import { getScreeningWarnings, listPaperVersions } from "./versions.ts";

let database: Database;
let ctx: ServiceContext;
const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
const ids: string[] = [];
let versioned: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database, { clock });
  for (let i = 0; i < 5; i++) {
    clock.advance(60_000);
    ids.push(
      (await publishPaper(ctx, { keywords: i % 2 === 0 ? ["Even", "all"] : ["all"] })).paper_id,
    );
  }
  const first = paperInput({ body: "## One\n\nAlpha beta gamma.\n\n## Two\n\nUnchanged text.\n" });
  versioned = (await publishPaper(ctx, first)).paper_id;
  clock.advance(60_000);
  const second = await publishVersion(
    { ...ctx, caller: operator },
    {
      ...first,
      paperId: versioned,
      title: `${first.title} revised`,
      body: "## One\n\nAlpha delta gamma.\n\n## Two\n\nUnchanged text.\n",
      keywords: ["fresh", ...first.keywords.slice(1)],
      changelog: "Beta became delta.",
    },
  );
  expect(second.outcome).toBe("published");
});
afterAll(async () => database.close());

describe("browsePapers", () => {
  it("lists what listPapers lists, in the same order, with keywords, and pages with its cursors", async () => {
    const api = await listPapers(ctx, { limit: 4 });
    const page = await browsePapers(ctx, { limit: 4 });
    // The site's items add the keywords and the version's language (for `lang` on titles).
    expect(page.papers.map(({ keywords: _k, language: _l, ...item }) => item)).toEqual(api.papers);
    expect(page.next_cursor).toBe(api.next_cursor);
    expect(page.papers[1]?.keywords).toEqual(["Even", "all"]);
    const next = await browsePapers(ctx, { limit: 4, cursor: page.next_cursor! });
    expect(next.papers.map((p) => p.id)).toEqual(
      (await listPapers(ctx, { limit: 4, cursor: api.next_cursor! })).papers.map((p) => p.id),
    );
    expect(next.next_cursor).toBeNull();
  });

  it("filters by keyword case-insensitively, paging within the filter", async () => {
    const even = await browsePapers(ctx, { keyword: "  EVEN ", limit: 2 });
    expect(even.keyword).toBe("EVEN");
    expect(even.papers.map((p) => p.id)).toEqual([ids[4], ids[2]]);
    const rest = await browsePapers(ctx, { keyword: "even", limit: 2, cursor: even.next_cursor! });
    expect(rest.papers.map((p) => p.id)).toEqual([ids[0]]);
    expect((await browsePapers(ctx, { keyword: "none-such" })).papers).toEqual([]);
  });

  it("refuses a bad cursor, limit or keyword with every issue listed", async () => {
    const error = await browsePapers(ctx, {
      limit: 0,
      cursor: "nope!",
      keyword: "k".repeat(201),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual([
      "cursor",
      "keyword",
      "limit",
    ]);
  });

  it("hides withdrawn papers", async () => {
    const gone = (await publishPaper(ctx)).paper_id;
    await setPaperStatus(ctx, gone, "withdrawn");
    expect((await browsePapers(ctx, {})).papers.map((p) => p.id)).not.toContain(gone);
  });
});

describe("listPaperVersions and getScreeningWarnings", () => {
  it("lists versions oldest first with changelogs; 404 like the paper", async () => {
    const history = await listPaperVersions(ctx, { id: `${versioned}v1` });
    expect(history.current_version).toBe(2);
    expect(history.versions.map((v) => [v.version, v.changelog])).toEqual([
      [1, null],
      [2, "Beta became delta."],
    ]);
    await expect(listPaperVersions(ctx, { id: "2611.99999" })).rejects.toBeInstanceOf(NotFound);
    const gone = (await publishPaper(ctx)).paper_id;
    await setPaperStatus(ctx, gone, "removed");
    await expect(listPaperVersions(ctx, { id: gone })).rejects.toBeInstanceOf(NotFound);
  });

  it("returns the warnings screening recorded for a version, and nothing for a clean one", async () => {
    const short = (await publishPaper(ctx, { body: "A body far too short." })).paper_id;
    const warnings = await getScreeningWarnings(ctx, { id: short, version: 1 });
    expect(warnings.map((w) => w.code)).toContain("body_short");
    expect(warnings.every((w) => w.message.length > 0)).toBe(true);
    expect(await getScreeningWarnings(ctx, { id: short, version: 2 })).toEqual([]);
  });

  it("an owner sees their own withdrawn paper's history; others do not", async () => {
    const owner = await makeOwner(ctx);
    const own = (await publishPaper(ctx, { ownerId: owner.id })).paper_id;
    await setPaperStatus(ctx, own, "withdrawn");
    const asOwner = {
      ...ctx,
      caller: {
        kind: "owner" as const,
        ownerId: owner.id,
        handle: owner.handle,
        role: "owner" as const,
      },
    };
    expect((await listPaperVersions(asOwner, { id: own })).versions).toHaveLength(1);
    await expect(listPaperVersions(ctx, { id: own })).rejects.toBeInstanceOf(NotFound);
  });
});

describe("diffPaperVersions", () => {
  it("compares field by field: words in text, lines then words in the body, keywords as a set", async () => {
    const diff = await diffPaperVersions(ctx, { id: versioned, from: 1, to: 2 });
    const field = (name: string) => diff.fields.find((f) => f.field === name)!;
    expect(field("title").parts.at(-1)).toEqual({ op: "added", text: " revised" });
    expect(field("abstract").changed).toBe(false);
    expect(field("license").changed).toBe(false);
    expect(field("body").parts).toEqual([
      { op: "same", text: "## One\n\nAlpha " },
      { op: "removed", text: "beta" },
      { op: "added", text: "delta" },
      { op: "same", text: " gamma.\n\n## Two\n\nUnchanged text.\n" },
    ]);
    expect(field("keywords").parts.filter((p) => p.op !== "same")).toEqual([
      { op: "removed", text: expect.any(String) },
      { op: "added", text: "fresh" },
    ]);
    expect(diff.to.changelog).toBe("Beta became delta.");
  });

  it("compares backwards too; refuses equal, missing and non-integer versions (400)", async () => {
    const back = await diffPaperVersions(ctx, { id: versioned, from: 2, to: 1 });
    expect(back.fields.find((f) => f.field === "title")?.parts.at(-1)).toEqual({
      op: "removed",
      text: " revised",
    });
    for (const [from, to, names] of [
      [1, 1, ["to"]],
      [0, 3, ["from", "to"]],
      [Number.NaN, 2, ["from"]],
      [1.5, 2, ["from"]],
    ] as const) {
      const error = await diffPaperVersions(ctx, { id: versioned, from, to }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues.map((i) => i.name)).toEqual(names);
    }
    await expect(
      diffPaperVersions(ctx, { id: "2611.99999", from: 1, to: 2 }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it("keeps its cost bounded: texts too far apart are shown whole, not diffed word by word", () => {
    const a = Array.from({ length: 3000 }, (_, i) => `line ${i} of the old text`).join("\n");
    const b = Array.from({ length: 3000 }, (_, i) => `row ${i * 7} of the new text`).join("\n");
    expect(diffBody(a, b)).toEqual([
      { op: "removed", text: a },
      { op: "added", text: b },
    ]);
    const long = "word ".repeat(5000);
    expect(diffText(long, `${long}end`)).toEqual([
      { op: "removed", text: long },
      { op: "added", text: `${long}end` },
    ]);
  });

  it("folds short shared words between changes into one removal and one addition", () => {
    expect(
      coalesce([
        { op: "removed", text: "red" },
        { op: "added", text: "blue" },
        { op: "same", text: " " },
        { op: "removed", text: "cat" },
        { op: "added", text: "dog" },
        { op: "same", text: " sat quietly" },
      ]),
    ).toEqual([
      { op: "removed", text: "red cat" },
      { op: "added", text: "blue dog" },
      { op: "same", text: " sat quietly" },
    ]);
  });
});
